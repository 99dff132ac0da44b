import FerryCore

/// The `vocabulary` migration V1 -> V2 (SCHEMAS.md "Domain vocabulary: V1 -> V2").
///
/// - Timestamp -> Instant, nanoseconds cut to milliseconds (`lossy-precision` when finer); a word
///   book's `timestamp` becomes `createdAt`.
/// - A missing `id` or `wordBookID` (absent, null or "") is a `missing-field` error naming the
///   record (a missing `timestamp` is one already when V1 is read); a timestamp of 0 is
///   1970-01-01T00:00:00Z.
/// - `studyState` 0/1/2 -> "undefined"/"success"/"fail"; another value is an `invalid-value`
///   error, or under `--lenient` "undefined" with a `lossy-change` warning.
public enum VocabularyMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [VocabularySchemaV1.self, VocabularySchemaV2.self] }

    public static let stages: [MigrationStage] = [
        .custom(fromVersion: VocabularySchemaV1.self, toVersion: VocabularySchemaV2.self,
                steps: [wordBookV1toV2, wordV1toV2])
    ]

    /// `wordBooks`: `timestamp` -> `createdAt`.
    public static let wordBookV1toV2 = MigrationStep(VocabularyV1.WordBook.self, to: VocabularyV2.WordBook.self,
        pointerRenames: [PointerRename("/createdAt", "/timestamp")]) { old, context in
        let id = checkedID(old.id, &context)
        return VocabularyV2.WordBook(id: id, title: old.title, createdAt: instant(of: old.timestamp, &context))
    }

    /// `words`: `wordBookID` must be set; `studyState` 0/1/2 becomes its name.
    public static let wordV1toV2 = MigrationStep(VocabularyV1.Word.self, to: VocabularyV2.Word.self,
        pointerRenames: [PointerRename("/timestamp", "/timestamp")]) { old, context in
        let id = checkedID(old.id, &context)
        let timestamp = instant(of: old.timestamp, &context)
        let wordBookID = old.wordBookID ?? ""
        if wordBookID.isEmpty {
            context.error(.missingField, "wordBookID is missing", at: "/wordBookID")
        }
        var studyState = VocabularyV2.StudyState.undefined
        if let mapped = VocabularyV1.studyStates[old.studyState] {
            studyState = mapped
        } else if context.isLenient {
            context.warning(.lossyChange, "studyState \(old.studyState) is not 0, 1 or 2; set to \"undefined\"",
                at: "/studyState")
        } else {
            context.error(.invalidValue,
                "studyState \(old.studyState) is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)",
                at: "/studyState")
        }
        return VocabularyV2.Word(
            id: id, wordBookID: wordBookID, meaningText: old.meaningText, meaningImageURL: old.meaningImageURL,
            ganaText: old.ganaText, ganaImageURL: old.ganaImageURL, kanjiText: old.kanjiText,
            kanjiImageURL: old.kanjiImageURL, studyState: studyState, timestamp: timestamp)
    }

    /// The record's id; a missing one (absent or "") is a `missing-field` error.
    private static func checkedID(_ id: String?, _ context: inout MigrationContext) -> String {
        let id = id ?? ""
        context.recordID = id
        if id.isEmpty { context.error(.missingField, "id is missing", at: "/id") }
        return id
    }

    /// The instant of a V1 timestamp cut to milliseconds; finer is a `lossy-precision` warning.
    private static func instant(of timestamp: FirestoreTimestamp, _ context: inout MigrationContext) -> Instant {
        let (cut, lost) = timestamp.instant.truncatedToMilliseconds()
        if lost {
            context.warning(.lossyPrecision,
                "timestamp has \(timestamp.instant.nanoseconds) nanoseconds; cut to milliseconds (\(cut))", at: "/timestamp")
        }
        return cut
    }
}
