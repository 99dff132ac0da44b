import FerryCore
import FerrySchemas
import FormatCSV
import Foundation
import Testing

@testable import FerryTypedPath

/// Offers CSV rows to a `CSVRecordReading` and keeps its models; a taken row's payload is its
/// model's index in `models` (batches are parsed on the calling thread here).
final class CSVReadingTaker<T: FieldCodable>: RawRecordTaker, @unchecked Sendable {
    // @unchecked: one thread, the test's, parses the batches and reads `models`.
    let reading: CSVRecordReading<T>
    private(set) var models: [T] = []

    init(_ reading: CSVRecordReading<T>) { self.reading = reading }

    func take(_ record: RawRecord) -> TakenRecord? {
        guard case .csvRow(let row) = record else { return nil }
        guard let model = reading.decode(row) else { return nil }
        models.append(model)
        return TakenRecord(collection: nil, payload: models.count - 1)
    }
}

/// What the differential comparison of one input found.
struct CSVDifferentialResult {
    /// Rows the general path read as records.
    var records = 0
    /// Records the general path read with no diagnostic.
    var clean = 0
    /// Records the typed path took (each one clean and identical).
    var taken = 0
    /// Record indexes the typed path took.
    var takenIndexes: Set<Int> = []
}

/// The general path and the typed path on the same CSV bytes (issue 7's differential tests).
enum CSVDifferential {
    static let decodingOptions = DecodingOptions(scalarsAsText: true)

    /// One item of a batched read, in order: a record (with the general path's model and its
    /// diagnostics, or the typed path's model), a problem or a failure.
    enum Item {
        case general(index: Int, location: String, model: Any, diagnostics: [Diagnostic])
        case typed(index: Int, location: String, model: Any)
        case other(String)
    }

    /// Reads `bytes` in batches of `limit` rows; with `typed`, rows are first offered to a
    /// `CSVRecordReading<T>` built from the header.
    static func read<T: FieldCodable>(_ type: T.Type, _ bytes: [UInt8], options: ReadOptions, typed: Bool, limit: Int)
        -> (items: [Item], readingBuilt: Bool)
    {
        var items: [Item] = []
        var built = false
        do {
            let reader = try CSVReader(MemorySource(bytes), options: options, log: DiagnosticLog())
            var taker: CSVReadingTaker<T>?
            if typed, let reading = CSVRecordReading<T>(columns: reader.headerFields, options: decodingOptions) {
                taker = CSVReadingTaker(reading)
                built = true
            }
            reading: while let batch = try reader.nextBatch(limit: limit) {
                batch.parse(offering: taker)
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record):
                        var diagnostics: [Diagnostic] = []
                        let model = T(value: record.value, at: RecordContext(record: record, options: decodingOptions),
                                      diagnostics: &diagnostics)
                        items.append(.general(index: record.location.recordIndex ?? -1, location: "\(record.location)",
                                              model: model, diagnostics: diagnostics))
                    case .taken(let item):
                        let (record, payload) = (item.record, item.payload)
                        #expect(record.value == .null)
                        items.append(.typed(index: record.location.recordIndex ?? -1, location: "\(record.location)",
                                            model: taker?.models[payload] as Any))
                    case .problem(let diagnostic):
                        items.append(.other("problem \(diagnostic.code.rawValue) \(diagnostic.location)"))
                    case .failure(let error):
                        items.append(.other("failure \(error)"))
                        break reading
                    }
                }
            }
        } catch {
            items.append(.other("failure \(error)"))
        }
        return (items, built)
    }

    /// Checks that every row the typed path takes is one the general path reads with no
    /// diagnostic, as the same model, and that the reads agree item for item otherwise.
    @discardableResult
    static func compare<T: FieldCodable>(_ type: T.Type, _ bytes: [UInt8],
                                         options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t"),
                                         limit: Int = 5, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        -> CSVDifferentialResult
    {
        var result = CSVDifferentialResult()
        let general = read(T.self, bytes, options: options, typed: false, limit: limit).items
        let typed = read(T.self, bytes, options: options, typed: true, limit: limit).items
        #expect(general.count == typed.count, "item counts differ", sourceLocation: sourceLocation)
        for (g, t) in zip(general, typed) {
            switch (g, t) {
            case (.general(let gi, let gl, let gm, let gd), .general(let ti, let tl, _, _)):
                result.records += 1
                if gd.isEmpty { result.clean += 1 }
                #expect(gi == ti && gl == tl, sourceLocation: sourceLocation)
                _ = gm
            case (.general(let gi, let gl, let gm, let gd), .typed(let ti, let tl, let tm)):
                result.records += 1
                result.taken += 1
                result.takenIndexes.insert(ti)
                #expect(gi == ti && gl == tl, sourceLocation: sourceLocation)
                #expect(gd.isEmpty, "taken though the general path reports \(gd.map(\.message)) at \(gl)",
                        sourceLocation: sourceLocation)
                if gd.isEmpty { result.clean += 1 }
                #expect(gm as? T == tm as? T, "models differ at \(gl)", sourceLocation: sourceLocation)
            case (.other(let a), .other(let b)):
                #expect(a == b, sourceLocation: sourceLocation)
            default:
                Issue.record("items differ: \(g) vs \(t)", sourceLocation: sourceLocation)
            }
        }
        return result
    }

    /// The decoded model of a one-row CSV through the typed path alone (nil when it gives up,
    /// or when the header does not plan).
    static func typedModel<T: FieldCodable>(_ type: T.Type, _ text: String,
                                            options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t")) -> T? {
        for case .typed(_, _, let model) in read(T.self, Array(text.utf8), options: options, typed: true, limit: 5).items {
            return model as? T
        }
        return nil
    }
}
