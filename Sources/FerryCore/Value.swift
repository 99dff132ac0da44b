/// The neutral data model every format adapter reads into and writes from.
///
/// Numbers come in three forms: `integer` and `double` for typed data, and `number` holding the exact
/// source text of a number in schema-free data (so `1.000000000000000005` or `18446744073709551616`
/// survive a round trip untouched, as with jq 1.7). Readers of text formats produce `number`; domain
/// codecs turn it into `integer` / `double` and report a `type-error` when it does not fit.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A JSON number's source text, exactly as written (RFC 8259 section 6 grammar).
    case number(String)
    case string(String)
    case array([Value])
    case object(ValueObject)
}

extension Value {
    /// The string, when this is a string.
    @inlinable public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, when this is a Boolean.
    @inlinable public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, when this is an array.
    @inlinable public var arrayValue: [Value]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, when this is an object.
    @inlinable public var objectValue: ValueObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// True for `.null`.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// True for any of the three number forms.
    @inlinable public var isNumber: Bool {
        switch self {
        case .integer, .double, .number: return true
        default: return false
        }
    }

    /// The number as a `Double` (any of the three forms); nil for non-numbers and for source text
    /// that overflows to infinity.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .number(let text):
            guard let d = Double(text), d.isFinite else { return nil }
            return d
        default: return nil
        }
    }

    /// The number as an exact `Int64`: integers, doubles with no fraction (`1.0`, as SCHEMAS.md
    /// allows for integer fields) and number text of either kind. Nil when the number has a
    /// fraction or does not fit in Int64 (never rounded).
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .double(let d): return Int64(exactly: d)
        case .number(let text):
            if let i = Int64(text) { return i }
            guard let d = Double(text), d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            // Reject text whose exact value is not integral even though the Double rounds to one
            // (1.0000000000000000001): only plain mantissas with zero fractions pass.
            return NumberText.isIntegral(text) ? i : nil
        default: return nil
        }
    }

    /// A short name of the value's kind for messages: "string", "number", "object", ...
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .double, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The value at a JSON Pointer below this one, or nil when a token does not resolve.
    public subscript(pointer: JSONPointer) -> Value? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(ValueObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
