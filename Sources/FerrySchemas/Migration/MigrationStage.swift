import FerryCore

/// One step of a migration plan, named like SwiftData's `MigrationStage`.
///
/// Each record first goes through the lightweight mapping (collection renames, fields kept when
/// the new type has a field of the same name, others dropped); a custom stage then calls
/// `willMigrate` for each record with the old record (its canonical source value) and the new value
/// to fix up, decodes and validates the new value, and calls `didMigrate` with the validated result.
public enum MigrationStage: Sendable {
    /// Renames and drops only (a dropped non-default value is a `lossy-drop` warning).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage whose per-record closures see the old and the new value at once.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: RecordMigration?, didMigrate: RecordMigration?)

    /// The per-record closure of a custom stage: `old` is the source record (canonical old value,
    /// its location and locator), `new` the value of the new version being built; report problems
    /// through `context`, throw to abandon the record.
    public typealias RecordMigration = @Sendable (_ old: Record, _ new: inout Value, _ context: MigrationContext) throws -> Void

    /// The schema the stage starts from.
    public var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): return from
        }
    }

    /// The schema the stage produces.
    public var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): return to
        }
    }
}

/// A migration plan of one domain, as SwiftData's `SchemaMigrationPlan`: its schemas oldest
/// first and the stages between them.
public protocol SchemaMigrationPlan: Sendable {
    /// The versioned schemas, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages, in order.
    static var stages: [MigrationStage] { get }
    /// Collections renamed by the stage that ends at `version` (old name -> new name).
    static func collectionRenames(toVersion version: Int) -> [String: String]
    /// The pointer in the old record (`/alcohol`) a pointer of the new record (`/alcoholByVolume`)
    /// of collection `collection` (new name) came from, for diagnostics after a migration.
    static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int) -> JSONPointer
    /// The typed form of the stage that ends at `version`, working on models (issue 7: the typed
    /// path); nil when the plan has none, and every record takes the general stage.
    static func typedMigration(toVersion version: Int) -> TypedRecordMigration?
    /// Hands `visitor` the typed form of the stage that ends at `version` as concrete (old model,
    /// new model) pairs, each with its per-record step (`TypedPairMigration`): the same steps as
    /// `typedMigration(toVersion:)`, which a caller specialized for the pair runs without boxing
    /// the models. Visits nothing when the plan has no pairs there (callers then use
    /// `typedMigration(toVersion:)`). Implementations are `@inlinable` (see `Domain.forEachTypedPair`).
    static func forEachTypedPair<Visitor: TypedMigrationPairVisitor>(toVersion version: Int, _ visitor: inout Visitor)
}

extension SchemaMigrationPlan {
    public static func collectionRenames(toVersion version: Int) -> [String: String] { [:] }
    public static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int)
        -> JSONPointer
    { pointer }
    public static func typedMigration(toVersion version: Int) -> TypedRecordMigration? { nil }
    @inlinable
    public static func forEachTypedPair<Visitor: TypedMigrationPairVisitor>(toVersion version: Int, _ visitor: inout Visitor) {}

    /// The versioned schema of a version number.
    public static func schema(version: Int) -> (any VersionedSchema.Type)? {
        for schema in schemas where schema.versionIdentifier.major == version { return schema }
        return nil
    }
}

/// A rename of a field path between versions, for `sourcePointer(for:)`: `from` tokens of the new
/// shape (`*` matches any token) map to `to` tokens of the old one (`*` takes the matched tokens in
/// order); tokens below `from` are dropped (the old field was a scalar).
public struct PointerRename: Sendable {
    public var from: [String]
    public var to: [String]

    public init(_ from: String, _ to: String) {
        self.from = JSONPointer(from).tokens
        self.to = JSONPointer(to).tokens
    }

    /// Applies the first rename whose `from` prefixes `pointer`; the pointer unchanged when none does.
    public static func apply(_ renames: [PointerRename], to pointer: JSONPointer) -> JSONPointer {
        let tokens = pointer.tokens
        rename: for rename in renames where rename.from.count <= tokens.count {
            var wildcards: [String] = []
            for (pattern, token) in zip(rename.from, tokens) {
                if pattern == "*" {
                    wildcards.append(token)
                } else if pattern != token {
                    continue rename
                }
            }
            var result: [String] = []
            var next = 0
            for token in rename.to {
                if token == "*", next < wildcards.count {
                    result.append(wildcards[next])
                    next += 1
                } else {
                    result.append(token)
                }
            }
            return JSONPointer(tokens: result)
        }
        return pointer
    }
}
