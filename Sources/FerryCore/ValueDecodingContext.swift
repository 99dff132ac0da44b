import Foundation

/// The options of one `ValueDecoder.decode` call and the conversions of leaf values that every
/// container shares, with the errors they throw.
final class ValueDecodingContext {
    let dateStrategy: ValueDecoder.DateDecodingStrategy
    let dataStrategy: ValueDecoder.DataDecodingStrategy
    let userInfo: [CodingUserInfoKey: Any]

    init(
        dateStrategy: ValueDecoder.DateDecodingStrategy, dataStrategy: ValueDecoder.DataDecodingStrategy,
        userInfo: [CodingUserInfoKey: Any]
    ) {
        self.dateStrategy = dateStrategy
        self.dataStrategy = dataStrategy
        self.userInfo = userInfo
    }

    /// A value of `type` decoded from `value` found at `codingPath`.
    func unbox<T: Decodable>(_ value: Value, as type: T.Type, at codingPath: [any CodingKey]) throws -> T {
        if let special = try unboxSpecial(value, as: type, at: codingPath) { return special }
        return try T(from: ValueDecodingNode(context: self, value: value, codingPath: codingPath))
    }

    /// The types decoded without their own `init(from:)` (strategies, and a few common leaf types
    /// taken directly for speed), or nil for every other type.
    private func unboxSpecial<T: Decodable>(_ value: Value, as type: T.Type, at codingPath: [any CodingKey]) throws -> T? {
        if T.self == String.self { return try unboxString(value, at: codingPath) as? T }
        if T.self == Int.self { return try unboxInteger(value, as: Int.self, at: codingPath) as? T }
        if T.self == Double.self { return try unboxDouble(value, at: codingPath) as? T }
        if T.self == Bool.self { return try unboxBool(value, at: codingPath) as? T }
        if T.self == Date.self { return try unboxDate(value, at: codingPath) as? T }
        if T.self == Data.self, dataStrategy == .base64 { return try unboxBase64(value, at: codingPath) as? T }
        if T.self == URL.self { return try unboxURL(value, at: codingPath) as? T }
        if T.self == Decimal.self { return try unboxDecimal(value, at: codingPath) as? T }
        return nil
    }

    // MARK: - Leaf values

    func unboxBool(_ value: Value, at codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, "a boolean", value, codingPath) }
        return bool
    }

    func unboxString(_ value: Value, at codingPath: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, "a string", value, codingPath) }
        return string
    }

    /// An integer that fits `I` exactly; never rounded or truncated.
    func unboxInteger<I: FixedWidthInteger>(_ value: Value, as type: I.Type, at codingPath: [any CodingKey]) throws -> I {
        guard value.isNumber else { throw mismatch(I.self, "a number", value, codingPath) }
        if let wide = value.int64Value, let exact = I(exactly: wide) { return exact }
        // Beyond Int64 (UInt64 values): plain digits, or a double that is an integer.
        switch value {
        case .number(let text): if let exact = I(text) { return exact }
        case .double(let double): if let exact = I(exactly: double) { return exact }
        default: break
        }
        throw doesNotFit(value, I.self, codingPath)
    }

    /// Any finite number, as the nearest `Double`.
    func unboxDouble(_ value: Value, at codingPath: [any CodingKey]) throws -> Double {
        guard value.isNumber else { throw mismatch(Double.self, "a number", value, codingPath) }
        guard let double = value.doubleValue else { throw doesNotFit(value, Double.self, codingPath) }
        return double
    }

    /// A number within `Float`'s range, as the nearest `Float` (number text is rounded once,
    /// straight from its digits).
    func unboxFloat(_ value: Value, at codingPath: [any CodingKey]) throws -> Float {
        guard value.isNumber else { throw mismatch(Float.self, "a number", value, codingPath) }
        let float: Float?
        switch value {
        case .number(let text): float = Float(text)
        case .double(let double): float = abs(double) <= Double(Float.greatestFiniteMagnitude) ? Float(double) : nil
        case .integer(let integer): float = Float(integer)
        default: float = nil
        }
        guard let float, float.isFinite else { throw doesNotFit(value, Float.self, codingPath) }
        return float
    }

    func unboxDate(_ value: Value, at codingPath: [any CodingKey]) throws -> Date {
        switch dateStrategy {
        case .deferredToDate:
            return Date(timeIntervalSinceReferenceDate: try unboxDouble(value, at: codingPath))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: codingPath))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(value, at: codingPath) / 1000)
        case .iso8601:
            let text = try unboxString(value, at: codingPath)
            guard let date = RFC3339DateText.parse(text) else {
                throw corrupted("expected an RFC 3339 date-time with an offset, found \(quoted: text)", codingPath)
            }
            return date
        }
    }

    func unboxBase64(_ value: Value, at codingPath: [any CodingKey]) throws -> Data {
        let text = try unboxString(value, at: codingPath)
        guard let data = Data(base64Encoded: text) else {
            throw corrupted("expected standard base64 with padding", codingPath)
        }
        return data
    }

    func unboxURL(_ value: Value, at codingPath: [any CodingKey]) throws -> URL {
        let text = try unboxString(value, at: codingPath)
        guard let url = URL(string: text) else { throw corrupted("invalid URL \(quoted: text)", codingPath) }
        return url
    }

    func unboxDecimal(_ value: Value, at codingPath: [any CodingKey]) throws -> Decimal {
        switch value {
        case .integer(let integer): return Decimal(integer)
        case .double(let double): return Decimal(double)
        case .number(let text):
            // Decimal(string:) accepts a valid prefix ("1.5x"); Double(_:) checks the whole text.
            guard Double(text) != nil, let decimal = Decimal(string: text), !decimal.isNaN else {
                throw doesNotFit(value, Decimal.self, codingPath)
            }
            return decimal
        default: throw mismatch(Decimal.self, "a number", value, codingPath)
        }
    }

    // MARK: - Errors

    /// `valueNotFound` for null, else `typeMismatch`: `at /a: expected a number, found string`.
    func mismatch(_ type: Any.Type, _ expected: String, _ value: Value, _ codingPath: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath,
            debugDescription: ValueCodingMessage.at(codingPath, "expected \(expected), found \(value.kindName)"))
        return value.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    /// `dataCorrupted`: `at /a: number 1.5 does not fit in Int`.
    func doesNotFit(_ value: Value, _ type: Any.Type, _ codingPath: [any CodingKey]) -> DecodingError {
        corrupted("number \(ValueCodingMessage.numberText(value)) does not fit in \(type)", codingPath)
    }

    func corrupted(_ text: String, _ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: ValueCodingMessage.at(codingPath, text)))
    }
}
