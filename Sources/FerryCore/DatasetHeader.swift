/// What an input says about itself: its domain and schema version (a JSON envelope, a JSON Lines
/// header line, an XML `<dataset>` element, a bundle manifest). Nil where it says nothing.
public struct DatasetHeader: Sendable, Hashable, Codable {
    /// `notes`, `pet-story` or `vocabulary` (SCHEMAS.md), or another name a user's data carries.
    public var domain: String?
    /// The schema version, 1-based.
    public var schemaVersion: Int?

    public init(domain: String? = nil, schemaVersion: Int? = nil) {
        self.domain = domain
        self.schemaVersion = schemaVersion
    }
}
