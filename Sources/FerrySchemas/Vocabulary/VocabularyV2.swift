/// The `vocabulary` domain at schema version 2 (SCHEMAS.md "Domain vocabulary: V2").
public enum VocabularyV2 {
    /// How a word's last study went.
    public enum StudyState: String, Sendable, Hashable, CaseIterable {
        case undefined, success, fail
    }
}

/// The `vocabulary` domain's version 2 schema.
public enum VocabularySchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let domain = Domain.vocabulary
    public static var models: [any CollectionModel.Type] { [VocabularyV2.WordBook.self, VocabularyV2.Word.self] }
}
