import FerryCore
import FerrySchemas

/// The typed path's reader and writer of one model type, made by generic code called with the
/// CONCRETE type (`TypedModelCodec.make`), so that the model's `init(from:)` and `encode(to:)`
/// (`@inlinable` in FerrySchemas) and the sources and sinks here are specialized for it: no
/// witness-table call per field, no runtime generic metadata look-up per nested object or list.
struct TypedModelCodec: Sendable {
    /// Reads a scanned JSON Lines line as the model (`JSONRecordScan.decode`).
    let decodeJSON: @Sendable (JSONRecordScan, JSONLineReading) -> (any FieldCodableCollection)?
    /// Reads a scanned JSON Lines line as the model and hands `next` where it stands, unboxed, and
    /// its id, for the length of the call; the model is freed after it, by code specialized for
    /// it. When `next` takes the record, its result and, for a `referencing` route (one whose
    /// records name others), the references the model makes under the route's rules
    /// (`TypedRoute.references(ofConcrete:)`; none without a route). Nil, without calling `next`,
    /// when the decode gives up.
    let decodeJSONThen: @Sendable (JSONRecordScan, JSONLineReading, _ referencing: TypedRoute?, _ next: TakeModel)
        -> (PassedRecord, [ModelReference])?
    /// For a route with no stage to run: reads a scanned line as the model and appends its output
    /// line (or builds its value) in one specialized call, so the model is never boxed as an
    /// existential and cast back.
    let passJSON: @Sendable (JSONRecordScan, JSONLineReading, _ collection: String, LaneOutput, _ into: inout ByteBuffer)
        -> PassedRecord?

    /// Plans the reading of the model's CSV rows under a header (`CSVRecordReading`).
    let csvReading: @Sendable (_ columns: [String], DecodingOptions) -> CSVModelReading
    /// Plans the reading of the model from a record's parsed value of text scalars (an XML
    /// record's: `ValueModelDecoding`); `DecodingOptions` must have `scalarsAsText` set.
    let textValueReading: @Sendable (DecodingOptions) -> ModelReading<ValueInput>
    /// `pass` for a boxed model of this type whose record's own id is `id`: its output for the
    /// record of `collection` appended to the buffer (or its value); nil (nothing appended) when
    /// `model` is another type or the writer would refuse it.
    let passBoxed: @Sendable (_ model: any CollectionModel, _ id: String?, _ collection: String, LaneOutput,
        _ into: inout ByteBuffer) -> PassedRecord?
    /// For a model a migration step made (`CollectionMigration.migrateUnchecked`): checks it against
    /// its rules (`MigrationEnvironment.checkedPlainly`, run specialized for the model), then
    /// `pass` with the source record's id (`scalarsAsText`: the record came from a text format
    /// such as CSV): the new model's output appended to the buffer (or its value); nil when it is
    /// another type or the check or the writer refuses it.
    let passMigrated: @Sendable (_ new: any FieldCodableCollection, _ id: String?, MigrationEnvironment, FieldRulePlan,
        _ scalarsAsText: Bool, _ collection: String, LaneOutput, _ into: inout ByteBuffer) -> PassedRecord?
    /// `passMigrated` for the model that `step` makes of the source model at `old` (an initialized
    /// `step.sourceModel`, left as it was; this codec's model must be `step.targetModel`), the new
    /// model made, checked, written and freed here, unboxed
    /// (`CollectionMigration.migrateUnchecked(_:into:in:)`).
    let passStep: @Sendable (_ old: UnsafeMutableRawPointer, _ id: String?, _ step: any CollectionMigration, MigrationEnvironment,
        FieldRulePlan, _ scalarsAsText: Bool, _ collection: String, LaneOutput, _ into: inout ByteBuffer) -> PassedRecord?
    /// `pass` for the model at `model` (an initialized model of this type, left as it is) whose
    /// record's own id is `id`.
    let passAt: @Sendable (_ model: UnsafeMutableRawPointer, _ id: String?, _ collection: String, LaneOutput,
        _ into: inout ByteBuffer) -> PassedRecord?
    /// True when `step` makes a model of the source model at `old` (an initialized
    /// `step.sourceModel`, left as it was; this codec's model must be `step.targetModel`) that
    /// passes `MigrationEnvironment.passesPlainly` against the rules: `TypedRoute.passesChecks`
    /// for one check stage, the new model made, checked and freed here, unboxed.
    let checkStep: @Sendable (_ old: UnsafeMutableRawPointer, _ step: any CollectionMigration, MigrationEnvironment,
        FieldRulePlan) -> Bool

