import FerrySchemas

/// The range and step of a number field (nil: none), kept apart from its `FieldSchema` for the
/// transcoder, which checks every number it copies (`CSVLineTranscoder`).
struct NumberRule {
    var range: ClosedRange<Double>?
    var step: Double?

    init(range: ClosedRange<Double>?, step: Double?) {
        self.range = range
        self.step = step
    }

    /// True when `number` keeps the rule as `FieldReader` and `FieldRuleCheck` check it
    /// (`FieldSchema.isInRange`, `isOnStep`); finiteness is the caller's.
    @inline(__always)
    func keeps(_ number: Double) -> Bool {
        FieldSchema.isInRange(number, range) && FieldSchema.isOnStep(number, step)
    }
}
