import FerryCore
import Foundation

/// Runs the checks across fields of a built model and of every model nested in it
/// (`FieldCodable.problemAcrossFields(in:)`, the checks its `init(from:)` runs), walking the
/// fields the model writes: a `FieldSink` that writes nothing. With `FieldRuleCheck`, it stands for
/// reading the model back from its canonical value (`FieldReader`), which reports nothing exactly
/// when both pass, with no `Value` built and no field looked up by name.
/// `@inlinable`: called with a concrete model, the walk is specialized for it; the fields of types
/// that nest no model cost nothing.
public struct AcrossFieldsCheck: FieldSink {
    /// The time zone of calendar-day rules (`FieldSource.timeZone`).
    @usableFromInline let timeZone: TimeZone
    /// True once a check found a problem.
    @usableFromInline var failed = false

    @inlinable
    init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// True when `model` and the models nested in it pass their checks across fields in `timeZone`;
    /// true at once for a type that declares none (`FieldCodable.checksAcrossFields`).
    @inlinable
    public static func passes<M: FieldCodable>(_ model: M, in timeZone: TimeZone) -> Bool {
        guard M.checksAcrossFields else { return true }
        var check = AcrossFieldsCheck(timeZone: timeZone)
        check.visit(model)
        return !check.failed
    }

    /// Checks `model`, then the models it nests.
    @inlinable
    mutating func visit<M: FieldCodable>(_ model: M) {
        guard !failed else { return }
        if model.problemAcrossFields(in: timeZone) != nil {
            failed = true
            return
        }
        model.encode(to: &self)
    }

    @inlinable
    public mutating func add<M: FieldCodable>(_ key: String, _ model: M) { visit(model) }
    @inlinable
    public mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        for model in models { visit(model) }
    }

    // Scalars and built values nest no model.
    @inlinable
    public mutating func add(_ key: String, _ text: String) {}
    @inlinable
    public mutating func add(_ key: String, _ number: Double) {}
    @inlinable
    public mutating func add(_ key: String, _ flag: Bool) {}
    @inlinable
    public mutating func add(_ key: String, _ integer: Int64) {}
    @inlinable
    public mutating func add(_ key: String, _ instant: Instant) {}
    @inlinable
    public mutating func add(_ key: String, _ day: CalendarDay) {}
    @inlinable
    public mutating func add(_ key: String, _ strings: [String]) {}
    @inlinable
    public mutating func add(_ key: String, _ value: Value) {}
}
