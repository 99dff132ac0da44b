import FerryCore
import Foundation

/// What a typed stage knows about the record it migrates (the typed counterpart of
/// `MigrationContext`, without a sink for diagnostics: a typed stage reports nothing, it gives up).
public struct TypedMigrationContext: Sendable {
    /// The processing options (`--strict`, `--lenient`, date strategy, media).
    public var options: ProcessingOptions
    /// The resolved `--time-zone`.
    public var timeZone: TimeZone
    /// The record's collection in the old version (`wineNotes`).
    public var sourceCollection: String
    /// The record's collection in the new version (`wineTastingNotes`).
    public var targetCollection: String
    /// The record's 0-based index in its source collection.
    public var recordIndex: Int

    public init(
        options: ProcessingOptions, timeZone: TimeZone, sourceCollection: String, targetCollection: String,
        recordIndex: Int = 0
    ) {
        self.options = options
        self.timeZone = timeZone
        self.sourceCollection = sourceCollection
        self.targetCollection = targetCollection
        self.recordIndex = recordIndex
    }
}

/// A migration stage on models: the new version's model for `old`, or nil when the record must take
/// the general stage (anything the general stage or the new version's validation would report: a
/// lossy drop, a bad finish length, an id to derive, a V2 rule broken such as rating out of range or
/// a title empty).
///
/// `old` is a model the general path's decode accepted without any diagnostic. The model returned
/// must be exactly the one the general stage would produce (its `value` equal to the general
/// stage's output), and valid in the new version (`FieldRuleCheck`).
public typealias TypedRecordMigration = @Sendable (_ old: any CollectionModel, _ context: TypedMigrationContext) -> (
    any CollectionModel
)?
