import FerryCore
import FerryPipeline

/// `--skip`, `--limit`, `--sample`, `--seed` and `--select` (Docs/selection.md), shared by
/// convert, migrate and head.
enum SelectionOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(["--limit"], .single, value: "N", help: "Write the first N records of each collection (after --skip)."),
        OptionSpec(["--skip"], .single, value: "N", help: "Leave out the first N records of each collection."),
        OptionSpec(["--sample"], .single, value: "N", help: "Write N records of each collection drawn at random (reservoir sampling), in input order."),
        OptionSpec(["--seed"], .single, value: "S", help: "Seed of --sample (a whole number, default 0): the same seed gives the same records."),
        OptionSpec(["--select"], .repeating, value: "FIELDS", help: "Keep only these fields: JSON Pointers or dotted names, comma-separated (/title,look.tint,/tastes/*/value)."),
    ]

    /// The selection the arguments ask for; nil when they ask for none.
    /// - Parameter limit: the limit to use when `--limit` is absent (`ferry head`'s `-n`).
    /// - Throws: `UsageError` for a count that is not a whole number from 0 (from 1 for
    ///   `--sample`), a seed that is not a whole number from 0 to 2^64-1, `--seed` without
    ///   `--sample`, or a bad field selector.
    static func parse(_ arguments: ParsedArguments, limit defaultLimit: Int? = nil) throws -> RecordSelection? {
        var selection = RecordSelection()
        selection.skip = try arguments.integer("skip", in: 0...Int.max) ?? 0
        selection.limit = try arguments.integer("limit", in: 0...Int.max) ?? defaultLimit
        selection.sample = try arguments.integer("sample", in: 1...Int.max)
        if let seed = arguments.value("seed") {
            guard selection.sample != nil else { throw UsageError("--seed \(seed) seeds --sample; give --sample N too") }
            guard let parsed = UInt64(seed) else {
                throw UsageError("--seed expects a whole number from 0 to 18446744073709551615, not '\(seed)'")
            }
            selection.seed = parsed
        }
        for list in arguments.values("select") {
            do {
                for selector in try FieldSelector.list(list) where !selection.fields.contains(selector) { selection.fields.append(selector) }
            } catch let error as FerryError {
                throw UsageError(error.diagnostic.message)
            }
        }
        return selection == RecordSelection() ? nil : selection
    }
}
