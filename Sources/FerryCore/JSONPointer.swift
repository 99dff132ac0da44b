import Foundation

/// A JSON Pointer (RFC 6901): the path of a value inside a document, such as
/// `/wineTastingNotes/3/tastes/0/value`. Array indices are 0-based.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The unescaped reference tokens, outermost first.
    public var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the string form: `""` or `/a/b~1c/0` (`~1` is `/`, `~0` is `~`, RFC 6901 section 4).
    /// Text that does not start with `/` is read as a single token.
    public init(_ text: String) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        guard text.hasPrefix("/") else {
            self.tokens = [text]
            return
        }
        let parts = text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard text.utf8.contains(UInt8(ascii: "~")) else {
            // No escapes (the usual case): the parts are the tokens.
            self.tokens = parts.map { String(Substring($0)) }
            return
        }
        self.tokens = parts.map {
            String(Substring($0)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The string form, escaped as RFC 6901 section 3 says.
    public var description: String {
        var out = ""
        for token in tokens {
            out += "/"
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                out += token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            } else {
                out += token
            }
        }
        return out
    }

    /// This pointer with one more token.
    public func appending(_ token: String) -> JSONPointer {
        var result = tokens
        result.append(token)
        return JSONPointer(tokens: result)
    }

    /// This pointer with one more array index.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// This pointer followed by all of `other`'s tokens.
    public func appending(_ other: JSONPointer) -> JSONPointer {
        if other.tokens.isEmpty { return self }
        if tokens.isEmpty { return other }
        var result = tokens
        result.append(contentsOf: other.tokens)
        return JSONPointer(tokens: result)
    }

    /// The last token, if any (the field or index name).
    public var last: String? { tokens.last }

    /// Dotted form with 1-based list indices, as CSV headers name fields (Miller's flattening):
    /// `/tastes/0/value` is `tastes.1.value`.
    public var flattenedName: String {
        tokens.map { token in Int(token).map { String($0 + 1) } ?? token }.joined(separator: ".")
    }

    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.description < rhs.description }
}

extension JSONPointer {
    /// `pointer / "field"` appends a token.
    public static func / (lhs: JSONPointer, rhs: String) -> JSONPointer { lhs.appending(rhs) }
    /// `pointer / 3` appends an index.
    public static func / (lhs: JSONPointer, rhs: Int) -> JSONPointer { lhs.appending(rhs) }
}
