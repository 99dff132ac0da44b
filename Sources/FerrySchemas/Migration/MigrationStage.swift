import FerryCore

/// One step of a migration plan, named like SwiftData's `MigrationStage`.
///
/// - `lightweight`: every collection keeps its name; fields the new model has by the same name
///   are kept, others dropped (a dropped value that is not the default is a `lossy-drop` warning).
/// - `custom`: one `MigrationStep` per collection, written on models (`MigrationStep<Old, New>`);
///   a collection without a step migrates as in a lightweight stage.
public enum MigrationStage: Sendable {
    /// Renames and drops only (a dropped non-default value is a `lossy-drop` warning).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage of per-collection steps on models.
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type, steps: [any CollectionMigration])

    /// The schema the stage starts from.
    public var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _): return from
        }
    }

    /// The schema the stage produces.
    public var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _): return to
        }
    }

    /// The stage's steps (none for a lightweight stage).
    public var steps: [any CollectionMigration] {
        switch self {
        case .lightweight: return []
        case .custom(_, _, let steps): return steps
        }
    }

    /// The step that reads records of `collection` (old name); nil when none does.
    public func step(forSourceCollection collection: String) -> (any CollectionMigration)? {
        steps.first { $0.sourceModel.collection == collection }
    }

    /// Collections the stage renames (old name -> new name), from its steps' model types.
    public var collectionRenames: [String: String] {
        var renames: [String: String] = [:]
        for step in steps where step.sourceModel.collection != step.targetModel.collection {
            renames[step.sourceModel.collection] = step.targetModel.collection
        }
        return renames
    }
}

/// A migration plan of one domain, as SwiftData's `SchemaMigrationPlan`: its schemas oldest
/// first and the stages between them. Collection renames and the pointers of diagnostics follow
/// from the stages' steps.
public protocol SchemaMigrationPlan: Sendable {
    /// The versioned schemas, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages, in order.
    static var stages: [MigrationStage] { get }
}

extension SchemaMigrationPlan {
    /// The stage that ends at schema version `version` (its `major`), if any.
    public static func stage(toVersion version: Int) -> MigrationStage? {
        stages.first { $0.toVersion.versionIdentifier.major == version }
    }

    /// Collections renamed by the stage that ends at `version` (old name -> new name).
    public static func collectionRenames(toVersion version: Int) -> [String: String] {
        stage(toVersion: version)?.collectionRenames ?? [:]
    }

    /// The pointer in the old record (`/alcohol`) a pointer of the new record (`/alcoholByVolume`)
    /// of collection `collection` (new name) came from, for diagnostics after a migration: the
    /// renames of the step that makes `collection` in the stage ending at `version`.
    public static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int)
        -> JSONPointer
    {
        guard let step = stage(toVersion: version)?.steps.first(where: { $0.targetModel.collection == collection })
        else { return pointer }
        return PointerRename.apply(step.pointerRenames, to: pointer)
    }

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
