/// A collection of a dataset: its name and the type of its records.
public struct CollectionSchema: Sendable, Hashable {
    /// The collection's name (`wineTastingNotes`).
    public var name: String
    public var recordType: RecordType
    /// The collection of the previous version it was renamed from (`wineNotes`), nil when it kept its name.
    public var originalName: String?

    public init(name: String, recordType: RecordType, originalName: String? = nil) {
        self.name = name
        self.recordType = recordType
        self.originalName = originalName
    }
}
