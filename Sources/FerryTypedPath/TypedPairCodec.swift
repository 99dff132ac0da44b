import FerryCore
import FerrySchemas

/// The typed path's run of one migration step for its (old model, new model) pair: the old model's
/// decode and the new model's check and rendering are those of the codecs made per model type
/// (`TypedModelCodec`, specialized for each model); between them the step's body runs on the old
/// model where the source codec keeps it, and makes the new one where the target codec has room
/// for it (`CollectionMigration.migrateUnchecked(_:into:in:)`), so that neither model is boxed as
/// an existential or cast back, and each is freed by code specialized for it
/// (`TypedRoute.migrate(_:)`, which runs any number of stages, stays the way for routes without a
/// single step). A visitor handed the step (`CollectionMigration.accept(_:)`) is not specialized
/// for the pair: the step's type is known only at run time, and every generic call under it
/// looked its metadata up per record.
struct TypedPairCodec: Sendable {
    /// Reads a scanned JSON Lines line as the old model, runs the step on it and appends the new
    /// model's output line to the buffer, or builds its value (`LaneOutput`): the old record's id
    /// (non-empty) and the line's bytes or the value, and the references the old model makes
    /// under the route's rules (`TypedRoute.references(ofConcrete:)`, captured by the source
    /// codec, specialized for the model). Nil, with nothing appended, when the decode gives up,
    /// the record does not migrate plainly (`MigrationStep.migratePlainly`), or the writer would
    /// refuse the new model (the record then goes the general path, which reports what there is
    /// to report).
    let migrateJSON: @Sendable (JSONRecordScan, JSONLineReading, LaneOutput, _ into: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?
    /// Makes the new model of the old one standing at a pointer, checks and writes it (the target
    /// codec's `passStep` for the step, with text scalars: a CSV row's or an XML element's).
    private let passTextStep: @Sendable (_ old: UnsafeMutableRawPointer, _ id: String?, LaneOutput, _ into: inout ByteBuffer)
        -> PassedRecord?
    /// The route when its records name others (their references are captured), else nil.
    private let referencing: TypedRoute?

    /// `migrateJSON` for an input of text scalars (a CSV row, an XML record's value), read as the
    /// old model by `reading` (`ModelReading.decodeThen`, nil when it does not fit the model
    /// plainly).
    func migrate<Input>(_ input: Input, _ reading: ModelReading<Input>, _ output: LaneOutput, _ buffer: inout ByteBuffer)
        -> (PassedRecord, [ModelReference])?
    {
        reading.decodeThen(input, referencing) { old, id in passTextStep(old, id, output, &buffer) }
    }

    /// The codec of the one step of `route`; nil when the route runs no stage or several, or a
    /// model is one no schema lists. The old model is read and the new one checked and written by
    /// the codecs made per model type (specialized for each); only the step's own body runs on the
    /// boxed model (a closure written for its concrete models).
    static func codec(for route: TypedRoute) -> TypedPairCodec? {
        guard let (step, environment, rules) = route.singleStage,
              ObjectIdentifier(step.sourceModel) == ObjectIdentifier(route.sourceModel),
              ObjectIdentifier(step.targetModel) == ObjectIdentifier(route.targetModel),
              let source = TypedModelCodec.codec(for: route.sourceModel),
              let target = TypedModelCodec.codec(for: route.targetModel)
        else { return nil }
        // The types were matched above: the old model the source codec hands over is the step's
        // `Old`, and the target codec makes room for its `New`.
        let (decode, passStep) = (source.decodeJSONThen, target.passStep)
        // The route and its collection are captured here, not handed over per record: a class
        // reference passed per record is counted up and down by each worker thread (one shared
        // cache line bouncing between the cores under `--jobs`).
        let referencing = route.hasReferences ? route : nil
        let collection = route.targetCollection
        return TypedPairCodec(
            migrateJSON: { scan, reading, output, buffer in
                decode(scan, reading, referencing) { old, id in
                    passStep(old, id, step, environment, rules, false, collection, output, &buffer)
                }
            },
            passTextStep: { old, id, output, buffer in
                passStep(old, id, step, environment, rules, true, collection, output, &buffer)
            },
            referencing: referencing)
    }

    /// The codec of a route that runs one check stage and no stage of its own (the validation of
    /// an older version): the record is read as its source model, the check stage's step makes
    /// the new model, which is checked and freed (`TypedRoute.passesChecks`), and the source
    /// model is written, all in calls specialized for the two models (the check on the boxed
    /// model looked up generic metadata at run time for every record, in every worker at once).
    /// Nil when the route migrates, runs no check stage or several, or a model has no codec.
    static func checking(for route: TypedRoute) -> TypedPairCodec? {
        guard !route.migrates, let (step, environment, rules) = route.singleCheckStage,
              ObjectIdentifier(step.sourceModel) == ObjectIdentifier(route.sourceModel),
              let source = TypedModelCodec.codec(for: route.sourceModel),
              let checked = TypedModelCodec.codec(for: step.targetModel)
        else { return nil }
        let (decode, checkStep, passAt) = (source.decodeJSONThen, checked.checkStep, source.passAt)
        let referencing = route.hasReferences ? route : nil
        let collection = route.targetCollection
        // The old model at `old`, written when the step's new model passes.
        let checkThenPass: @Sendable (UnsafeMutableRawPointer, String?, LaneOutput, inout ByteBuffer) -> PassedRecord? = {
            old, id, output, buffer in
            checkStep(old, step, environment, rules) ? passAt(old, id, collection, output, &buffer) : nil
        }
        return TypedPairCodec(
            migrateJSON: { scan, reading, output, buffer in
                decode(scan, reading, referencing) { old, id in checkThenPass(old, id, output, &buffer) }
            },
            passTextStep: checkThenPass,
            referencing: referencing)
    }
}
