import Ferry

/// The reading log's version 1, as SwiftData apps declare a version: its number and its models.
public enum ReadingLogSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static var domain: Domain { .readingLog }
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(ReadingLogV1.Entry.self)
    }
}

/// The reading log's version 2.
public enum ReadingLogSchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static var domain: Domain { .readingLog }
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(ReadingLogV2.Entry.self)
    }
}
