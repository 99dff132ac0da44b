/// Envelope members whose object value maps collection names to collections of documents, as a
/// Firestore export's `"__collections__": {"wordBooks": {"<id>": {...}}}` does (SCHEMAS.md
/// "Domain vocabulary: V1"). A JSON document reader given this layout yields each document of
/// such a collection as a record of its own (`Record.nesting` says where it stands), so a root
/// collection is never held whole; without it the collection is one record.
///
/// The names are the domain's (FerrySchemas `FirestoreLayout.nestedCollections`); the reader
/// applies them only while the envelope names no domain or one of `domains`.
public struct NestedCollections: Sendable, Equatable {
    /// Envelope member names that map collection names to collections (`__collections__`).
    public var mapMembers: Set<String>
    /// The domains (`DatasetHeader.domain`) the layout belongs to.
    public var domains: Set<String>

    public init(mapMembers: Set<String>, domains: Set<String>) {
        self.mapMembers = mapMembers
        self.domains = domains
    }

    /// True when an envelope member `name` is such a map, the envelope having said `domain`.
    public func mapsCollections(_ name: String, domain: String?) -> Bool {
        guard mapMembers.contains(name) else { return false }
        guard let domain else { return true }
        return domains.contains(domain)
    }
}

/// Where a record that a reader took out of a collection mapped by `NestedCollections` stands.
///
/// The record's `collection`, `documentID` and `location` stay those of the whole collection
/// as a record (`__collections__`, `wordBooks`, the line and column of its `{` and its index
/// among the map's members), so that pointers and messages are what they were when the
/// collection was read as one record; its `value` and `locator` are the document's own.
public struct RecordNesting: Sendable, Equatable {
    /// The document's token in its collection: its key in an object, its 0-based decimal index
    /// in a list.
    public var token: String
    /// Its key in an object keyed by document id; nil in a list.
    public var documentID: String?

    public init(token: String, documentID: String?) {
        self.token = token
        self.documentID = documentID
    }
}
