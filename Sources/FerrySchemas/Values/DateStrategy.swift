/// How numeric dates are read (`--date-strategy`), with the names of Foundation's
/// `JSONDecoder.DateDecodingStrategy` (SCHEMAS.md "Numeric dates"). RFC 3339 strings are read
/// whatever the strategy.
public enum DateStrategy: String, Sendable, Hashable, CaseIterable {
    /// Seconds since 2001-01-01T00:00:00Z (what a Swift app's `JSONEncoder` writes by default);
    /// the default for numbers.
    case deferredToDate
    /// Seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// RFC 3339 strings only: a number is a `type-error`.
    case iso8601
}
