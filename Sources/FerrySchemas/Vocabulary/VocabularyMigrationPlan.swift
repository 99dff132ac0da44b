import FerryCore

/// The `vocabulary` migration V1 -> V2 (SCHEMAS.md "Domain vocabulary: V1 -> V2").
///
/// - Timestamp -> Instant, nanoseconds cut to milliseconds (`lossy-precision` when finer); a word
///   book's `timestamp` becomes `createdAt`.
/// - A missing `id`, `wordBookID` or `timestamp` (absent, null or "") is a `missing-field` error
///   naming the record; a timestamp of 0 is 1970-01-01T00:00:00Z.
/// - `studyState` 0/1/2 -> "undefined"/"success"/"fail"; another value is an `invalid-value`
///   error, or under `--lenient` "undefined" with a `lossy-change` warning.
public enum VocabularyMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [VocabularySchemaV1.self, VocabularySchemaV2.self] }

    public static var stages: [MigrationStage] {
        [.custom(fromVersion: VocabularySchemaV1.self, toVersion: VocabularySchemaV2.self, willMigrate: migrateV1toV2, didMigrate: nil)]
    }

    public static func sourcePointer(for pointer: JSONPointer, inCollection collection: String, toVersion version: Int)
        -> JSONPointer
    {
        guard version == 2 else { return pointer }
        return collection == "wordBooks"
            ? PointerRename.apply([PointerRename("/createdAt", "/timestamp")], to: pointer)
            : PointerRename.apply([PointerRename("/timestamp", "/timestamp")], to: pointer)
    }

    /// The per-record V1 -> V2 step.
    public static let migrateV1toV2: MigrationStage.RecordMigration = { old, new, context in
        guard case .object(let v1) = old.value, case .object(var v2) = new else { return }
        let id = v1["id"]?.stringValue ?? ""
        context.recordID = id.isEmpty ? nil : id
        if id.isEmpty {
            context.error(.missingField, "id is missing", at: "/id")
        }
        let timestampField = context.targetCollection == "wordBooks" ? "createdAt" : "timestamp"
        v2["timestamp"] = nil
        if let timestamp = v1["timestamp"], case .success(let read) = FirestoreTimestamp.read(timestamp) {
            let (cut, lost) = read.instant.truncatedToMilliseconds()
            if lost {
                context.warning(.lossyPrecision,
                    "timestamp has \(read.instant.nanoseconds) nanoseconds; cut to milliseconds (\(cut))",
                    at: "/timestamp")
            }
            v2[timestampField] = .string(cut.description)
        } else {
            context.error(.missingField, "timestamp is missing", at: "/timestamp")
        }
        if context.targetCollection == "words" {
            if (v1["wordBookID"]?.stringValue ?? "").isEmpty {
                context.error(.missingField, "wordBookID is missing", at: "/wordBookID")
            }
            let state = v1["studyState"]?.int64Value ?? -1
            if let mapped = VocabularyV1.studyStates[state] {
                v2["studyState"] = .string(mapped.rawValue)
            } else if context.options.mode == .lenient {
                v2["studyState"] = .string(VocabularyV2.StudyState.undefined.rawValue)
                context.warning(.lossyChange, "studyState \(state) is not 0, 1 or 2; set to \"undefined\"",
                    at: "/studyState")
            } else {
                context.error(.invalidValue,
                    "studyState \(state) is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)",
                    at: "/studyState")
            }
        }
        new = .object(v2)
    }
}
