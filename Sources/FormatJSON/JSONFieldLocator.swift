#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Finds the line and column of a field inside one JSON record on demand, by rescanning a copy of
/// the record's own bytes (nothing position-related is kept per value while reading).
///
/// Object members are matched by their unescaped key (the first of duplicate keys wins, as
/// `ValueObject`'s subscript does); array tokens are 0-based decimal indices (RFC 6901).
public struct JSONFieldLocator: FieldLocating {
    /// The record's bytes, as they stood in the input (a well-formed JSON value, possibly with
    /// leading whitespace).
    public let bytes: [UInt8]
    /// The line and column of `bytes[0]`.
    public let start: TextPosition

    public init(bytes: [UInt8], start: TextPosition) {
        self.bytes = bytes
        self.start = start
    }

    /// The start's line when the record's bytes hold no line feed (every JSON Lines record).
    public var singleLine: Int? {
        let hasNewline = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            return memchr(base, Int32(JSONSyntax.newline), raw.count) != nil
        }
        return hasNewline ? nil : start.line
    }

    /// The position of the first byte of the value at `field` (relative to the record), or nil
    /// when the pointer does not resolve.
    public func position(of field: JSONPointer) -> TextPosition? {
        bytes.withUnsafeBufferPointer { p -> TextPosition? in
            guard let offset = Self.offset(of: field, in: p) else { return nil }
            return JSONSyntax.position(in: p, from: 0, at: start, to: offset)
        }
    }

    /// The offset of the first byte of the value at `pointer`, or nil.
    static func offset(of pointer: JSONPointer, in p: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = p.count
        var i = JSONSyntax.skipWhitespace(in: p, from: 0, to: end)
        for token in pointer.tokens {
            guard i < end else { return nil }
            if p[i] == JSONSyntax.openBrace {
                i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                var found = false
                while i < end, p[i] == JSONSyntax.quote {
                    var parser = JSONParser(bytes: p, range: i..<end, location: SourceLocation(), maximumDepth: .max)
                    guard let key = try? parser.parseString() else { return nil }
                    i = JSONSyntax.skipWhitespace(in: p, from: parser.index, to: end)
                    guard i < end, p[i] == JSONSyntax.colon else { return nil }
                    i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                    if key == token {
                        found = true
                        break
                    }
                    i = JSONSyntax.skipWhitespace(in: p, from: JSONSyntax.skipValue(in: p, from: i), to: end)
                    guard i < end, p[i] == JSONSyntax.comma else { return nil }
                    i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                }
                if !found { return nil }
            } else if p[i] == JSONSyntax.openBracket {
                guard let index = Int(token), index >= 0, token.utf8.allSatisfy(JSONSyntax.isDigit) else { return nil }
                i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                guard i < end, p[i] != JSONSyntax.closeBracket else { return nil }
                var n = 0
                while n < index {
                    i = JSONSyntax.skipWhitespace(in: p, from: JSONSyntax.skipValue(in: p, from: i), to: end)
                    guard i < end, p[i] == JSONSyntax.comma else { return nil }
                    i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                    n += 1
                }
            } else {
                return nil
            }
        }
        return i < end ? i : nil
    }
}
