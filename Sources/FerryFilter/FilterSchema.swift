/// The fields a filter may name, per collection, with their types: what `check` uses to reject
/// an unknown key or an operator that does not fit a field before any record is read.
///
/// The pipeline builds one from the domain schemas (SCHEMAS.md); schema-free data has none, and
/// evaluation then treats types dynamically.
public struct FilterSchema: Codable, Sendable, Hashable {
    /// The fields of each record type, by collection name (`wineTastingNotes` -> `rating: .number`, ...).
    public var collections: [String: [String: FilterFieldType]]

    /// Creates a schema.
    /// - Parameter collections: the fields of each collection.
    public init(collections: [String: [String: FilterFieldType]]) {
        self.collections = collections
    }

    /// The fields of `collection`, or, for nil, of every collection together (a key present in
    /// several collections takes its type from the first by name). Nil for an unknown collection.
    public func fields(of collection: String?) -> [String: FilterFieldType]? {
        if let collection { return collections[collection] }
        var merged: [String: FilterFieldType] = [:]
        for name in collections.keys.sorted() {
            for (key, type) in collections[name] ?? [:] where merged[key] == nil {
                merged[key] = type
            }
        }
        return merged
    }

    /// Checks a parsed query: its collection prefix names a collection of the schema and its
    /// expression fits that collection's fields (see `check(_:collection:)`).
    /// - Throws: `FilterError` pointing at the first problem.
    public func check(_ query: FilterQuery) throws(FilterError) {
        if let collection = query.collection, collections[collection] == nil {
            let names = collections.keys.sorted()
            throw FilterError(
                FilterChecker.unknownMessage("collection", collection, candidates: names, listName: "collections"),
                at: query.collectionRange ?? FilterSourceRange(column: 1, length: collection.unicodeScalars.count))
        }
        try check(query.expression, collection: query.collection)
    }

    /// Checks that every key path of `expression` names a field of `collection` (of any collection
    /// when nil) and that each operator and constant fits the field's type: string operators on
    /// strings only, `<` not on booleans, `ANY`/`ALL`/`NONE` and `@count` on lists only, numbers
    /// against numbers, RFC 3339 or `YYYY-MM-DD` strings against instants and days, enumeration
    /// values among the listed ones. Variables left in the tree are not checked (substitute them first).
    /// - Throws: `FilterError` with the message and the range of the offending part; for an
    ///   unknown key the message suggests the closest keys (`unknown key 'ratng'; did you mean
    ///   'rating'? keys: rating, ...`).
    public func check(_ expression: FilterExpression, collection: String?) throws(FilterError) {
        guard let fields = fields(of: collection) else {
            throw FilterError(
                FilterChecker.unknownMessage("collection", collection ?? "", candidates: collections.keys.sorted(), listName: "collections"),
                column: 1)
        }
        try FilterChecker(fields: fields).check(expression)
    }
}

extension FilterExpression {
    /// Checks this expression against `schema` for `collection` (see `FilterSchema.check(_:collection:)`).
    /// - Throws: `FilterError` pointing at the first problem.
    public func check(against schema: FilterSchema, collection: String?) throws(FilterError) {
        try schema.check(self, collection: collection)
    }
}
