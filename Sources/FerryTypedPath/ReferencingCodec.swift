import FerryCore
import FerrySchemas

/// The typed path's taking of a JSON Lines line of a route with no stage whose records name
/// others (`TypedRoute.hasReferences`: stories naming members, words naming word books): the model
/// read, its references captured and its output made in one call specialized for the model type
/// (`TypedModelCodec.passJSON`'s twin), so that the model is never boxed as an existential, and the
/// capture (`TypedRoute.references(of:)`) visits its fields with no witness call.
struct ReferencingCodec: Sendable {
    /// Reads a scanned line as the model, captures its references under the route's rules and
    /// appends its output line (or builds its value: `TypedModelCodec.pass`); nil, with nothing
    /// appended, when the decode gives up or the writer would refuse the model (the record then
    /// goes the general path, which reports what there is to report).
    let passJSON: @Sendable (JSONRecordScan, JSONLineReading, TypedRoute, LaneOutput, _ into: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?

    /// The codec of `Model`; specialized for it where called with a concrete type.
    static func make<Model: FieldCodableCollection>(_ type: Model.Type) -> ReferencingCodec {
        ReferencingCodec(passJSON: { scan, reading, route, output, buffer in
            guard let model = scan.decode(Model.self, reading: reading),
                  let passed = TypedModelCodec.pass(model, route.targetCollection, output, &buffer)
            else { return nil }
            return (passed, route.references(ofConcrete: model))
        })
    }

    /// The codec of the source model of `route`: nil unless the route runs no stage and its
    /// records name others.
    static func codec(for route: TypedRoute) -> ReferencingCodec? {
        guard route.hasReferences, !route.migrates else { return nil }
        var maker = Maker(type: ObjectIdentifier(route.sourceModel))
        route.domain.forEachModel(&maker)
        return maker.made
    }

    /// Makes the codec of the one visited model of the wanted type (the visit is specialized per
    /// model).
    private struct Maker: CollectionModelVisitor {
        let type: ObjectIdentifier
        var made: ReferencingCodec? = nil

        mutating func visit<Model: FieldCodableCollection>(_ visited: Model.Type) {
            if made == nil, ObjectIdentifier(visited) == type { made = ReferencingCodec.make(visited) }
        }
    }
}
