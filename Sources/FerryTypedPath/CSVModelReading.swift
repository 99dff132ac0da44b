import FerryCore
import FerrySchemas
import FormatCSV
import FormatJSON
import Foundation

/// A `CSVRecordReading` of some model type, with the type erased, and the `CSVLineTranscoder` that
/// takes its plain rows first on a route with no stage.
struct CSVModelReading: Sendable {
    private let read: (@Sendable (RawCSVRow) -> (any FieldCodableCollection)?)?
    /// Reads and renders in one specialized call (`TypedModelCodec.passJSON`'s twin).
    private let passRow: (@Sendable (RawCSVRow, String, LaneOutput, inout ByteBuffer) -> PassedRecord?)?
    /// `passRow` for a route whose records name others, their references captured
    /// (`ReferencingCodec`'s twin).
    private let passRowReferencing: (@Sendable (RawCSVRow, TypedRoute, LaneOutput, inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?)?
    /// Writes a row's line straight from its cells (nil: the model is not plain, or the route migrates).
    private let transcoder: CSVLineTranscoder?
    /// Reads a row as the model and hands it, unboxed, to the step of a route's pair codec
    /// (`TypedModelCodec.decodeJSONThen`'s twin, `TypedPairCodec.migrateCSV`).
    private let readThen: (@Sendable (RawCSVRow, TypedRoute?, TakeModel) -> (PassedRecord, [ModelReference])?)?

    /// The reading of `T`'s rows under the header `columns`; `passing` is the collection a route
    /// with no stage writes its lines in (nil for a route that migrates: it only decodes).
    init<T: FieldCodableCollection>(_ type: T.Type, columns: [String], passing collection: String?, options: DecodingOptions) {
        transcoder = collection.flatMap { CSVLineTranscoder(T.self, columns: columns, collection: $0, options: options) }
        if let reading = CSVRecordReading<T>(columns: columns, options: options) {
            read = { (row: RawCSVRow) -> (any FieldCodableCollection)? in reading.decode(row) }
            readThen = { row, referencing, next in
                guard var model = reading.decode(row) else { return nil }
                return TypedModelCodec.take(&model, referencing, next)
            }
            passRow = { row, collection, output, buffer in
                reading.decode(row).flatMap { TypedModelCodec.pass($0, collection, output, &buffer) }
            }
            passRowReferencing = { row, route, output, buffer in
                guard let model = reading.decode(row), let passed = TypedModelCodec.pass(model, route.targetCollection, output, &buffer)
                else { return nil }
                return (passed, route.references(ofConcrete: model))
            }
        } else {
            read = nil
            readThen = nil
            passRow = nil
            passRowReferencing = nil
        }
    }

    /// A row of a route with no stage: its id, and its output line appended to `buffer` or its
    /// value (`output`). The transcoder, when there is one, takes the row first (it makes lines,
    /// which validation drops: for `.values` it is not built); what it gives up on is decoded.
    func pass(_ row: RawCSVRow, _ collection: String, _ output: LaneOutput, _ buffer: inout ByteBuffer)
        -> PassedRecord?
    {
        if let transcoder, let passed = transcoder.transcode(row, into: &buffer) {
            guard case .nothing = output else { return passed }
            // Nothing is written (validation): the line only proved the row plain.
            buffer.truncate(to: passed.rendered?.lowerBound ?? buffer.count)
            return PassedRecord(id: passed.id, rendered: nil)
        }
        return passRow?(row, collection, output, &buffer)
    }

    /// A row of a route with no stage whose records name others: its id, its output (as `pass`)
    /// and the references it makes under `route`'s rules.
    func passReferencing(_ row: RawCSVRow, _ route: TypedRoute, _ output: LaneOutput, _ buffer: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?
    {
        passRowReferencing?(row, route, output, &buffer)
    }

    /// False when the header does not fit the model plainly.
    var isUsable: Bool { read != nil }

    func decode(_ row: RawCSVRow) -> (any FieldCodableCollection)? { read?(row) }

    /// Reads `row` as the model and hands it to `next` where it stands, unboxed, with its id: as
    /// `TypedModelCodec.decodeJSONThen` (the references under `referencing`'s rules when `next`
    /// takes the record). Nil, without calling `next`, when the row does not read plainly.
    func decodeThen(_ row: RawCSVRow, _ referencing: TypedRoute?, _ next: TakeModel) -> (PassedRecord, [ModelReference])? {
        readThen?(row, referencing, next)
    }
}
