import FerryCore
import Foundation

/// A constant made ready for fast comparison, once, at compile time: its string folded for the
/// comparison's modifiers, its numeric and instant readings, its regular expression.
/// A class, so evaluation passes one reference around instead of copying its fields; immutable.
final class PreparedConstant: @unchecked Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string
        /// A list (a variable or key path holding an array, compared with `==`).
        case other
    }

    let kind: Kind
    let value: Value
    /// The string's UTF-8, folded for the modifiers (`[c]` lower-case, `[d]` no diacritics).
    let utf8: [UInt8]
    /// The number a string constant reads as (`"4"`), nil when it does not or the field is text.
    let number: Double?
    /// The instant a string constant reads as (RFC 3339, or a day at midnight in the time zone),
    /// nil when it does not or the field is neither an instant nor untyped.
    let instant: FilterInstant?
    /// `MATCHES`: the compiled whole-string pattern. NSRegularExpression is immutable and
    /// documented thread-safe, hence `@unchecked Sendable`.
    let regex: NSRegularExpression?

    /// How a field's schema type limits the readings of a string constant.
    enum Reading {
        /// No schema: strings that look like numbers or dates are compared as such.
        case dynamic
        /// A text field: strings are text only.
        case text
        /// A number field.
        case number
        /// An instant or day field.
        case date
        /// A boolean field.
        case bool
    }

    /// Prepares `value` for comparisons with `options` and operator `op`.
    /// - Throws: `FilterError` at `range` for a `MATCHES` pattern that does not compile.
    init(
        _ value: Value, op: FilterComparison.Operator, options: FilterComparison.Options, reading: Reading,
        timeZone: TimeZone, range: FilterSourceRange?
    ) throws(FilterError) {
        self.value = value
        var utf8: [UInt8] = []
        var number: Double?
        var instant: FilterInstant?
        var regex: NSRegularExpression?
        switch value {
        case .null:
            kind = .null
        case .bool(let b):
            kind = .bool(b)
        case .integer, .double, .number:
            kind = value.doubleValue.map { .number($0) } ?? .other
        case .string(let s):
            kind = .string
            utf8 = Array(TextMatcher.fold(s, options).utf8)
            if reading == .dynamic || reading == .number { number = PreparedConstant.numericText(s) }
            if reading == .dynamic || reading == .date { instant = FilterInstant.parse(s, timeZone: timeZone) }
            if op == .matches {
                regex = try PreparedConstant.compileRegex(s, options: options, range: range)
            }
        case .array, .object:
            kind = .other
        }
        self.utf8 = utf8
        self.number = number
        self.instant = instant
        self.regex = regex
    }

    /// A runtime value from a key path on the right side, prepared on the fly (dynamic reading).
    static func runtime(
        _ value: Value, op: FilterComparison.Operator, options: FilterComparison.Options, timeZone: TimeZone
    ) -> PreparedConstant? {
        try? PreparedConstant(value, op: op, options: options, reading: .dynamic, timeZone: timeZone, range: nil)
    }

    /// The number that text spells (`4`, `-2.5`, `1e3`), refusing `nan`, `inf` and other words
    /// `Double(_:)` accepts.
    static func numericText(_ s: String) -> Double? {
        guard let first = s.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || (first &- 0x30) < 10,
            let d = Double(s), d.isFinite
        else { return nil }
        return d
    }

    /// Compiles a `MATCHES` pattern for a whole-string match: `[c]` as the case-insensitive
    /// option, `[d]` by folding diacritics out of pattern and value (case folding the pattern
    /// would change escapes such as `\D`).
    static func compileRegex(
        _ pattern: String, options: FilterComparison.Options, range: FilterSourceRange?
    ) throws(FilterError) -> NSRegularExpression {
        let folded = options.contains(.diacriticInsensitive) ? TextMatcher.fold(pattern, [.diacriticInsensitive]) : pattern
        let regexOptions: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            _ = try NSRegularExpression(pattern: folded, options: regexOptions)
            return try NSRegularExpression(pattern: "\\A(?:" + folded + ")\\z", options: regexOptions)
        } catch {
            throw FilterError(
                "invalid regular expression \(FilterLiteral.quoted(pattern)) (ICU syntax)",
                at: range ?? FilterSourceRange(column: 1, length: 1))
        }
    }
}
