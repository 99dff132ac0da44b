import FerryCore
import FerrySchemas
import FormatCSV
import FormatJSON
import Foundation

/// Reads one kind of input (a CSV row, a record's parsed value) as models of one type: what a
/// lane's route does with such a record, with the model type erased and each call specialized for
/// it. A CSV header's reading also holds the `CSVLineTranscoder` that takes its plain rows first
/// on a route with no stage.
struct ModelReading<Input>: Sendable {
    private let read: (@Sendable (Input) -> (any FieldCodableCollection)?)?
    /// Reads and renders in one specialized call (`TypedModelCodec.passJSON`'s twin).
    private let passInput: (@Sendable (Input, String, LaneOutput, inout ByteBuffer) -> PassedRecord?)?
    /// `passInput` for a route whose records name others, their references captured
    /// (`ReferencingCodec`'s twin).
    private let passInputReferencing: (@Sendable (Input, TypedRoute, LaneOutput, inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?)?
    /// Writes a record's line straight from its input (nil: none for this input, or the route migrates).
    private let transcode: (@Sendable (Input, inout ByteBuffer) -> PassedRecord?)?
    /// Reads an input as the model and hands it, unboxed, to the step of a route's pair codec
    /// (`TypedModelCodec.decodeJSONThen`'s twin, `TypedPairCodec.migrate`).
    private let readThen: (@Sendable (Input, TypedRoute?, TakeModel) -> (PassedRecord, [ModelReference])?)?

    /// The reading of `D.Model` by `decoder` (nil: the input does not fit the model plainly, and
    /// nothing is read), with `transcode` taking a route's plain inputs first.
    init<D: InputModelDecoding>(_ decoder: D?, transcode: (@Sendable (Input, inout ByteBuffer) -> PassedRecord?)? = nil)
    where D.Input == Input {
        self.transcode = transcode
        guard let decoder else {
            (read, readThen, passInput, passInputReferencing) = (nil, nil, nil, nil)
            return
        }
        read = { (input: Input) -> (any FieldCodableCollection)? in decoder.decode(input) }
        readThen = { input, referencing, next in
            guard var model = decoder.decode(input) else { return nil }
            return TypedModelCodec.take(&model, referencing, next)
        }
        passInput = { input, collection, output, buffer in
            decoder.decode(input).flatMap { TypedModelCodec.pass($0, collection, output, &buffer) }
        }
        passInputReferencing = { input, route, output, buffer in
            guard let model = decoder.decode(input), let passed = TypedModelCodec.pass(model, route.targetCollection, output, &buffer)
            else { return nil }
            return (passed, route.references(ofConcrete: model))
        }
    }

    /// An input of a route with no stage: its id, and its output line appended to `buffer` or its
    /// value (`output`). The transcoder, when there is one, takes the input first (it makes lines,
    /// which validation drops: for `.values` it is not built); what it gives up on is decoded.
    func pass(_ input: Input, _ collection: String, _ output: LaneOutput, _ buffer: inout ByteBuffer) -> PassedRecord? {
        if let transcode, let passed = transcode(input, &buffer) {
            guard case .nothing = output else { return passed }
            // Nothing is written (validation): the line only proved the input plain.
            buffer.truncate(to: passed.rendered?.lowerBound ?? buffer.count)
            return PassedRecord(id: passed.id, rendered: nil)
        }
        return passInput?(input, collection, output, &buffer)
    }

    /// An input of a route with no stage whose records name others: its id, its output (as `pass`)
    /// and the references it makes under `route`'s rules.
    func passReferencing(_ input: Input, _ route: TypedRoute, _ output: LaneOutput, _ buffer: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?
    {
        passInputReferencing?(input, route, output, &buffer)
    }

    /// False when the input does not fit the model plainly (a CSV header).
    var isUsable: Bool { read != nil }

    func decode(_ input: Input) -> (any FieldCodableCollection)? { read?(input) }

    /// Reads `input` as the model and hands it to `next` where it stands, unboxed, with its id: as
    /// `TypedModelCodec.decodeJSONThen` (the references under `referencing`'s rules when `next`
    /// takes the record). Nil, without calling `next`, when the input does not read plainly.
    func decodeThen(_ input: Input, _ referencing: TypedRoute?, _ next: TakeModel) -> (PassedRecord, [ModelReference])? {
        readThen?(input, referencing, next)
    }
}

/// Reads one kind of input as one model type, giving up (nil) at anything the general path would
/// report (the record then goes that way).
protocol InputModelDecoding: Sendable {
    associatedtype Input
    associatedtype Model: FieldCodableCollection
    func decode(_ input: Input) -> Model?
}

extension CSVRecordReading: InputModelDecoding where T: FieldCodableCollection {}

/// The reading of the CSV rows of one header.
typealias CSVModelReading = ModelReading<RawCSVRow>

extension ModelReading where Input == RawCSVRow {
    /// The reading of `T`'s rows under the header `columns`; `passing` is the collection a route
    /// with no stage writes its lines in (nil for a route that migrates: it only decodes).
    init<T: FieldCodableCollection>(_ type: T.Type, columns: [String], passing collection: String?, options: DecodingOptions) {
        var transcode: (@Sendable (RawCSVRow, inout ByteBuffer) -> PassedRecord?)? = nil
        if let collection, let transcoder = CSVLineTranscoder(T.self, columns: columns, collection: collection, options: options) {
            transcode = { (row: RawCSVRow, buffer: inout ByteBuffer) -> PassedRecord? in transcoder.transcode(row, into: &buffer) }
        }
        let reading: CSVRecordReading<T>? = CSVRecordReading<T>(columns: columns, options: options)
        self.init(reading, transcode: transcode)
    }
}

/// Reads a record's parsed value as `T` (`ModelReader` over its `ValueCursor`), as the general
/// path reads it, or gives up at any report. The context it reads in has no record: its locator
/// gives no place for an absent field (an XML element that is not there), and its reports only
/// decide that the record goes the general path.
struct ValueModelDecoding<T: FieldCodableCollection>: InputModelDecoding {
    let context: RecordContext

    init(options: DecodingOptions) {
        context = RecordContext(
            record: Record(collection: nil, value: .null, location: SourceLocation(), locator: NoPlaceLocator()), options: options)
    }

    func decode(_ value: Value) -> T? {
        var reader = ModelReader(ValueCursor(value), model: T.self, at: context)
        let model = T(from: &reader)
        guard reader.diagnostics.isEmpty else { return nil }
        var problems: [Diagnostic] = []
        reader.finish(into: &problems)
        return problems.isEmpty ? model : nil
    }
}

/// A locator of a record whose fields have no place but their values (`ValueModelDecoding`).
struct NoPlaceLocator: FieldLocating {
    func position(of field: JSONPointer) -> TextPosition? { nil }
    var singleLine: Int? { nil }
    func line(of field: JSONPointer) -> Int? { nil }
    func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? { nil }
    func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? { nil }
}
