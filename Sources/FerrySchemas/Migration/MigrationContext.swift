import FerryCore
import Foundation

/// What a custom migration stage's per-record closure can use: the options, the media catalog,
/// the collections involved, and a sink for diagnostics that applies `--strict` to lossy ones.
public final class MigrationContext {
    /// The processing options (mode, date strategy, time zone name, media catalog).
    public let options: ProcessingOptions
    /// The resolved `--time-zone`.
    public let timeZone: TimeZone
    /// The record's collection in the old version (`wineNotes`).
    public internal(set) var sourceCollection: String = ""
    /// The record's collection in the new version (`wineTastingNotes`).
    public internal(set) var targetCollection: String = ""
    /// Where the old record's fields stand (positions and pointers for diagnostics).
    public internal(set) var recordContext: RecordContext
    /// The problems reported for the current record.
    public internal(set) var diagnostics: [Diagnostic] = []
    /// The current record's 0-based index in its source collection (derived ids use it).
    public internal(set) var recordIndex: Int = 0

    init(options: ProcessingOptions, timeZone: TimeZone, recordContext: RecordContext) {
        self.options = options
        self.timeZone = timeZone
        self.recordContext = recordContext
    }

    /// The current record's id, when the closure knows it better than the record's `id` field
    /// (a domain whose id has another name); diagnostics end with `(id "ID")` (nil: the record's own).
    public var recordID: String?

    /// The location of a field of the old record (a pointer relative to it: `/finish/length`),
    /// carrying the record's id.
    public func location(of field: JSONPointer) -> SourceLocation {
        var location = recordContext.location(of: field)
        if let recordID, !recordID.isEmpty { location.recordID = recordID }
        return location
    }

    /// Reports an error.
    public func error(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer) {
        diagnostics.append(.error(code, message, at: location(of: field)))
    }

    /// Reports a warning (a lossy one is an error under `--strict`).
    public func warning(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer) {
        diagnostics.append(.warning(code, message, at: location(of: field)))
    }

    /// Reports a note.
    public func note(_ code: Diagnostic.Code, _ message: String, at field: JSONPointer) {
        diagnostics.append(.note(code, message, at: location(of: field)))
    }

    /// True when the current record has errors.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

}

/// Thrown by a migration closure to abandon a record whose problems it already reported.
public struct MigrationAbandoned: Error, Sendable {
    public init() {}
}
