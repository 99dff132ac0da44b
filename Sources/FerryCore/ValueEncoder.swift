/// Encodes a caller's own `Encodable` types into a `Value` tree, as Foundation's `JSONEncoder`
/// encodes them into JSON bytes (DESIGN.md: `ValueEncoder` / `ValueDecoder` exist for users' own
/// Codable types; Ferry's hot paths build `Value` directly).
///
/// The result's shapes:
/// - keyed containers become `.object` whose members keep the order the keys were encoded in
///   (synthesized `Encodable` conformances encode in declaration order); encoding a key twice
///   replaces the first value in place. Absent optionals (`encodeIfPresent` with nil, as
///   synthesized conformances do) are omitted; `encodeNil` writes `.null`.
/// - `[String: X]` dictionaries (and other dictionaries Swift encodes as keyed containers, such as
///   `[Int: X]`) iterate in a random order, so their members are sorted for deterministic output:
///   by the keys' UTF-8 bytes, or numerically when the key type is an integer type.
/// - unkeyed containers become `.array`.
/// - `Int`, `Int8`...`Int64`, `UInt8`...`UInt32` and `UInt`/`UInt64` up to `Int64.max` become
///   `.integer`; larger `UInt`/`UInt64` values become `.number` with their decimal digits.
/// - `Double` becomes `.double`; `Float` becomes the `.double` nearest its shortest decimal form
///   (`0.1 as Float` is `.double(0.1)`, not `0.10000000149011612`). NaN and infinities have no JSON
///   form (SCHEMAS.md "Values: Numbers") and throw.
/// - `Date`, `Data`: see `dateEncodingStrategy`, `dataEncodingStrategy`. `URL` becomes its
///   absolute string and `Decimal` becomes `.number` with its exact digits, as `JSONEncoder` does.
public struct ValueEncoder: Sendable {
    /// How `Date` values are encoded (Foundation's `JSONEncoder.DateEncodingStrategy` names).
    public enum DateEncodingStrategy: Sendable, Hashable {
        /// `Date`'s own `Encodable` form: seconds since 2001-01-01T00:00:00Z as `.double`.
        case deferredToDate
        /// Seconds since 1970-01-01T00:00:00Z as `.double`.
        case secondsSince1970
        /// Milliseconds since 1970-01-01T00:00:00Z as `.double`.
        case millisecondsSince1970
        /// An RFC 3339 string in UTC, with three fraction digits only when the milliseconds are
        /// non-zero: `2024-05-01T09:30:00Z`, `2024-05-01T09:30:00.250Z` (SCHEMAS.md "Values:
        /// Instants"). The date is rounded to the nearest millisecond; dates outside the years
        /// 0000...9999 throw `EncodingError.invalidValue`.
        case iso8601
    }

    /// How `Data` values are encoded.
    public enum DataEncodingStrategy: Sendable, Hashable {
        /// `Data`'s own `Encodable` form: an array of byte values (`.integer` 0...255).
        case deferredToData
        /// A standard base64 string with padding (RFC 4648 section 4; SCHEMAS.md "Values: Data").
        case base64
    }

    /// How `Date` values are encoded; `.deferredToDate` by default, as in `JSONEncoder`.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` values are encoded; `.base64` by default.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// Values handed to every `Encoder.userInfo` of the encoding.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes `value` into a `Value` tree.
    ///
    /// - Throws: `EncodingError.invalidValue` whose `codingPath` (and `jsonPointer`) names the
    ///   failing value and whose `debugDescription` starts with that pointer (`at /tastes/0/value:
    ///   NaN has no JSON form`): for NaN or infinite floating-point values, dates outside RFC 3339's
    ///   range, a top-level value that encodes nothing, or a type that asks for two different
    ///   container kinds from one encoder. Errors thrown by `value`'s own `encode(to:)` pass
    ///   through unchanged.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        let context = ValueEncodingContext(
            dateStrategy: dateEncodingStrategy, dataStrategy: dataEncodingStrategy,
            userInfo: userInfo.mapValues { $0 as Any })
        let encoder = ValueEncodingNode(context: context, codingPath: [])
        guard let result = try encoder.wrapTopLevel(value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: ValueCodingMessage.at([], "\(T.self) did not encode any values")))
        }
        return result
    }
}
