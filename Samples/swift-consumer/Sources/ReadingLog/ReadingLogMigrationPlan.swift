import Ferry

/// The reading log's V1 -> V2 plan: one custom stage. `book` is renamed `title`, `author` is
/// split into `authorGiven` and `authorFamily` (`ReadingLogMigration.splitAuthor`), and a rating
/// off the half-star grid is rounded to it with a `lossy-change` warning. Fields of the same
/// name (`id`, `pages`, `finishedOn`) are carried by the stage's lightweight copy.
public enum ReadingLogMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [ReadingLogSchemaV1.self, ReadingLogSchemaV2.self] }

    public static var stages: [MigrationStage] {
        [.custom(fromVersion: ReadingLogSchemaV1.self, toVersion: ReadingLogSchemaV2.self,
                 willMigrate: migrateV1toV2, didMigrate: nil)]
    }

    /// Diagnostics on V2 fields point at the V1 fields they came from.
    public static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int)
        -> JSONPointer
    {
        guard version == 2 else { return pointer }
        return PointerRename.apply([PointerRename("/title", "/book"), PointerRename("/authorGiven", "/author"),
                                    PointerRename("/authorFamily", "/author")], to: pointer)
    }

    /// The per-record step: `old` is the validated V1 entry, `new` its lightweight V2 copy.
    public static let migrateV1toV2: MigrationStage.RecordMigration = { old, new, context in
        guard case .object(let v1) = old.value, case .object(var v2) = new else { return }
        context.recordID = v1["id"]?.stringValue
        v2["title"] = v1["book"]
        let (given, family) = ReadingLogMigration.splitAuthor(v1["author"]?.stringValue ?? "")
        v2["authorGiven"] = .string(given)
        v2["authorFamily"] = .string(family)
        if let rating = v1["rating"]?.doubleValue {
            let rounded = (rating * 2).rounded() / 2
            if rounded != rating {
                context.warning(.lossyChange, ReadingLogMigration.roundingMessage(from: rating, to: rounded), at: "/rating")
            }
            v2["rating"] = .double(rounded)
        }
        new = .object(v2)
    }
}
