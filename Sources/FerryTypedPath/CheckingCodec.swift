import FerryCore
import FerrySchemas

/// The typed path's run of a route that runs the newer version's step on each record only for its
/// checks (`TypedRoute.checks`: validation of an older version), made by generic code called with
/// the step's CONCRETE (old, new) types (`CollectionMigration.accept(_:)`), so that the decode, the
/// step, the new model's rule check and the old model's output are specialized for the pair: no
/// existential box, no witness call per field (`TypedPairCodec`'s twin, which writes the new model).
struct CheckingCodec: Sendable {
    /// Reads a scanned JSON Lines line as the old model, runs the step on it for its checks and
    /// appends the OLD model's output line (or builds its value), with the references it makes
    /// under the route's rules; nil, with nothing appended, when the decode gives up, the step does
    /// not migrate the record plainly (`MigrationStep.migratePlainly`) or the writer would refuse
    /// the model: the record then goes the general path, which reports what there is to report.
    let passJSON: @Sendable (JSONRecordScan, DecodingOptions, TypedRoute, LaneOutput, _ into: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?
    /// True when the step migrates `model` (a record of the old model, as read; `scalarsAsText`:
    /// a CSV row) plainly: what a CSV row's decoded model is checked with.
    let passes: @Sendable (_ model: any CollectionModel, _ scalarsAsText: Bool) -> Bool

    /// The codec of `step`, run in `environment` and checked against `rules`; specialized for the
    /// pair where called with concrete types.
    static func make<Old: FieldCodableCollection, New: FieldCodableCollection>(
        _ step: MigrationStep<Old, New>, environment: MigrationEnvironment, rules: FieldRulePlan
    ) -> CheckingCodec {
        CheckingCodec(
            passJSON: { scan, options, route, output, buffer in
                guard let old = scan.decode(Old.self, options: options),
                      step.migratePlainly(old, in: environment, rules: rules) != nil,
                      let passed = TypedModelCodec.pass(old, route.targetCollection, output, &buffer)
                else { return nil }
                return (passed, route.references(ofConcrete: old))
            },
            passes: { model, scalarsAsText in
                guard let old = model as? Old else { return false }
                return step.migratePlainly(old, in: environment, rules: rules, scalarsAsText: scalarsAsText) != nil
            })
    }

    /// The codec of the one check stage of `route`; nil when it runs none or several.
    static func codec(for route: TypedRoute) -> CheckingCodec? {
        guard let (step, environment, rules) = route.singleCheckStage else { return nil }
        var maker = Maker(environment: environment, rules: rules)
        step.accept(&maker)
        return maker.made
    }

    /// Makes the codec of the step it is handed (the visit is specialized per pair).
    private struct Maker: MigrationStepVisitor {
        let environment: MigrationEnvironment
        let rules: FieldRulePlan
        var made: CheckingCodec? = nil

        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(_ step: MigrationStep<Old, New>) {
            made = CheckingCodec.make(step, environment: environment, rules: rules)
        }
    }
}
