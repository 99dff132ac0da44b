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
    /// The bytes holding the record, as they stood in the input: the record's own (a well-formed
    /// JSON value, possibly with leading whitespace) or a whole batch's, of which `window` is the
    /// record's.
    public let bytes: [UInt8]
    /// The line and column of the window's first byte (`bytes[0]` unless this locator is one of
    /// `childLocators(of:)`).
    public let start: TextPosition
    /// The value's bytes inside `bytes`: all of them, or one member's or element's (a child
    /// locator shares its parent's bytes instead of copying them).
    private let window: Range<Int>

    public init(bytes: [UInt8], start: TextPosition) {
        self.init(bytes: bytes, window: bytes.indices, start: start)
    }

    init(bytes: [UInt8], window: Range<Int>, start: TextPosition) {
        self.bytes = bytes
        self.window = window
        self.start = start
    }

    /// The start's line when the record's bytes hold no line feed (every JSON Lines record).
    public var singleLine: Int? {
        let hasNewline = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            return memchr(base + window.lowerBound, Int32(JSONSyntax.newline), window.count) != nil
        }
        return hasNewline ? nil : start.line
    }

    /// The position of the first byte of the value at `field` (relative to the record), or nil
    /// when the pointer does not resolve.
    public func position(of field: JSONPointer) -> TextPosition? {
        bytes.withUnsafeBufferPointer { all -> TextPosition? in
            let p = UnsafeBufferPointer(rebasing: all[window])
            guard let offset = Self.offset(of: field, in: p) else { return nil }
            return JSONSyntax.position(in: p, from: 0, at: start, to: offset)
        }
    }

    /// Locators of the members (keyed by member key; the first of duplicate keys, as
    /// `position(of:)` finds) or elements (keyed by 0-based decimal index) of the object or array
    /// at `field`, found in one pass over it; each is a window on these same bytes. Nil when
    /// `field` does not resolve to an object or an array.
    public func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? {
        guard let children = childLocatorsInOrder(of: field) else { return nil }
        var result: [String: any FieldLocating] = [:]
        result.reserveCapacity(children.count)
        for child in children where result[child.token] == nil { result[child.token] = child.locator }
        return result
    }

    /// Locators of every member (a repeated key's each occurrence, its own) or element of the
    /// object or array at `field`, in their order, found in one pass over it; each is a window on
    /// these same bytes. Nil when `field` does not resolve to an object or an array.
    public func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? {
        bytes.withUnsafeBufferPointer { all -> [(token: String, locator: any FieldLocating)]? in
            let p = UnsafeBufferPointer(rebasing: all[window])
            guard let offset = Self.offset(of: field, in: p), let children = Self.children(in: p, at: offset) else {
                return nil
            }
            var result: [(token: String, locator: any FieldLocating)] = []
            result.reserveCapacity(children.count)
            // Each child's line and column counted on from the previous child's: one pass in all.
            var mark = 0
            var position = start
            for child in children {
                position = JSONSyntax.position(in: p, from: mark, at: position, to: child.range.lowerBound)
                mark = child.range.lowerBound
                let window = (window.lowerBound + child.range.lowerBound)..<(window.lowerBound + child.range.upperBound)
                result.append((child.token, JSONFieldLocator(bytes: bytes, window: window, start: position)))
            }
            return result
        }
    }

    /// For an ASCII key at `start` (its opening quote) holding no backslash, and an ASCII `token`
    /// (the caller checks): the offset past its closing quote and whether its bytes are `token`'s;
    /// nil for a key with an escape (the parser unescapes it), with non-ASCII text (String
    /// equality is canonical equivalence, not bytes), or one that does not close.
    private static func plainKey(in p: UnsafeBufferPointer<UInt8>, at start: Int, equals token: inout String)
        -> (end: Int, equal: Bool)?
    {
        var i = start + 1
        while i < p.count, p[i] != JSONSyntax.quote {
            if p[i] == JSONSyntax.backslash || p[i] >= 0x80 { return nil }
            i += 1
        }
        guard i < p.count else { return nil }
        let key = UnsafeBufferPointer(rebasing: p[(start + 1)..<i])
        let equal = token.withUTF8 { own in
            own.count == key.count && (key.isEmpty || memcmp(own.baseAddress!, key.baseAddress!, key.count) == 0)
        }
        return (i + 1, equal)
    }

    /// For a key at `start` (its opening quote) of printable ASCII with no backslash: the offset
    /// past its closing quote; nil otherwise (the parser reads it) or when it does not close.
    private static func plainKeyEnd(in p: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard start < p.count, p[start] == JSONSyntax.quote else { return nil }
        var i = start + 1
        while i < p.count, p[i] != JSONSyntax.quote {
            if p[i] == JSONSyntax.backslash || p[i] >= 0x80 || p[i] < 0x20 { return nil }
            i += 1
        }
        return i < p.count ? i + 1 : nil
    }

    /// The tokens and byte ranges of the members or elements of the object or array starting at
    /// `start`, in their order; nil for any other value.
    static func children(in p: UnsafeBufferPointer<UInt8>, at start: Int) -> [(token: String, range: Range<Int>)]? {
        let end = p.count
        guard start < end else { return nil }
        let isObject = p[start] == JSONSyntax.openBrace
        guard isObject || p[start] == JSONSyntax.openBracket else { return nil }
        var result: [(token: String, range: Range<Int>)] = []
        var i = JSONSyntax.skipWhitespace(in: p, from: start + 1, to: end)
        while i < end, p[i] != JSONSyntax.closeBrace, p[i] != JSONSyntax.closeBracket {
            let token: String
            if isObject {
                let keyEnd: Int
                if let plain = plainKeyEnd(in: p, at: i) {
                    // No escape and ASCII only: the key's text is its bytes (a word book's
                    // thousand document ids, each its own String).
                    token = String(decoding: UnsafeBufferPointer(rebasing: p[(i + 1)..<(plain - 1)]), as: UTF8.self)
                    keyEnd = plain
                } else {
                    var parser = JSONParser(bytes: p, range: i..<end, location: SourceLocation(), maximumDepth: .max)
                    guard let key = try? parser.parseString() else { return nil }
                    token = key
                    keyEnd = parser.index
                }
                i = JSONSyntax.skipWhitespace(in: p, from: keyEnd, to: end)
                guard i < end, p[i] == JSONSyntax.colon else { return nil }
                i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
            } else {
                token = String(result.count)
            }
            let valueEnd = JSONSyntax.skipValue(in: p, from: i)
            result.append((token, i..<valueEnd))
            i = JSONSyntax.skipWhitespace(in: p, from: valueEnd, to: end)
            guard i < end, p[i] == JSONSyntax.comma else { break }
            i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
        }
        return result
    }

    /// The line of the `id` member's value of the object `element` (a JSON document's element,
    /// whose first byte stands at `start`), as a locator over it finds `/id`: the start's line
    /// when the element holds no line feed, else the line of the value, else the start's line
    /// (no `id` member).
    public static func idLine(in element: UnsafeBufferPointer<UInt8>, start: TextPosition) -> Int {
        guard let base = element.baseAddress, memchr(base, Int32(JSONSyntax.newline), element.count) != nil,
              let offset = firstMemberIsID(element) ?? offset(of: idPointer, in: element)
        else { return start.line }
        var line = start.line
        var i = 0
        while i < offset, let found = memchr(base + i, Int32(JSONSyntax.newline), offset - i) {
            line += 1
            i = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        }
        return line
    }

    private static let idPointer = JSONPointer(tokens: ["id"])

    /// The offset of the value of an object whose first member is `"id"` (as Ferry and most
    /// writers put it), found with a few byte compares; nil otherwise (`offset(of:in:)` looks).
    @inline(__always)
    private static func firstMemberIsID(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = p.count
        var i = JSONSyntax.skipWhitespace(in: p, from: 0, to: end)
        guard i < end, p[i] == JSONSyntax.openBrace else { return nil }
        i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
        guard end - i >= 4, p[i] == JSONSyntax.quote, p[i + 1] == UInt8(ascii: "i"), p[i + 2] == UInt8(ascii: "d"),
              p[i + 3] == JSONSyntax.quote
        else { return nil }
        i = JSONSyntax.skipWhitespace(in: p, from: i + 4, to: end)
        guard i < end, p[i] == JSONSyntax.colon else { return nil }
        i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
        return i < end ? i : nil
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
                var tokenBytes = token
                let asciiToken = token.utf8.allSatisfy { $0 < 0x80 }
                while i < end, p[i] == JSONSyntax.quote {
                    let matches: Bool
                    if asciiToken, let (keyEnd, equal) = plainKey(in: p, at: i, equals: &tokenBytes) {
                        // No escape in the key: compared byte for byte, no String made.
                        matches = equal
                        i = keyEnd
                    } else {
                        var parser = JSONParser(bytes: p, range: i..<end, location: SourceLocation(), maximumDepth: .max)
                        guard let key = try? parser.parseString() else { return nil }
                        matches = key == token
                        i = parser.index
                    }
                    i = JSONSyntax.skipWhitespace(in: p, from: i, to: end)
                    guard i < end, p[i] == JSONSyntax.colon else { return nil }
                    i = JSONSyntax.skipWhitespace(in: p, from: i + 1, to: end)
                    if matches {
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
