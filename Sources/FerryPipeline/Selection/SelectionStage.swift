import FerryCore
import FerrySchemas

/// The `--skip`, `--limit`, `--sample` and `--select` step (`RecordSelection`): sits after the
/// filter and the migration, before the writer, and sees the records the run would write, one
/// collection's count apart from another's.
///
/// Skip and limit pass a record on at once. A sample holds at most N records per collection (its
/// reservoir) and hands them over in input order at the end (`finish`), so memory grows with N,
/// never with the input.
final class SelectionStage {
    let selection: RecordSelection
    private let projection: FieldProjection?
    private var seen: [String: Int] = [:]
    private var reservoirs: [String: Reservoir] = [:]
    /// Records that reached a reservoir, across collections: orders the sample as the input was.
    private var arrivals = 0

    /// One collection's sample (Algorithm R: Vitter, "Random sampling with a reservoir", 1985).
    private struct Reservoir {
        var generator: SplitMix64
        var offered = 0
        var kept: [(arrival: Int, record: Record)] = []
    }

    init(selection: RecordSelection) {
        self.selection = selection
        projection = selection.fields.isEmpty ? nil : FieldProjection(selection.fields)
    }

    /// True when the record `take(_:)` was handed last is its collection's last under `--limit`.
    /// A run asks `isFull` then only: asking it of every record a large limit keeps cost a tenth
    /// of a run that keeps them all. (A collection that ends short of the limit can make the
    /// selection full too; that is left to the next collection to fill, or the input's end.)
    private(set) var filledCollection = false
    /// Called with each record kept, before `--select` cuts its fields (a bundle output learns
    /// which media files the records written referenced before the cut: `OutputMedia`).
    var willCut: ((Record) -> Void)?

    /// True when `take(_:)` gives back the record it is handed, or nothing (no `--select`, no `--sample`).
    var keepsRecordsWhole: Bool { projection == nil && selection.sample == nil }

    /// True when no record of `collections` handed to `take(_:)` from now on would be kept:
    /// each has had its `--skip` and `--limit` records (a limit of 0 keeps none of any).
    /// `collections`: those the input may still hold records of (`""` for records naming none),
    /// nil when any may come; a sample is never full (its last record may replace a kept one).
    func isFull(awaiting collections: Set<String>?) -> Bool {
        guard let limit = selection.limit, selection.sample == nil else { return false }
        if limit == 0 { return true }
        guard let collections else { return false }
        let enough = selection.skip + limit
        return collections.allSatisfy { seen[$0, default: 0] >= enough }
    }

    /// The record to write now for `record`, cut to `--select`; nil while skipping, past the
    /// limit, or when sampling (the sample comes from `finish`).
    func take(_ record: Record) -> Record? {
        let collection = record.collection ?? ""
        let position = seen[collection, default: 0]
        seen[collection] = position + 1
        filledCollection = false
        guard position >= selection.skip else { return nil }
        if let limit = selection.limit {
            if position - selection.skip >= limit { return nil }
            filledCollection = position - selection.skip == limit - 1
        }
        guard let size = selection.sample else { return project(record) }
        let arrival = arrivals
        arrivals += 1
        // Changed where it lies: a copy taken out and put back copied every record it kept.
        Self.offer((arrival, record), size: size,
            to: &reservoirs[collection, default: Reservoir(generator: SplitMix64(seed: StableHash.of(collection, seed: selection.seed)))])
        return nil
    }

    /// Algorithm R's step for one record: kept while the reservoir has room, else in a slot drawn at random.
    private static func offer(_ entry: (arrival: Int, record: Record), size: Int, to reservoir: inout Reservoir) {
        if reservoir.kept.count < size {
            reservoir.kept.append(entry)
        } else {
            let slot = Int(reservoir.generator.next(below: UInt64(reservoir.offered + 1)))
            if slot < size { reservoir.kept[slot] = entry }
        }
        reservoir.offered += 1
    }

    /// The sampled records, in the order they were read; none without `--sample`.
    func finish() -> [Record] {
        let kept = reservoirs.values.flatMap(\.kept).sorted { $0.arrival < $1.arrival }
        reservoirs = [:]
        return kept.map { project($0.record) }
    }

    private func project(_ record: Record) -> Record {
        guard let projection else { return record }
        willCut?(record)
        var cut = record
        cut.value = projection.project(record.value)
        return cut
    }

    /// Checks `--select` against the schema of the records it will see (nil for schema-free data).
    /// - Returns: the note to report when the selection leaves out a required field, making the
    ///   output schema-free (written with no domain header); nil when every required field of every
    ///   collection is kept whole, so the output still validates against `schema`.
    /// - Throws: `FerryError(.usage)` for a selector whose first field no collection of `schema` has,
    ///   with the nearest field name when one is close.
    static func check(_ selection: RecordSelection, against schema: DatasetSchema?, at location: SourceLocation) throws -> String? {
        guard !selection.fields.isEmpty, let schema else { return nil }
        let names = Set(schema.collections.flatMap { $0.recordType.fieldNames })
        for selector in selection.fields where selector.tokens[0] != "*" && !names.contains(selector.tokens[0]) {
            let hint = EditDistance.suggestion(for: selector.tokens[0], among: names.sorted()).map { "; did you mean '\($0)'?" } ?? ""
            throw FerryError(.usage, "--select \(selector): no collection of \(schema.domain.rawValue) v\(schema.version) has a field '\(selector.tokens[0])'\(hint)",
                             at: location)
        }
        let whole = Set(selection.fields.filter { $0.tokens.count == 1 }.map { $0.tokens[0] })
        if whole.contains("*") { return nil }
        var dropped: [String] = []
        for collection in schema.collections {
            for field in collection.recordType.fields where field.isRequired && !whole.contains(field.name) && !dropped.contains("/" + field.name) {
                dropped.append("/" + field.name)
            }
        }
        guard !dropped.isEmpty else { return nil }
        return "--select leaves out required fields (\(dropped.joined(separator: ", "))): the output is schema-free records, "
            + "written without the \(schema.domain.rawValue) domain header"
    }
}
