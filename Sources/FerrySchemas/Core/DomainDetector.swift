import FerryCore

/// Finds the domain and schema version of an input (DESIGN.md "Detection").
public enum DomainDetector {
    /// Flags, then the input's header, then collection names and field shapes and values, as each
    /// registered domain's definition reads them (`DomainDefinition.claims(collection:)`,
    /// `detectVersion(collections:sample:)`). Nil when no domain fits.
    ///
    /// - Parameters:
    ///   - domain, version: `--domain` and `--schema-version`, nil when not given.
    ///   - header: what the input says (envelope, header line, manifest).
    ///   - collections: the collection names seen so far.
    ///   - sample: one record's value (or the whole document), for field shapes.
    /// - Returns: nil when no domain fits or the header names a domain Ferry does not know.
    public static func detect(domain: Domain?, version: Int?, header: DatasetHeader, collections: [String], sample: Value?)
        -> (domain: Domain, version: Int)?
    {
        var found = domain
        if found == nil, let name = header.domain {
            guard let known = Domain(rawValue: name) else { return nil }
            found = known
        }
        if found == nil { found = domainFromCollections(collections) }
        guard let found else { return nil }
        if let version = version ?? header.schemaVersion { return (found, version) }
        return (found, versionFromShapes(found, collections: collections, sample: sample))
    }

    /// The first registered domain (registration order) that claims one of the collections,
    /// taken in order (`DomainDefinition.claims(collection:)`).
    static func domainFromCollections(_ collections: [String]) -> Domain? {
        let definitions = Domain.allCases.compactMap { domain in domain.definition.map { (domain, $0) } }
        for name in collections {
            for (domain, definition) in definitions where definition.claims(collection: name) { return domain }
        }
        return nil
    }

    /// `items` in the collection order of the domain that claims their collections
    /// (`domainFromCollections`): its schemas' collections as SCHEMAS.md lists them, oldest
    /// version first; items of other collections after those, each group in its order. A
    /// folder of one file a collection is read so, not in file-name order, and its records come
    /// out in the order one file of the dataset gives them.
    public static func inCollectionOrder<Item>(_ items: [Item], collection: (Item) -> String) -> [Item] {
        guard let plan = domainFromCollections(items.map(collection))?.definition?.migrationPlan else { return items }
        var rank: [String: Int] = [:]
        for schema in plan.schemas {
            for name in schema.datasetSchema.collectionNames where rank[name] == nil { rank[name] = rank.count }
        }
        return items.enumerated().sorted {
            (rank[collection($0.element)] ?? rank.count, $0.offset) < (rank[collection($1.element)] ?? rank.count, $1.offset)
        }.map(\.element)
    }

    /// The version the domain's definition reads from the shapes (`DomainDefinition.detectVersion`).
    static func versionFromShapes(_ domain: Domain, collections: [String], sample: Value?) -> Int {
        domain.definition?.detectVersion(collections: collections, sample: sample) ?? Domain.latestVersion
    }

    /// True for an optionally signed run of ASCII digits (`0`, `2`, `-1`): an integer as a CSV cell writes it.
    static func isIntegerText(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
