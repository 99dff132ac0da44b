// Field paths of `ValueEncoder` / `ValueDecoder` errors as JSON Pointers.
//
// Both coders throw Swift's standard `EncodingError` / `DecodingError` with the coding path of the
// failing value; these helpers turn that path into the JSON Pointer (RFC 6901) that Ferry's
// diagnostics use (SCHEMAS.md "Values: Positions"), such as `/tastes/0/value`.

extension JSONPointer {
    /// The pointer for a Codable coding path: each key's `stringValue`, and each array position as
    /// its 0-based index.
    ///
    /// Array positions are recognised in both spellings: the keys `ValueEncoder` / `ValueDecoder`
    /// make (`stringValue` `"3"`, `intValue` 3) and Foundation's (`stringValue` `"Index 3"`,
    /// `intValue` 3). A key of an `Int`-backed `CodingKeys` enum keeps its `stringValue` (the case
    /// name), since that is the member name the coders use.
    public init(codingPath: [any CodingKey]) {
        self.init(tokens: codingPath.map(JSONPointer.token(for:)))
    }

    static func token(for key: any CodingKey) -> String {
        if let index = key.intValue, key.stringValue == "Index \(index)" { return String(index) }
        return key.stringValue
    }
}

extension DecodingError {
    /// The JSON Pointer of the value that failed to decode, from the error's coding path.
    ///
    /// For `keyNotFound` the pointer names the missing member itself (the container's path plus the
    /// key), while `codingPath` stays the container's path as Swift's convention says.
    /// An unknown future case yields the root pointer.
    public var jsonPointer: JSONPointer {
        switch self {
        case .keyNotFound(let key, let context):
            return JSONPointer(codingPath: context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return JSONPointer(codingPath: context.codingPath)
        @unknown default:
            return .root
        }
    }
}

extension EncodingError {
    /// The JSON Pointer of the value that failed to encode, from the error's coding path.
    /// An unknown future case yields the root pointer.
    public var jsonPointer: JSONPointer {
        switch self {
        case .invalidValue(_, let context):
            return JSONPointer(codingPath: context.codingPath)
        @unknown default:
            return .root
        }
    }
}

/// The coding key `ValueEncoder` / `ValueDecoder` make for array positions and `super` members.
struct ValueCodingKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key of array element `index` (0-based).
    init(index: Int) { self.init(intValue: index) }

    /// The key `superEncoder()` / `superDecoder()` use without an explicit key.
    static let `super` = ValueCodingKey(stringValue: "super")
}

/// Builds the messages of the errors the coders throw: `at /tastes/0/value: expected a number,
/// found string`.
enum ValueCodingMessage {
    /// `at /a/b: ` followed by `text`; the root is written `at the root: `.
    static func at(_ codingPath: [any CodingKey], _ text: String) -> String {
        let pointer = JSONPointer(codingPath: codingPath)
        let place = pointer.tokens.isEmpty ? "the root" : pointer.description
        return "at \(place): \(text)"
    }

    /// The number's text for a message: exact source text, an integer, or the ECMAScript form.
    static func numberText(_ value: Value) -> String {
        switch value {
        case .integer(let i): return String(i)
        case .double(let d): return NumberText.ecmaScript(d) ?? d.description
        case .number(let text): return text
        default: return value.kindName
        }
    }
}