    /// The codec of `Model`; specialized for it where called with a concrete type.
    static func make<Model: FieldCodableCollection>(_ type: Model.Type) -> TypedModelCodec {
        TypedModelCodec(
            decodeJSON: { scan, reading in scan.decode(Model.self, reading: reading) },
            decodeJSONThen: { scan, reading, referencing, next in
                guard var model = scan.decode(Model.self, reading: reading) else { return nil }
                return take(&model, referencing, next)
            },
            passJSON: { scan, reading, collection, output, buffer in
                guard let model = scan.decode(Model.self, reading: reading) else { return nil }
                return pass(model, collection, output, &buffer)
            },
            csvReading: { columns, options in CSVModelReading(Model.self, columns: columns, options: options) },
            textValueReading: { options in ModelReading(ValueModelDecoding<Model>(options: options)) },
            passBoxed: { model, id, collection, output, buffer in
                guard let model = model as? Model else { return nil }
                return pass(model, id: id, collection, output, &buffer)
            },
            passMigrated: { new, id, environment, rules, scalarsAsText, collection, output, buffer in
                guard let new = new as? Model,
                      let checked = environment.checkedPlainly(new, rules: rules, scalarsAsText: scalarsAsText)
                else { return nil }
                return pass(checked, id: id, collection, output, &buffer)
            },
            passStep: { old, id, step, environment, rules, scalarsAsText, collection, output, buffer in
                withUnsafeTemporaryAllocation(of: Model.self, capacity: 1) { slot -> PassedRecord? in
                    guard let room = slot.baseAddress,
                          step.migrateUnchecked(old, into: UnsafeMutableRawPointer(room), in: environment)
                    else { return nil }
                    let new = room.move()
                    // Checked and written as it is.
                    guard environment.passesPlainly(new, rules: rules) else { return nil }
                    return pass(new, id: id, collection, output, &buffer)
                }
            },
            passAt: { model, id, collection, output, buffer in
                pass(model.assumingMemoryBound(to: Model.self).pointee, id: id, collection, output, &buffer)
            },
            checkStep: { old, step, environment, rules in
                withUnsafeTemporaryAllocation(of: Model.self, capacity: 1) { slot -> Bool in
                    guard let room = slot.baseAddress,
                          step.migrateUnchecked(old, into: UnsafeMutableRawPointer(room), in: environment)
                    else { return false }
                    let new = room.move()
                    return environment.passesPlainly(new, rules: rules)
                }
            })
    }

    /// Hands `next` the model where it stands (unboxed) and its id; when `next` takes the record,
    /// its result and the references the model makes under `referencing`'s rules (none without a
    /// route). In place (`inout`): the caller's model is not copied, which would retain each of
    /// its strings and lists once more.
    @inline(__always)
    static func take<Model: FieldCodableCollection>(_ model: inout Model, _ referencing: TypedRoute?, _ next: TakeModel)
        -> (PassedRecord, [ModelReference])?
    {
        let id = model.recordID
        guard let passed = withUnsafeMutablePointer(to: &model, { next(UnsafeMutableRawPointer($0), id) }) else { return nil }
        return (passed, referencing?.references(ofConcrete: model) ?? [])
    }

    /// What a record of a route with no stage becomes: its output line appended to `buffer` for a
    /// rendered output (nil when the writer would refuse it), or its canonical value, and its id.
    static func pass<Model: FieldCodableCollection>(_ model: Model, _ collection: String, _ output: LaneOutput,
        _ buffer: inout ByteBuffer) -> PassedRecord?
    {
        pass(model, id: model.recordID, collection, output, &buffer)
    }

