import Foundation

/// The options of one `ValueEncoder.encode` call and the conversions of leaf values that every
/// container shares: numbers, dates, data, URLs, decimals and dictionaries.
final class ValueEncodingContext {
    let dateStrategy: ValueEncoder.DateEncodingStrategy
    let dataStrategy: ValueEncoder.DataEncodingStrategy
    let userInfo: [CodingUserInfoKey: Any]

    init(
        dateStrategy: ValueEncoder.DateEncodingStrategy, dataStrategy: ValueEncoder.DataEncodingStrategy,
        userInfo: [CodingUserInfoKey: Any]
    ) {
        self.dateStrategy = dateStrategy
        self.dataStrategy = dataStrategy
        self.userInfo = userInfo
    }

    /// `value` encoded at `codingPath`; a value that encodes nothing stands for an empty object,
    /// as in `JSONEncoder`.
    func wrap<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> Value {
        if let special = try wrapSpecial(value, at: codingPath) { return special }
        let node = ValueEncodingNode(context: self, codingPath: codingPath)
        try value.encode(to: node)
        return orderedIfDictionary(try node.resolvedValue() ?? .object(ValueObject()), T.self)
    }

    /// The types encoded without their own `encode(to:)`, or nil for every other type.
    func wrapSpecial<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws -> Value? {
        if T.self == Date.self, let date = value as? Date { return try box(date, at: codingPath) }
        if T.self == Data.self, let data = value as? Data { return box(data) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal { return try box(decimal, at: codingPath) }
        return nil
    }

    /// Sorts the members of an encoded dictionary, whose iteration order is random.
    func orderedIfDictionary<T>(_ value: Value, _ type: T.Type) -> Value {
        guard let dictionaryType = type as? any ValueEncodingDictionary.Type, case .object(let object) = value else {
            return value
        }
        let members: [ValueObject.Member]
        if dictionaryType.hasIntegerKeys {
            members = object.members.sorted { IntegerKeyOrder(text: $0.key) < IntegerKeyOrder(text: $1.key) }
        } else {
            members = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        return .object(ValueObject(members))
    }

    /// `.integer` when the value fits in Int64, else `.number` with its decimal digits.
    func box<I: BinaryInteger>(_ value: I) -> Value {
        if let exact = Int64(exactly: value) { return .integer(exact) }
        return .number(String(value))
    }

    /// `.double`, or an error naming the path for NaN and infinities.
    func box(_ value: Double, at codingPath: [any CodingKey]) throws -> Value {
        guard value.isFinite else {
            let name = value.isNaN ? "NaN" : (value < 0 ? "-infinity" : "infinity")
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: ValueCodingMessage.at(codingPath, "\(name) has no JSON form")))
        }
        return .double(value)
    }

    /// The `.double` nearest the Float's shortest decimal form (`0.1`, not `0.10000000149011612`).
    func box(_ value: Float, at codingPath: [any CodingKey]) throws -> Value {
        guard value.isFinite else { return try box(Double(value), at: codingPath) }
        return .double(Double(value.description) ?? Double(value))
    }

    func box(_ date: Date, at codingPath: [any CodingKey]) throws -> Value {
        switch dateStrategy {
        case .deferredToDate:
            return try box(date.timeIntervalSinceReferenceDate, at: codingPath)
        case .secondsSince1970:
            return try box(date.timeIntervalSince1970, at: codingPath)
        case .millisecondsSince1970:
            return try box(date.timeIntervalSince1970 * 1000, at: codingPath)
        case .iso8601:
            guard let text = RFC3339DateText.format(date) else {
                throw EncodingError.invalidValue(
                    date,
                    EncodingError.Context(
                        codingPath: codingPath,
                        debugDescription: ValueCodingMessage.at(
                            codingPath, "date \(date.timeIntervalSince1970) s since 1970 is outside RFC 3339's years 0000...9999"
                        )))
            }
            return .string(text)
        }
    }

    func box(_ data: Data) -> Value {
        switch dataStrategy {
        case .base64:
            return .string(data.base64EncodedString())
        case .deferredToData:
            return .array(data.map { .integer(Int64($0)) })
        }
    }

    func box(_ decimal: Decimal, at codingPath: [any CodingKey]) throws -> Value {
        guard !decimal.isNaN else {
            throw EncodingError.invalidValue(
                decimal,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: ValueCodingMessage.at(codingPath, "NaN has no JSON form")))
        }
        return .number(decimal.description)
    }
}

/// Dictionaries, whose members `ValueEncoder` sorts because their iteration order is random.
protocol ValueEncodingDictionary {
    /// True when the keys are integers (sorted numerically), false for text keys (sorted by bytes).
    static var hasIntegerKeys: Bool { get }
}

extension Dictionary: ValueEncodingDictionary where Key: Encodable, Value: Encodable {
    static var hasIntegerKeys: Bool { Key.self is any FixedWidthInteger.Type }
}

/// Numeric order of integer keys written in decimal (`-2 < 3 < 10 < 18446744073709551615`).
struct IntegerKeyOrder: Comparable {
    /// Negative keys sort first, then keys by magnitude; `digits` breaks ties between keys that do
    /// not parse (which dictionaries of integer keys never produce).
    private let rank: Int
    private let magnitude: UInt64
    private let digits: String

    init(text: String) {
        digits = text
        if text.hasPrefix("-"), let negative = Int64(text) {
            rank = 0
            magnitude = UInt64(bitPattern: negative)  // two's complement keeps the order of negatives
        } else if let positive = UInt64(text) {
            rank = 1
            magnitude = positive
        } else {
            rank = 2
            magnitude = 0
        }
    }

    static func < (lhs: IntegerKeyOrder, rhs: IntegerKeyOrder) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if lhs.magnitude != rhs.magnitude { return lhs.magnitude < rhs.magnitude }
        return lhs.digits.utf8.lexicographicallyPrecedes(rhs.digits.utf8)
    }
}
