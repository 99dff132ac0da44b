/// Where a token or a node stands in a filter's source text: a 1-based column counted in Unicode
/// scalars (as SCHEMAS.md "Positions" counts columns) and a length in Unicode scalars.
///
/// Filters are one line, so a column is all a position needs. A range at the end of the input
/// (`title ==` has nothing after `==`) has `column == scalarCount + 1` and length 1.
public struct FilterSourceRange: Codable, Sendable, Hashable, CustomStringConvertible {
    /// 1-based column of the first scalar.
    public var column: Int
    /// Number of Unicode scalars covered (at least 1).
    public var length: Int

    /// Creates a range from a 1-based column and a length in Unicode scalars.
    public init(column: Int, length: Int) {
        self.column = column
        self.length = max(1, length)
    }

    /// The column just past the last scalar.
    public var end: Int { column + length }

    /// The smallest range covering both.
    public func union(_ other: FilterSourceRange) -> FilterSourceRange {
        let start = min(column, other.column)
        return FilterSourceRange(column: start, length: max(end, other.end) - start)
    }

    /// `column:length`, for test output.
    public var description: String { "\(column):\(length)" }
}
