import FerryCore

/// One domain at one schema version: its collections in canonical order (SCHEMAS.md).
public struct DatasetSchema: Sendable, Hashable {
    public let domain: Domain
    /// The major version (`VersionedSchema.versionIdentifier.major`): 1 or 2 for the built-in domains.
    public let version: Int
    /// The collections in the order SCHEMAS.md lists them (the order writers emit).
    public let collections: [CollectionSchema]

    public init(domain: Domain, version: Int, collections: [CollectionSchema]) {
        self.domain = domain
        self.version = version
        self.collections = collections
    }

    /// The schema of a domain at a version (its definition's plan's versioned schema), nil for a
    /// version the domain does not define or a domain that is not registered.
    public static func schema(for domain: Domain, version: Int) -> DatasetSchema? {
        domain.definition?.migrationPlan.schema(version: version)?.datasetSchema
    }

    /// The `unknown-version` error for a version `domain` does not define, naming the versions it
    /// does: `notes has no schema version 3 (known: 1, 2)`.
    public static func unknownVersion(_ version: Int, of domain: Domain) -> FerryError {
        let known = domain.definition?.migrationPlan.schemas.map { String($0.versionIdentifier.major) } ?? []
        return FerryError(.unknownVersion, "\(domain.rawValue) has no schema version \(version) (known: \(known.joined(separator: ", ")))")
    }

    /// The collection named `name`, if the schema has it.
    public func collection(named name: String) -> CollectionSchema? {
        for collection in collections where collection.name == name { return collection }
        return nil
    }

    /// The collection names in canonical order.
    public var collectionNames: [String] { collections.map(\.name) }
}
