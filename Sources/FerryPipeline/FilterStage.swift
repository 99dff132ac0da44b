import FerryCore

/// The `--where` / `filter` step: keeps the records a filter expression matches, before or after
/// migration as the pipeline's step order says.
struct FilterStage {
    let beforeMigration: Bool

    /// Nil when the request has no filter.
    static func make(request: ConversionRequest, plan: DatasetPlan) throws -> FilterStage? {
        guard request.filter != nil else { return nil }
        throw FerryError(.usage, "filters are not available in this build")
    }

    func keepsBeforeMigration(_ record: Record) -> Bool { true }
    func keepsAfterMigration(_ record: Record) -> Bool { true }
}
