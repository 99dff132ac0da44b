import FerryCore
import FerrySchemas

/// The typed path's reader and writer of one model type, made by generic code called with the
/// CONCRETE type (`TypedModelCodec.make`), so that the model's `init(from:)` and `encode(to:)`
/// (`@inlinable` in FerrySchemas) and the sources and sinks here are specialized for it: no
/// witness-table call per field, no runtime generic metadata look-up per nested object or list.
struct TypedModelCodec: Sendable {
    /// Reads a scanned JSON Lines line as the model (`JSONRecordScan.decode`).
    let decodeJSON: @Sendable (JSONRecordScan, DecodingOptions) -> (any FieldCodableCollection)?
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
            csvReading: { columns, options in CSVModelReading(Model.self, columns: columns, options: options) },
            render: { model, collection, rendering, buffer in
                guard let model = model as? Model else { return false }
                return rendering.render(model, collection: collection, into: &buffer)
            })
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
