import FerryCore
import FerrySchemas

/// Reads one kind of input (a CSV row, a record's parsed value) as models of one type: what a
/// lane's route does with such a record, with the model type erased and each call specialized for
/// it.
struct ModelReading<Input>: Sendable {
    private let read: (@Sendable (Input) -> (any FieldCodableCollection)?)?
    /// Reads and renders in one specialized call (`TypedModelCodec.passJSON`'s twin).
    private let passInput: (@Sendable (Input, String, LaneOutput, inout ByteBuffer) -> PassedRecord?)?
    /// `passInput` for a route whose records name others, their references captured
    /// (`ReferencingCodec`'s twin).
    private let passInputReferencing: (@Sendable (Input, TypedRoute, LaneOutput, inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?)?
    /// Reads an input as the model and hands it, unboxed, to the step of a route's pair codec
    /// (`TypedModelCodec.decodeJSONThen`'s twin, `TypedPairCodec.migrate`).
    private let readThen: (@Sendable (Input, TypedRoute?, TakeModel) -> (PassedRecord, [ModelReference])?)?

    /// The reading of `D.Model` by `decoder` (nil: the input does not fit the model plainly, and
    /// nothing is read).
    init<D: InputModelDecoding>(_ decoder: D?) where D.Input == Input {
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
            guard let model = decoder.decode(input) else { return nil }
            return TypedModelCodec.pass(model, collection, output, &buffer)
        }
        passInputReferencing = { input, route, output, buffer in
            guard let model = decoder.decode(input), let passed = TypedModelCodec.pass(model, route.targetCollection, output, &buffer)
            else { return nil }
            return (passed, route.references(ofConcrete: model))
        }
    }

    /// An input of a route with no stage: its id, and its output line appended to `buffer` or its
    /// value (`output`).
    func pass(_ input: Input, _ collection: String, _ output: LaneOutput, _ buffer: inout ByteBuffer) -> PassedRecord? {
        passInput?(input, collection, output, &buffer)
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

extension CSVRecordReading: InputModelDecoding where T: FieldCodableCollection {
    typealias Input = CSVRowInput
    typealias Model = T

    func decode(_ input: CSVRowInput) -> T? { decode(input.row, on: input.readers.rows) }
}

/// The reading of the CSV rows of one header.
typealias CSVModelReading = ModelReading<CSVRowInput>

extension ModelReading where Input == CSVRowInput {
    /// The reading of `T`'s rows under the header `columns`.
    init<T: FieldCodableCollection>(_ type: T.Type, columns: [String], options: DecodingOptions) {
        self.init(CSVRecordReading<T>(columns: columns, options: options))
    }
}

/// Reads a record's parsed value as `T` (`ModelReader` over its `ValueCursor`), as the general
/// path reads it, or gives up at any report. The context it reads in has no record: its locator
/// gives no place for an absent field (an XML element that is not there), and its reports only
/// decide that the record goes the general path.
final class ValueModelDecoding<T: FieldCodableCollection>: InputModelDecoding {
    let context: RecordContext

    init(options: DecodingOptions) {
        context = .placeless(options)
    }

    /// The value read as `T` on its batch's reader (kept from record to record), or nil.
    func decode(_ input: ValueInput) -> T? {
        input.readers.values.read(T.self, ValueCursor(input.value), owner: ObjectIdentifier(self), context: context)
    }
}

extension RecordContext {
    /// A context of `options` with no record, whose fields have no place (`NoPlaceLocator`): the
    /// typed lane's readers read in it, and their reports only decide that a record goes the
    /// general path, which reports it with its places.
    static func placeless(_ options: DecodingOptions) -> RecordContext {
        RecordContext(
            record: Record(collection: nil, value: .null, location: SourceLocation(), locator: NoPlaceLocator()), options: options)
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
