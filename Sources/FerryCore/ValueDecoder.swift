/// Decodes a caller's own `Decodable` types from a `Value` tree, as Foundation's `JSONDecoder`
/// decodes them from JSON bytes (DESIGN.md: `ValueEncoder` / `ValueDecoder` exist for users' own
/// Codable types; Ferry's hot paths read `Value` directly).
///
/// What each Swift type accepts:
/// - `Bool` only `.bool`, `String` only `.string`: no coercion between kinds.
/// - Integer types accept any of the three number forms when the number is an integer that fits
///   the type exactly (`Value.int64Value`, so `1.0` and `.number("1e2")` are integers; SCHEMAS.md
///   "Values: Numbers": an integer field accepts `1.0`). `1.5`, `1e30` or `300` for `UInt8` throw
///   `DecodingError.dataCorrupted`; nothing is rounded or truncated. `UInt`/`UInt64` also accept
///   `.number` digits above `Int64.max`.
/// - `Double` accepts any finite number (the nearest `Double`); `Float` the nearest `Float` of a
///   number within its range. Number text that overflows throws `dataCorrupted`.
/// - `Date`, `Data`: see `dateDecodingStrategy`, `dataDecodingStrategy`. `URL` accepts a string
///   `URL(string:)` accepts; `Decimal` any number (`.number` text keeps its exact digits).
/// - Objects: members are looked up by the key's `stringValue`; with duplicate keys the first
///   wins. `decodeIfPresent` returns nil for an absent member and for `.null`; `decode` of a
///   non-optional type throws `keyNotFound` for an absent member and `valueNotFound` for `.null`.
public struct ValueDecoder: Sendable {
    /// How `Date` values are decoded (Foundation's `JSONDecoder.DateDecodingStrategy` names).
    public enum DateDecodingStrategy: Sendable, Hashable {
        /// `Date`'s own `Decodable` form: a number of seconds since 2001-01-01T00:00:00Z.
        case deferredToDate
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// An RFC 3339 date-time string (section 5.6) with `Z` or an offset (`+09:00`) and any
        /// number of fraction digits (SCHEMAS.md "Values: Instants"); a time without an offset is
        /// an error, never a guess. Digits past nanoseconds are ignored.
        case iso8601
    }

    /// How `Data` values are decoded.
    public enum DataDecodingStrategy: Sendable, Hashable {
        /// `Data`'s own `Decodable` form: an array of byte values 0...255.
        case deferredToData
        /// A standard base64 string with padding (RFC 4648 section 4; SCHEMAS.md "Values: Data").
        case base64
    }

    /// How `Date` values are decoded; `.deferredToDate` by default, as in `JSONDecoder`.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` values are decoded; `.base64` by default.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// Values handed to every `Decoder.userInfo` of the decoding.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default strategies.
    public init() {}

    /// Decodes a value of `type` from `value`.
    ///
    /// - Throws: `DecodingError` whose `codingPath` names the failing value (`jsonPointer` gives
    ///   it as a JSON Pointer such as `/tastes/0/value`) and whose `debugDescription` starts with
    ///   that pointer: `at /tastes/0/value: expected a number, found string`.
    ///   `typeMismatch` for a value of the wrong kind, `valueNotFound` for `.null` where a value is
    ///   required (or an array that ran out of elements), `keyNotFound` for an absent member, and
    ///   `dataCorrupted` for a number that does not fit the type exactly, a malformed date, base64
    ///   text or URL. Errors thrown by the type's own `init(from:)` pass through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        let context = ValueDecodingContext(
            dateStrategy: dateDecodingStrategy, dataStrategy: dataDecodingStrategy,
            userInfo: userInfo.mapValues { $0 as Any })
        return try context.unbox(value, as: T.self, at: [])
    }
}
