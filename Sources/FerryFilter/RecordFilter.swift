import FerryCore
import Foundation

/// What the pipeline asks of each record: keep it or not. Built from filter text (`--where`), from
/// a compiled filter, or, for Swift callers, from a closure over the raw `Value` or over typed
/// models (including a Foundation `Predicate` made with `#Predicate`).
///
/// ```swift
/// let favourites = RecordFilter { $0.objectValue?["isFavorite"] == .bool(true) }
/// let pinot = try RecordFilter(expression: "title CONTAINS[c] \"pinot\"")
/// let good = RecordFilter(decoding: { try Note(value: $0) }, predicate: #Predicate<Note> { $0.rating >= 4 })
/// ```
public struct RecordFilter: Sendable {
    private let body: @Sendable (Value, String?) -> Bool

    /// Keeps the records for which `closure` returns true (every collection).
    public init(_ closure: @escaping @Sendable (Value) -> Bool) {
        self.body = { value, _ in closure(value) }
    }

    /// Keeps the records `filter` passes (its collection prefix included).
    public init(_ filter: CompiledFilter) {
        self.body = { value, collection in filter.evaluate(value, collection: collection) }
    }

    /// Parses and compiles filter text (see `CompiledFilter.init(_:variables:schema:timeZone:)`).
    /// - Throws: `FilterError` (a usage error).
    public init(
        expression: String, variables: [String: Value] = [:], schema: FilterSchema? = nil, timeZone: TimeZone = .gmt
    ) throws(FilterError) {
        self.init(try CompiledFilter(expression, variables: variables, schema: schema, timeZone: timeZone))
    }

    /// Keeps the records that decode into a model for which `isIncluded` returns true; records
    /// that do not decode are dropped (validation reports them elsewhere).
    /// - Parameters:
    ///   - decode: builds the typed model from a record (a domain type's `init(value:)`, or a
    ///     `ValueDecoder`).
    ///   - isIncluded: the test on the model.
    public init<Model>(
        decoding decode: @escaping @Sendable (Value) throws -> Model, where isIncluded: @escaping @Sendable (Model) -> Bool
    ) {
        self.body = { value, _ in
            guard let model = try? decode(value) else { return false }
            return isIncluded(model)
        }
    }

    /// Keeps the records that decode into a model matching a Foundation `Predicate` (made with
    /// `#Predicate<Model> { ... }`); a record that does not decode, or on which the predicate
    /// throws, is dropped.
    public init<Model>(decoding decode: @escaping @Sendable (Value) throws -> Model, predicate: Predicate<Model>) {
        self.body = { value, _ in
            guard let model = try? decode(value) else { return false }
            return (try? predicate.evaluate(model)) ?? false
        }
    }

    /// True when the record is kept.
    /// - Parameters:
    ///   - value: the record.
    ///   - collection: its collection, for filters restricted to one (`stories: ...`).
    public func matches(_ value: Value, collection: String? = nil) -> Bool {
        body(value, collection)
    }

    /// True when the record is kept.
    public func matches(_ record: Record) -> Bool {
        body(record.value, record.collection)
    }

    /// Keeps every record.
    public static let all = RecordFilter { _ in true }
}
