import FerryCore
import FerrySchemas

/// The typed path's run of one migration step for its (old model, new model) pair, made by
/// generic code called with the CONCRETE types (`CollectionMigration.accept(_:)`), so that the old
/// model's decode, the step and the new model's rendering are specialized for the pair: the
/// models are never boxed as existentials nor cast back (`TypedRoute.migrate(_:)`, which runs any
/// number of stages on boxed models, stays the way for routes without a single step).
struct TypedPairCodec: Sendable {
    /// Reads a scanned JSON Lines line as the old model, runs the step on it and appends the new
    /// model's output line to the buffer, or builds its value (`LaneOutput`): the old record's id
    /// (non-empty) and the line's bytes or the value. Nil, with nothing appended, when the decode
    /// gives up, the record does not migrate plainly (`MigrationStep.migratePlainly`), or the
    /// writer would refuse the new model (the record then goes the general path, which reports
    /// what there is to report).
    let migrateJSON: @Sendable (JSONRecordScan, DecodingOptions, _ collection: String, LaneOutput,
        _ into: inout ByteBuffer) -> PassedRecord?

    /// The codec of `step`, run in `environment` and checked against `rules`; specialized for the
    /// pair where called with concrete types.
    static func make<Old: FieldCodableCollection, New: FieldCodableCollection>(
        _ step: MigrationStep<Old, New>, environment: MigrationEnvironment, rules: FieldRulePlan
    ) -> TypedPairCodec {
        TypedPairCodec(migrateJSON: { scan, options, collection, output, buffer in
            guard let old = scan.decode(Old.self, options: options),
                  let new = step.migratePlainly(old, in: environment, rules: rules)
            else { return nil }
            return TypedModelCodec.pass(new, id: old.recordID, collection, output, &buffer)
        })
    }

    /// The codec of the one step of `route`; nil when the route runs no stage or several.
    static func codec(for route: TypedRoute) -> TypedPairCodec? {
        guard let (step, environment, rules) = route.singleStage else { return nil }
        var maker = Maker(environment: environment, rules: rules)
        step.accept(&maker)
        return maker.made
    }

    /// Makes the codec of the step it is handed (the visit is specialized per pair).
    private struct Maker: MigrationStepVisitor {
        let environment: MigrationEnvironment
        let rules: FieldRulePlan
        var made: TypedPairCodec? = nil

        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(_ step: MigrationStep<Old, New>) {
            made = TypedPairCodec.make(step, environment: environment, rules: rules)
        }
    }
}
