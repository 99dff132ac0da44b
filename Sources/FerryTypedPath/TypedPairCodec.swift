import FerryCore
import FerrySchemas

/// The typed path's run of one migration stage for one (old model, new model) pair, made by
/// generic code called with the CONCRETE types (`Domain.forEachTypedPair`), so that the old
/// model's decode, the stage's step and the new model's rendering are specialized for the pair:
/// the models are never boxed as existentials nor cast back (`TypedRoute.migrate(_:)`, which
/// runs any number of stages on boxed models, stays the way for routes without a pair).
struct TypedPairCodec: Sendable {
    /// Reads a scanned JSON Lines line as the old model, runs the stage's step on it and appends
    /// the new model's output line to the buffer, or builds its value (`LaneOutput`): the old
    /// record's id (non-empty) and the line's bytes or the value. Nil, with nothing appended, when
    /// the decode or the step gives up, or when the writer would refuse the new model (the record
    /// then goes the general path, which reports what there is to report).
    let migrateJSON: @Sendable (JSONRecordScan, DecodingOptions, _ collection: String, LaneOutput,
        _ into: inout ByteBuffer) -> PassedRecord?

    /// The codec of the pair `migrate` steps between, running it with `context`; specialized for
    /// the pair where called with concrete types.
    static func make<Old: FieldCodableCollection, New: FieldCodableCollection>(
        _ migrate: @escaping TypedPairMigration<Old, New>, context: TypedMigrationContext
    ) -> TypedPairCodec {
        TypedPairCodec(migrateJSON: { scan, options, collection, output, buffer in
            guard let old = scan.decode(Old.self, options: options), let new = migrate(old, context) else { return nil }
            return TypedModelCodec.pass(new, id: old.recordID, collection, output, &buffer)
        })
    }

    /// The codec of the one stage of `route` (its plan's pair for the route's source and target
    /// models); nil when the route runs no stage or several, or the plan hands no such pair.
    static func codec(for route: TypedRoute) -> TypedPairCodec? {
        guard let (version, context) = route.singleStage else { return nil }
        var finder = Finder(source: ObjectIdentifier(route.sourceModel), target: ObjectIdentifier(route.targetModel),
            context: context)
        route.domain.forEachTypedPair(toVersion: version, &finder)
        return finder.found
    }

    /// Makes the codec of the one pair of the given model types (the visit is specialized per pair).
    private struct Finder: TypedMigrationPairVisitor {
        let source: ObjectIdentifier
        let target: ObjectIdentifier
        let context: TypedMigrationContext
        var found: TypedPairCodec? = nil

        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(
            _ migrate: @escaping TypedPairMigration<Old, New>
        ) {
            guard found == nil, ObjectIdentifier(Old.self) == source, ObjectIdentifier(New.self) == target else { return }
            found = TypedPairCodec.make(migrate, context: context)
        }
    }
}
