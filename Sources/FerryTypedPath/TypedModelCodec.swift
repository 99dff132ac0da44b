import FerryCore
import FerrySchemas

/// The typed path's reader and writer of one model type, made by generic code called with the
/// CONCRETE type (`TypedModelCodec.make`), so that the model's `init(from:)` and `encode(to:)`
/// (`@inlinable` in FerrySchemas) and the sources and sinks here are specialized for it: no
/// witness-table call per field, no runtime generic metadata look-up per nested object or list.
struct TypedModelCodec: Sendable {
    /// Reads a scanned JSON Lines line as the model (`JSONRecordScan.decode`).
    let decodeJSON: @Sendable (JSONRecordScan, DecodingOptions) -> (any FieldCodableCollection)?
    /// For a route with no stage to run: reads a scanned line as the model and appends its output
    /// line in one specialized call, so the model is never boxed as an existential and cast back.
    let passJSON: @Sendable (JSONRecordScan, DecodingOptions, _ collection: String, JSONLinesRendering?, _ into: inout ByteBuffer)
        -> PassedRecord?

    /// Plans the reading of the model's CSV rows under a header (`CSVRecordReading`).
    let csvReading: @Sendable (_ columns: [String], DecodingOptions) -> CSVModelReading
    /// Appends the output line of a record of the model in `collection` to the buffer; false (and
    /// nothing appended) when `model` is another type or the writer would refuse it
    /// (`JSONLinesRendering.render`).
    let render: @Sendable (_ model: any CollectionModel, _ collection: String, JSONLinesRendering, _ into: inout ByteBuffer) -> Bool

    /// The codec of `Model`; specialized for it where called with a concrete type.
    static func make<Model: FieldCodableCollection>(_ type: Model.Type) -> TypedModelCodec {
        TypedModelCodec(
            decodeJSON: { scan, options in scan.decode(Model.self, options: options) },
            passJSON: { scan, options, collection, rendering, buffer in
                scan.decode(Model.self, options: options).flatMap { pass($0, collection, rendering, &buffer) }
            },
            csvReading: { columns, options in CSVModelReading(Model.self, columns: columns, options: options) },
            render: { model, collection, rendering, buffer in
                guard let model = model as? Model else { return false }
                return rendering.render(model, collection: collection, into: &buffer)
            })
    }

    /// What a record of a route with no stage becomes: its output line appended to `buffer` when
    /// `rendering` is given (nil when the writer would refuse it), and its id.
    static func pass<Model: FieldCodableCollection>(_ model: Model, _ collection: String, _ rendering: JSONLinesRendering?,
        _ buffer: inout ByteBuffer) -> PassedRecord?
    {
        pass(model, id: model.recordID, collection, rendering, &buffer)
    }

    /// What a record becomes whose output model is `model` and whose own id is `id` (the source
    /// record's, nil or empty for none): `model`'s output line appended to `buffer` when
    /// `rendering` is given (nil when the writer would refuse it), and the id when not empty.
    @inline(__always)
    static func pass<Model: FieldCodableCollection>(_ model: Model, id: String?, _ collection: String,
        _ rendering: JSONLinesRendering?, _ buffer: inout ByteBuffer) -> PassedRecord?
    {
        var rendered: Range<Int>? = nil
        if let rendering {
            let start = buffer.count
            guard rendering.render(model, collection: collection, into: &buffer) else { return nil }
            rendered = start..<buffer.count
        }
        return PassedRecord(id: id.flatMap { $0.isEmpty ? nil : $0 }, rendered: rendered)
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

/// A record a route with no stage took: its own id (non-empty) and its output line's bytes in the
/// batch's buffer (nil when nothing is written).
struct PassedRecord {
    let id: String?
    let rendered: Range<Int>?
}
