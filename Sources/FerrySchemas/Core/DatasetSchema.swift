/// One domain at one schema version: its collections in canonical order (SCHEMAS.md).
public struct DatasetSchema: Sendable, Hashable {
    public let domain: Domain
    /// 1 or 2.
    public let version: Int
    /// The collections in the order SCHEMAS.md lists them (the order writers emit).
    public let collections: [CollectionSchema]

    public init(domain: Domain, version: Int, collections: [CollectionSchema]) {
        self.domain = domain
        self.version = version
        self.collections = collections
    }

    /// The schema of a domain at a version, nil for a version SCHEMAS.md does not define.
    public static func schema(for domain: Domain, version: Int) -> DatasetSchema? {
        switch (domain, version) {
        case (.notes, 1): return NotesSchemaV1.datasetSchema
        case (.notes, 2): return NotesSchemaV2.datasetSchema
        case (.petStory, 1): return PetStorySchemaV1.datasetSchema
        case (.petStory, 2): return PetStorySchemaV2.datasetSchema
        case (.vocabulary, 1): return VocabularySchemaV1.datasetSchema
        case (.vocabulary, 2): return VocabularySchemaV2.datasetSchema
        default: return nil
        }
    }

    /// The collection named `name`, if the schema has it.
    public func collection(named name: String) -> CollectionSchema? {
        for collection in collections where collection.name == name { return collection }
        return nil
    }

    /// The collection names in canonical order.
    public var collectionNames: [String] { collections.map(\.name) }
}
