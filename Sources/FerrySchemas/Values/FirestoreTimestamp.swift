import FerryCore

/// A Firestore `Timestamp` (vocabulary V1): seconds and nanoseconds, kept exactly so V1 -> V1 loses
/// nothing (SCHEMAS.md "Domain vocabulary").
///
/// Read from `{"_seconds": S, "_nanoseconds": N}`, `{"seconds": S, "nanoseconds": N}`,
/// `{"__datatype__": "timestamp", "value": {"_seconds": S, "_nanoseconds": N}}` (node-firestore-
/// import-export), or an RFC 3339 string; written as `{"_seconds": S, "_nanoseconds": N}`.
public struct FirestoreTimestamp: Sendable, Hashable {
    /// The instant, with its nanoseconds.
    public var instant: Instant

    public init(instant: Instant) { self.instant = instant }

    /// The members of the usual shape, `{"_seconds": S, "_nanoseconds": N}`, as fields: what
    /// `ModelReader.timestamp(_:)` asks a cursor for before it makes the value a `Value`.
    @usableFromInline
    static let plainFields = [FieldSchema("_seconds", .integer), FieldSchema("_nanoseconds", .integer)]

    /// `{"_seconds": S, "_nanoseconds": N}` with integer members.
    public var value: Value {
        .object(["_seconds": .integer(instant.seconds), "_nanoseconds": .integer(Int64(instant.nanoseconds))])
    }

    /// Why a value is not a Timestamp.
    public enum ReadError: Error, Sendable, Hashable {
        /// Not one of the accepted shapes (the message says which kind was found).
        case wrongShape
        /// A member that is not an integer (the member's relative pointer).
        case notInteger(JSONPointer)
        /// Nanoseconds outside `0..<1_000_000_000`, or an instant outside the years 0001...9999.
        case outOfRange(JSONPointer)
        /// An RFC 3339 string that does not parse.
        case badText(Instant.ParseError)
    }

    /// Reads the accepted shapes. With `scalarsAsText` (CSV) members may be number text in strings.
    public static func read(_ value: Value, scalarsAsText: Bool = false) -> Result<FirestoreTimestamp, ReadError> {
        switch value {
        case .string(let text):
            switch Instant.parse(text) {
            case .success(let instant): return .success(FirestoreTimestamp(instant: instant))
            case .failure(let error): return .failure(.badText(error))
            }
        case .object(let object):
            if case .string("timestamp")? = object["__datatype__"], let inner = object["value"] {
                return read(inner, scalarsAsText: scalarsAsText).mapError { error in
                    switch error {
                    case .notInteger(let p): return .notInteger(JSONPointer(tokens: ["value"] + p.tokens))
                    case .outOfRange(let p): return .outOfRange(JSONPointer(tokens: ["value"] + p.tokens))
                    default: return error
                    }
                }
            }
            let (secondsKey, nanosKey) =
                object["_seconds"] != nil ? ("_seconds", "_nanoseconds") : ("seconds", "nanoseconds")
            guard let secondsValue = object[secondsKey], object.count <= 2 else { return .failure(.wrongShape) }
            let nanosValue = object[nanosKey] ?? .integer(0)
            if object.count == 2 && object[nanosKey] == nil { return .failure(.wrongShape) }
            guard let seconds = integer(secondsValue, scalarsAsText) else {
                return .failure(.notInteger(JSONPointer(tokens: [secondsKey])))
            }
            guard let nanos = integer(nanosValue, scalarsAsText) else {
                return .failure(.notInteger(JSONPointer(tokens: [nanosKey])))
            }
            guard (0..<1_000_000_000).contains(nanos) else { return .failure(.outOfRange(JSONPointer(tokens: [nanosKey]))) }
            guard let instant = Instant(seconds: seconds, nanoseconds: Int32(nanos)) else {
                return .failure(.outOfRange(JSONPointer(tokens: [secondsKey])))
            }
            return .success(FirestoreTimestamp(instant: instant))
        default:
            return .failure(.wrongShape)
        }
    }

    private static func integer(_ value: Value, _ scalarsAsText: Bool) -> Int64? {
        if scalarsAsText, case .string(let text) = value { return Value.number(text).int64Value }
        return value.int64Value
    }

    /// True when `value` looks like a Timestamp object (for domain detection).
    public static func isTimestampObject(_ value: Value) -> Bool {
        guard case .object(let object) = value else { return false }
        if case .string("timestamp")? = object["__datatype__"] { return true }
        return object.count == 2 && (object["_seconds"] != nil || object["seconds"] != nil)
    }
}
