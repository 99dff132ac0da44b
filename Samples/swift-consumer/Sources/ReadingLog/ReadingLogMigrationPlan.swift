import Ferry

/// The reading log's V1 -> V2 plan: one custom stage with one step, `ReadingLogMigration.step`
/// (the same step `ReadingLogMigration.migrate` runs). `book` is renamed `title`, `author` is
/// split into `authorGiven` and `authorFamily` (`ReadingLogMigration.splitAuthor`), and a rating
/// off the half-star grid is rounded to it with a `lossy-change` warning; diagnostics on V2
/// fields point at the V1 fields they came from (the step's `pointerRenames`).
public enum ReadingLogMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [ReadingLogSchemaV1.self, ReadingLogSchemaV2.self] }

    public static let stages: [MigrationStage] = [
        .custom(fromVersion: ReadingLogSchemaV1.self, toVersion: ReadingLogSchemaV2.self,
                steps: [ReadingLogMigration.step])
    ]
}
