/// One comparison of a filter: `[quantifier] left operator[modifiers] right`.
///
/// Source: Apple, "Predicate Format String Syntax" (Predicate Programming Guide): basic
/// comparisons, string comparisons with `[c]`/`[d]`, aggregate operations and `BETWEEN`/`IN`.
public struct FilterComparison: Codable, Sendable, Hashable, CustomStringConvertible {
    /// `ANY`/`SOME`, `ALL`, `NONE` before the left side: the comparison applies to each item of
    /// the list the left key path names.
    public enum Quantifier: String, Codable, Sendable, Hashable {
        /// `ANY` (also `SOME`): true when one item matches.
        case any = "ANY"
        /// `ALL`: true when every item matches (true for an empty or absent list).
        case all = "ALL"
        /// `NONE`: true when no item matches (true for an empty or absent list).
        case none = "NONE"
    }

    /// The comparison operators.
    public enum Operator: String, Codable, Sendable, Hashable {
        /// `==` (also `=`).
        case equal = "=="
        /// `!=` (also `<>`).
        case notEqual = "!="
        /// `<`.
        case less = "<"
        /// `<=` (also `=<`).
        case lessOrEqual = "<="
        /// `>`.
        case greater = ">"
        /// `>=` (also `=>`).
        case greaterOrEqual = ">="
        /// `BETWEEN {low, high}`: both ends included.
        case between = "BETWEEN"
        /// `IN {a, b}`, `IN listKeyPath`, `IN "text"` (substring).
        case `in` = "IN"
        /// String prefix.
        case beginsWith = "BEGINSWITH"
        /// String suffix.
        case endsWith = "ENDSWITH"
        /// Substring of a string, or item of a list.
        case contains = "CONTAINS"
        /// Wildcards `*` (any run) and `?` (one character) over the whole string.
        case like = "LIKE"
        /// An ICU regular expression matching the whole string.
        case matches = "MATCHES"

        /// True for the operators that only take strings (`BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`).
        public var isStringOnly: Bool {
            switch self {
            case .beginsWith, .endsWith, .like, .matches: return true
            default: return false
            }
        }

        /// True for `<`, `<=`, `>`, `>=`.
        public var isOrdering: Bool {
            switch self {
            case .less, .lessOrEqual, .greater, .greaterOrEqual: return true
            default: return false
            }
        }

        /// The operator with its sides swapped (`<` for `>`); itself when symmetric or not swappable.
        var mirrored: Operator {
            switch self {
            case .less: return .greater
            case .lessOrEqual: return .greaterOrEqual
            case .greater: return .less
            case .greaterOrEqual: return .lessOrEqual
            default: return self
            }
        }
    }

    /// The `[c]`, `[d]`, `[cd]` modifiers of string comparisons.
    public struct Options: OptionSet, Codable, Sendable, Hashable {
        /// The bits: 1 for `c`, 2 for `d`.
        public var rawValue: Int
        /// Creates options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `c`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `d`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)

        /// `[c]`, `[d]`, `[cd]`, or "" for none.
        public var description: String {
            guard !isEmpty else { return "" }
            return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
    }

    /// `ANY`, `ALL` or `NONE` before the left side; nil for a plain comparison.
    public var quantifier: Quantifier?
    /// The range of the quantifier keyword, when there is one.
    public var quantifierRange: FilterSourceRange?
    /// The left side: usually a key path.
    public var left: FilterExpression
    /// The operator.
    public var op: Operator
    /// The range of the operator token (without its modifiers).
    public var operatorRange: FilterSourceRange?
    /// The `[c]`/`[d]` modifiers.
    public var options: Options
    /// The right side: usually a constant or an aggregate.
    public var right: FilterExpression

    /// Creates a comparison.
    public init(
        quantifier: Quantifier? = nil, quantifierRange: FilterSourceRange? = nil, left: FilterExpression,
        op: Operator, operatorRange: FilterSourceRange? = nil, options: Options = [], right: FilterExpression
    ) {
        self.quantifier = quantifier
        self.quantifierRange = quantifierRange
        self.left = left
        self.op = op
        self.operatorRange = operatorRange
        self.options = options
        self.right = right
    }

    /// `ANY smells.label ==[c] "oak"`: canonical spelling, one space around the operator.
    public var description: String {
        let prefix = quantifier.map { $0.rawValue + " " } ?? ""
        return prefix + left.description + " " + op.rawValue + options.description + " " + right.description
    }
}