    /// What a record becomes whose output model is `model` and whose own id is `id` (the source
    /// record's, nil or empty for none): `model`'s output line or CSV leaf stream appended to
    /// `buffer` for a rendered output (nil when the writer would refuse it, or the stream cannot be
    /// made), or its canonical value, and the id when not empty.
    @inline(__always)
    static func pass<Model: FieldCodableCollection>(_ model: Model, id: String?, _ collection: String,
        _ output: LaneOutput, _ buffer: inout ByteBuffer) -> PassedRecord?
    {
        var rendered: Range<Int>? = nil
        var value: Value? = nil
        switch output {
        case .nothing:
            break
        case .lines(let rendering), .documentElements(let rendering):
            let start = buffer.count
            guard rendering.render(model, collection: collection, into: &buffer) else { return nil }
            rendered = start..<buffer.count
        case .xmlElements(let rendering):
            let start = buffer.count
            guard rendering.render(model, collection: collection, into: &buffer) else { return nil }
            rendered = start..<buffer.count
        case .csvLeaves(let leaves):
            let start = buffer.count
            guard leaves.render(model, into: &buffer) else { return nil }
            rendered = start..<buffer.count
        case .values:
            value = model.value
        }
        return PassedRecord(id: id.flatMap { $0.isEmpty ? nil : $0 }, rendered: rendered, value: value)
    }

    /// The codecs of every collection model of every domain and version, by model type. Built once,
    /// from the schemas' own model lists (`VersionedSchema.forEachModel`).
    static let all: [ObjectIdentifier: TypedModelCodec] = {
        var table = Table()
        for domain in Domain.allCases { domain.forEachModel(&table) }
        return table.codecs
    }()

    /// The codec of `type`; nil for a type no schema lists.
    static func codec(for type: any FieldCodableCollection.Type) -> TypedModelCodec? {
        all[ObjectIdentifier(type)]
    }

    /// Collects a codec per visited model type (the visit is specialized per model).
    private struct Table: CollectionModelVisitor {
        var codecs: [ObjectIdentifier: TypedModelCodec] = [:]

        mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) {
            codecs[ObjectIdentifier(type)] = TypedModelCodec.make(type)
        }
    }
}

/// What a codec hands a model it read to (`TypedModelCodec.decodeJSONThen`,
/// `CSVModelReading.decodeThen`): the model where it stands (initialized, to be left so) and its
/// id; the record taken, or nil.
typealias TakeModel = (_ model: UnsafeMutableRawPointer, _ id: String?) -> PassedRecord?

/// A record a route with no stage took: its own id (non-empty), its output line's or leaf stream's
/// bytes in the batch's buffer (nil when none is rendered), and its canonical value (for
/// `LaneOutput.values`).
struct PassedRecord {
    let id: String?
    let rendered: Range<Int>?
    var value: Value? = nil
}

/// What the typed path makes of the records it takes, besides their ids.
public enum LaneOutput: Sendable {
    /// Nothing: the run writes nothing (validation).
    case nothing
    /// Each record's JSON Lines line, rendered into the batch's buffer (a JSON Lines writer that
    /// takes bytes rendered ahead).
    case lines(JSONLinesRendering)
    /// Each record's CSV leaf stream (`CSVLeafStream`), rendered into the batch's buffer with the
    /// cells encoded for the CSV writer that replays it (`CSVWriter.writeLeafStream(_:table:collection:)`).
    case csvLeaves(CSVLeafOutput)
    /// Each record's element of its collection's array in a JSON document, rendered into the
    /// batch's buffer (`JSONLinesRendering.documentElement(pretty:indent:)`) for the JSON document
    /// writer that places it (`JSONDocumentWriter.writeElement(_:collection:)`).
    case documentElements(JSONLinesRendering)
    /// Each record's XML record element, rendered into the batch's buffer (`XMLRendering`) for the
    /// XML writer that places it (`XMLRecordWriter.writeElement(_:collection:)`).
    case xmlElements(XMLRendering)
    /// Each record's canonical value after every stage, for any other writer (XML, CSV or JSON
    /// documents until their writer is open): what the general path's commit would hand it.
    case values

    /// The output of elements in `form` for a `RenderedElementWriter`.
    public init(elementsIn form: RenderedElementForm) {
        switch form {
        case .jsonArrayElement(let pretty, let indent):
            self = .documentElements(JSONLinesRendering.documentElement(pretty: pretty, indent: indent))
        case .xmlRecordElement(let pretty, let recordNames, let defaultName):
            self = .xmlElements(XMLRendering(pretty: pretty, recordNames: recordNames, defaultName: defaultName))
        }
    }

    /// True when each record's rendered bytes are an element its writer places by collection
    /// (`RenderedElementWriter.writeElement(_:collection:)`).
    public var rendersElements: Bool {
        switch self {
        case .documentElements, .xmlElements: return true
        case .nothing, .lines, .csvLeaves, .values: return false
        }
    }
}
