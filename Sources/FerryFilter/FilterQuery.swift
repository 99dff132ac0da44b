/// A parsed filter: an optional collection prefix and the expression.
///
/// `stories: createdAt > "2024-01-01"` restricts the expression to records of the collection
/// `stories`; records of other collections pass untouched. The prefix is `IDENT ':'` at the start.
public struct FilterQuery: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The collection the filter applies to; nil for all.
    public var collection: String?
    /// Where the prefix stands, for errors about it.
    public var collectionRange: FilterSourceRange?
    /// The expression after the prefix.
    public var expression: FilterExpression

    /// Creates a query from its parts.
    public init(collection: String? = nil, collectionRange: FilterSourceRange? = nil, expression: FilterExpression) {
        self.collection = collection
        self.collectionRange = collectionRange
        self.expression = expression
    }

    /// Parses filter text (`[collection:] expression`).
    /// - Throws: `FilterError` with the 1-based column of the first syntax problem.
    public init(parsing source: String) throws(FilterError) {
        var parser = try FilterParser(source)
        self = try parser.parseQuery()
    }

    /// The canonical text: `stories: createdAt > "2024-01-01"`.
    public var description: String {
        (collection.map { $0 + ": " } ?? "") + expression.description
    }
}
