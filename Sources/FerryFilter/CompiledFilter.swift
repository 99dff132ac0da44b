import FerryCore
import Foundation

/// A filter ready to run over records: parsed, variables substituted, checked against the schema
/// when there is one, and compiled (literals folded and converted once, regular expressions
/// compiled once).
///
/// ```swift
/// let filter = try CompiledFilter("rating >= 4 AND title CONTAINS[c] \"pinot\"", schema: schema)
/// let keep = filter.evaluate(record.value, collection: record.collection)
/// ```
public struct CompiledFilter: Sendable {
    /// The filter text as given.
    public let source: String
    /// The parsed query, with variables substituted.
    public let query: FilterQuery
    private let root: FilterNode

    /// The collection the filter is restricted to (`stories:` prefix), nil for all.
    public var collection: String? { query.collection }

    /// Parses, substitutes, checks and compiles filter text.
    /// - Parameters:
    ///   - source: the filter (`[collection:] expression`).
    ///   - variables: values of `$NAME` variables (`--var NAME=VALUE`).
    ///   - schema: field types to check against; nil for schema-free data (no check; dynamic types).
    ///   - timeZone: the IANA time zone in which a date-only literal (`"2024-01-01"`) means
    ///     midnight (`--time-zone`, default UTC).
    /// - Throws: `FilterError` (a usage error) for a syntax error, an unset variable, a schema
    ///   mismatch or a bad `MATCHES` pattern.
    public init(
        _ source: String, variables: [String: Value] = [:], schema: FilterSchema? = nil, timeZone: TimeZone = .gmt
    ) throws(FilterError) {
        try self.init(FilterQuery(parsing: source), source: source, variables: variables, schema: schema, timeZone: timeZone)
    }

    /// Substitutes, checks and compiles an already parsed query (see `init(_:variables:schema:timeZone:)`).
    /// - Parameter source: the text the query was parsed from, kept for messages.
    public init(
        _ query: FilterQuery, source: String? = nil, variables: [String: Value] = [:], schema: FilterSchema? = nil,
        timeZone: TimeZone = .gmt
    ) throws(FilterError) {
        var query = query
        query.expression = try query.expression.substituting(variables)
        var fields: [String: FilterFieldType]?
        if let schema {
            try schema.check(query)
            fields = schema.fields(of: query.collection)
        }
        self.source = source ?? query.description
        self.query = query
        let compiler = FilterCompiler(checker: fields.map(FilterChecker.init(fields:)), timeZone: timeZone)
        self.root = try compiler.compile(query.expression)
    }

    /// True when `record` matches the expression (the collection prefix is not consulted).
    public func evaluate(_ record: Value) -> Bool {
        root.evaluate(record)
    }

    /// True when `record`, of `collection`, passes: records of a collection other than the
    /// prefix's pass untouched; the others must match the expression.
    public func evaluate(_ record: Value, collection: String?) -> Bool {
        if let restricted = query.collection, restricted != collection { return true }
        return root.evaluate(record)
    }

    /// True when the record passes (see `evaluate(_:collection:)`).
    public func evaluate(_ record: Record) -> Bool {
        evaluate(record.value, collection: record.collection)
    }

    /// Splits a `--var NAME=VALUE` argument. The value is read as a filter constant when it is
    /// one (`4`, `-2.5`, `TRUE`, `NIL`, `"quoted text"`), else taken as a plain string
    /// (`pinot`, `2024-01-01`).
    /// - Throws: `FilterError` when there is no `=` or the name is not an identifier.
    public static func variable(fromArgument argument: String) throws(FilterError) -> (name: String, value: Value) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw FilterError("expected NAME=VALUE, found '\(argument)'", column: 1, length: argument.unicodeScalars.count)
        }
        let name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        guard FilterLexer.isIdentifier(name) else {
            throw FilterError("'\(name)' is not a variable name (letters, digits, _)", column: 1, length: name.unicodeScalars.count)
        }
        if let tokens = try? FilterLexer.tokenize(text), tokens.count == 2 {
            switch tokens[0].kind {
            case .number(let n): return (name, .number(n))
            case .string(let s): return (name, .string(s))
            case .identifier(let word):
                switch FilterKeyword(identifier: word) {
                case .true?, .yes?: return (name, .bool(true))
                case .false?, .no?: return (name, .bool(false))
                case .nil?, .null?: return (name, .null)
                default: break
                }
            default: break
            }
        }
        return (name, .string(text))
    }
}
