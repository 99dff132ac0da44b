import Ferry

/// The reading log as a domain Ferry knows: a name and a plan are all it takes (detection,
/// Firestore layouts and media keep `DomainDefinition`'s defaults). `ReadingLogDomain.register()`
/// makes it available to the pipeline, detection, validation and schema publishing.
public enum ReadingLogDomain: DomainDefinition {
    public static let name = "reading-log"
    public static var migrationPlan: any SchemaMigrationPlan.Type { ReadingLogMigrationPlan.self }

    /// Registers the domain with Ferry (once is enough; again does nothing).
    public static func register() throws(FerryError) {
        try Ferry.register(ReadingLogDomain.self)
    }
}

extension Domain {
    /// The reading log (`reading-log`).
    public static let readingLog = Domain(ReadingLogDomain.self)
}
