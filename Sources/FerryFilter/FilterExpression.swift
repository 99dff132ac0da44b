/// A parsed filter expression: a typed tree of comparisons joined by `AND`, `OR` and `NOT`,
/// whose leaves are constants, key paths, variables and `{...}` aggregates.
///
/// Every node keeps its source range so checks can point at it. The `description` is the
/// canonical text, with every `AND`/`OR` in parentheses so precedence shows:
/// `((rating >= 4 AND NOT isFavorite == TRUE) OR title == "x")`.
/// Source of the grammar: Apple, "Predicate Format String Syntax"; `Docs/filters.md` gives it as EBNF.
public indirect enum FilterExpression: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A constant.
    case literal(FilterLiteral, range: FilterSourceRange?)
    /// A key path into the record.
    case keyPath(FilterKeyPath)
    /// `$NAME`, replaced by its value before checking and evaluation.
    case variable(String, range: FilterSourceRange?)
    /// `{a, b, ...}`: a list of constants (for `IN` and `BETWEEN`).
    case aggregate([FilterExpression], range: FilterSourceRange?)
    /// A comparison.
    case comparison(FilterComparison)
    /// `a AND b` (also `&&`).
    case and(FilterExpression, FilterExpression)
    /// `a OR b` (also `||`).
    case or(FilterExpression, FilterExpression)
    /// `NOT a` (also `!`); the range is the keyword's.
    case not(FilterExpression, range: FilterSourceRange?)
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool, range: FilterSourceRange?)

    /// Parses a filter expression (no collection prefix: see `FilterQuery` for that).
    /// - Throws: `FilterError` with the column of the first problem.
    public init(parsing source: String) throws(FilterError) {
        var parser = try FilterParser(source)
        self = try parser.parseExpressionOnly()
    }

    /// The source range of the node: for operators, from the first to the last token.
    public var range: FilterSourceRange? {
        switch self {
        case .literal(_, let range), .variable(_, let range), .aggregate(_, let range), .constant(_, let range):
            return range
        case .keyPath(let path):
            return path.range
        case .comparison(let c):
            let start = c.quantifierRange ?? c.left.range
            return FilterExpression.union(start, c.right.range)
        case .and(let l, let r), .or(let l, let r):
            return FilterExpression.union(l.range, r.range)
        case .not(let inner, let range):
            return FilterExpression.union(range, inner.range)
        }
    }

    private static func union(_ a: FilterSourceRange?, _ b: FilterSourceRange?) -> FilterSourceRange? {
        guard let a else { return b }
        guard let b else { return a }
        return a.union(b)
    }

    /// The canonical text (see the type's summary).
    public var description: String {
        switch self {
        case .literal(let literal, _): return literal.description
        case .keyPath(let path): return path.description
        case .variable(let name, _): return "$" + name
        case .aggregate(let items, _): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .comparison(let c): return c.description
        case .and(let l, let r): return "(" + l.description + " AND " + r.description + ")"
        case .or(let l, let r): return "(" + l.description + " OR " + r.description + ")"
        case .not(let inner, _): return "NOT " + inner.description
        case .constant(let b, _): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }
}
