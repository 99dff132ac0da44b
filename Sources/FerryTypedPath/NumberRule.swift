import FerrySchemas

/// The range and step of a number field (nil: none), kept apart from its `FieldSchema` for the
/// transcoders, which check every number they copy (`CSVLineTranscoder`, `NotesLineMigration`).
struct NumberRule {
    var range: ClosedRange<Double>?
    var step: Double?

    init(range: ClosedRange<Double>?, step: Double?) {
        self.range = range
        self.step = step
    }

    /// The rule of `field` (nil: a rule with no range and no step).
    init(_ field: FieldSchema?) {
        self.init(range: field?.range, step: field?.step)
    }

    /// True when `number` keeps the rule as `FieldReader` and `FieldRuleCheck` check it
    /// (`FieldSchema.isInRange`, `isOnStep`); finiteness is the caller's.
    @inline(__always)
    func keeps(_ number: Double) -> Bool {
        FieldSchema.isInRange(number, range) && FieldSchema.isOnStep(number, step)
    }
}
