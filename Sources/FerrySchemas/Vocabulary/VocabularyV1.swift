/// The `vocabulary` domain at schema version 1 (SCHEMAS.md "Domain vocabulary: V1"), shaped like a
/// Firestore export.
public enum VocabularyV1 {
    /// What V1's integer `studyState` values mean.
    public static let studyStates: [Int64: VocabularyV2.StudyState] = [0: .undefined, 1: .success, 2: .fail]
}

/// The `vocabulary` domain's version 1 schema.
public enum VocabularySchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let domain = Domain.vocabulary
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(VocabularyV1.WordBook.self)
        visitor.visit(VocabularyV1.Word.self)
    }
}
