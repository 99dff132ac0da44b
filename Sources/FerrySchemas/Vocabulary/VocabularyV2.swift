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
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(VocabularyV2.WordBook.self)
        visitor.visit(VocabularyV2.Word.self)
    }
}
