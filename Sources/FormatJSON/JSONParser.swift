import FerryCore

/// An iterative RFC 8259 parser over bytes in memory, producing `Value`.
///
/// - Numbers become `.number(text)` with their exact source text, checked against the grammar of
///   RFC 8259 section 6 and never converted.
/// - Strings are unescaped (section 7); a `\uD800`-`\uDBFF` escape must be followed by a
///   `\uDC00`-`\uDFFF` one (they combine), any other surrogate escape is an error; raw bytes must
///   be well-formed UTF-8 (section 8.1), else `invalid-encoding`.
/// - Objects keep member order and duplicate keys.
/// - Containers live on an explicit stack, so nesting costs heap, not call stack; nesting deeper
///   than `maximumDepth` (counted from the document root, `initialDepth` levels already open)
///   throws `too-deep`.
///
/// Positions are not tracked while parsing: an error's line and column are computed from
/// `basePosition` (the position of `bytes[baseOffset]`) only when it is thrown.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var index: Int
    let end: Int
    let baseOffset: Int
    private let basePosition: TextPosition
    let location: SourceLocation
    private let maximumDepth: Int
    private let initialDepth: Int
    /// False when more input may follow `end` (a streaming reader's buffer): reaching the end
    /// then throws `JSONNeedsMoreInput` instead of a syntax error, and the caller reads more and
    /// parses again.
    let isFinal: Bool
    /// Unescaped string bytes, reused across strings.
    var scratch: [UInt8] = []
    /// The open containers and their members so far, reused across values (and across parsers
    /// when the caller passes one in).
    private let stacks: JSONParseStacks
    /// True when a top-level object's `$collection` string member is taken out into `collection`.
    private let takesCollection: Bool
    /// The `$collection` taken out of the top-level object (`takesCollection`).
    private(set) var collection: String?

    /// - Parameters:
    ///   - bytes: the buffer; only `range` is read.
    ///   - basePosition: the line and column of `bytes[range.lowerBound]`.
    ///   - location: file and member for errors (line and column are filled in).
    ///   - initialDepth: containers already open around this value (a record inside an envelope).
    ///   - isFinal: false when more bytes may follow `range`.
    ///   - takesCollection: take a top-level object's `$collection` string member out into
    ///     `collection` (JSON Lines records); the member then goes, unless the object names
    ///     `$collection` more than once: all of them then stay, for the record's reader to report.
    init(
        bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, basePosition: TextPosition = TextPosition(line: 1, column: 1),
        location: SourceLocation, maximumDepth: Int, initialDepth: Int = 0, isFinal: Bool = true,
        stacks: JSONParseStacks? = nil, takesCollection: Bool = false
    ) {
        let stacks = stacks ?? JSONParseStacks()
        self.stacks = stacks
        self.takesCollection = takesCollection
        self.bytes = bytes
        self.index = range.lowerBound
        self.end = range.upperBound
        self.baseOffset = range.lowerBound
        self.basePosition = basePosition
        self.location = location
        self.maximumDepth = maximumDepth
        self.initialDepth = initialDepth
        self.isFinal = isFinal
    }

    // MARK: - Errors

    /// The position of `offset` (which may be `end`, one past the last byte).
    func position(at offset: Int) -> TextPosition {
        JSONSyntax.position(in: bytes, from: baseOffset, at: basePosition, to: offset)
    }

    func error(_ code: Diagnostic.Code, _ message: String, at offset: Int) -> FerryError {
        var at = location
        at.position = position(at: offset)
        return FerryError(code, message, at: at)
    }

    func unexpectedEnd(_ expectation: String) -> any Error {
        if !isFinal { return JSONNeedsMoreInput() }
        return error(.malformedJSON, "unexpected end of input, \(expectation)", at: end)
    }

    /// An error for the byte at `offset`, which the grammar does not allow there.
    func unexpectedError(_ expectation: String, at offset: Int) -> any Error {
        guard offset < end else { return unexpectedEnd(expectation) }
        let byte = bytes[offset]
        if byte >= 0x80, !isFinal, offset + 4 > end { return JSONNeedsMoreInput() }
        if byte >= 0x80, JSONSyntax.firstInvalidUTF8(in: bytes, offset..<min(offset + 4, end)) == offset {
            return error(.invalidEncoding, "invalid UTF-8 byte 0x\(hex(byte, width: 2))", at: offset)
        }
        return error(.malformedJSON, "\(expectation), found \(describe(at: offset))", at: offset)
    }

    func describe(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21 && byte <= 0x7E { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "U+\(hex(byte, width: 4))" }
        var length = 1
        while offset + length < end, length < 4, bytes[offset + length] & 0xC0 == 0x80 { length += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        return "'\(text)'"
    }

    func hex<T: BinaryInteger>(_ value: T, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: - Documents

    /// Parses a whole document: optional whitespace, one value, optional whitespace, the end.
    mutating func parseDocument() throws -> Value {
        let value = try parseValue()
        try expectEnd()
        return value
    }

    /// Skips whitespace and requires the end of the input.
    mutating func expectEnd() throws {
        skipWhitespace()
        if index < end {
            throw error(.malformedJSON, "unexpected \(describe(at: index)) after the top-level value", at: index)
        }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < end, JSONSyntax.isWhitespace(bytes[index]) { index += 1 }
    }

    // MARK: - Values

    /// Parses one value (leading whitespace skipped) and leaves `index` just past it.
    ///
    /// The members of open containers pile up on shared stacks; a container that closes moves
    /// its own off them into an array of exactly its size (one allocation, no regrowth).
    mutating func parseValue() throws -> Value {
        // The stacks are worked on in locals (plain pointers) and handed back at the end.
        let shared = self.stacks
        var frames = shared.frames
        var members = shared.members
        var elements = shared.elements
        let frameBase = frames.count
        let memberBase = members.count
        let elementBase = elements.count
        defer {
            // After an error: drop what this parse left on the stacks.
            frames.drop(from: frameBase)
            members.drop(from: memberBase)
            elements.drop(from: elementBase)
            shared.frames = frames
            shared.members = members
            shared.elements = elements
        }
        var depth = 0
        var value: Value
        parsing: while true {
            skipWhitespace()
            guard index < end else {
                throw unexpectedEnd(depth == 0 ? "expected a JSON value" : "expected a value")
            }
            let byte = bytes[index]
            switch byte {
            case JSONSyntax.openBrace:
                try checkDepth(depth + 1)
                index += 1
                skipWhitespace()
                if index < end, bytes[index] == JSONSyntax.closeBrace {
                    index += 1
                    value = .object(ValueObject())
                } else {
                    frames.push(JSONParseStacks.Frame(isObject: true, start: members.count))
                    // Each member goes on the stack with its key; its value follows.
                    members.push((key: try parseMemberKey(afterComma: false), value: .null))
                    depth += 1
                    continue parsing
                }
            case JSONSyntax.openBracket:
                try checkDepth(depth + 1)
                index += 1
                skipWhitespace()
                if index < end, bytes[index] == JSONSyntax.closeBracket {
                    index += 1
                    value = .array([])
                } else {
                    frames.push(JSONParseStacks.Frame(isObject: false, start: elements.count))
                    depth += 1
                    continue parsing
                }
            case JSONSyntax.quote:
                value = .string(try parseString())
            case JSONSyntax.minus, JSONSyntax.zero...JSONSyntax.nine:
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try parseLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try parseLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try parseLiteral("null")
                value = .null
            default:
                throw unexpectedError("expected a value", at: index)
            }

            // A value is complete: hand it to its container, closing containers as they end.
            while true {
                guard depth > 0, let frame = frames.top?.pointee else { return value }
                if frame.isObject {
                    members.top?.pointee.value = value
                    skipWhitespace()
                    guard index < end else { throw unexpectedEnd("expected ',' or '}' after object member") }
                    let next = bytes[index]
                    if next == JSONSyntax.comma {
                        index += 1
                        skipWhitespace()
                        members.push((key: try parseMemberKey(afterComma: true), value: .null))
                        continue parsing
                    }
                    guard next == JSONSyntax.closeBrace else {
                        throw unexpectedError("expected ',' or '}' after object member", at: index)
                    }
                    index += 1
                    frames.drop(from: frames.count - 1)
                    depth -= 1
                    if depth == 0, takesCollection {
                        value = .object(ValueObject(takeTopLevelMembers(&members, from: frame.start)))
                    } else {
                        value = .object(ValueObject(members.popArray(from: frame.start)))
                    }
                } else {
                    elements.push(value)
                    skipWhitespace()
                    guard index < end else { throw unexpectedEnd("expected ',' or ']' after array element") }
                    let next = bytes[index]
                    if next == JSONSyntax.comma {
                        index += 1
                        skipWhitespace()
                        if index < end, bytes[index] == JSONSyntax.closeBracket {
                            throw error(.malformedJSON, "trailing comma before ']'", at: index)
                        }
                        continue parsing
                    }
                    guard next == JSONSyntax.closeBracket else {
                        throw unexpectedError("expected ',' or ']' after array element", at: index)
                    }
                    index += 1
                    frames.drop(from: frames.count - 1)
                    value = .array(elements.popArray(from: frame.start))
                    depth -= 1
                }
            }
        }
    }

    /// The members of the top-level object, without `$collection` when its only `$collection`
    /// member is a string, which then becomes `collection` (what `JSONLinesReader` does with a
    /// record's collection, done here so the members are not copied a second time). A first one
    /// that is a string names the collection even when others follow; those members all stay
    /// then, so that the second is reported as a member given twice, as any other key is.
    private mutating func takeTopLevelMembers(
        _ members: inout UnsafeStack<ValueObject.Member>, from start: Int
    ) -> [ValueObject.Member] {
        guard let base = members.base else { return [] }
        var found: String?
        var matches = 0
        for i in start..<members.count where Self.isCollectionKey(base[i].key) {
            if matches == 0 {
                guard case .string(let name) = base[i].value else { break }
                found = name
            }
            matches += 1
        }
        guard let found else { return members.popArray(from: start) }
        collection = found
        guard matches == 1 else { return members.popArray(from: start) }
        // Drop the `$collection` member, keeping the others in order.
        var kept = start
        for i in start..<members.count {
            if Self.isCollectionKey(base[i].key) {
                (base + i).deinitialize(count: 1)
            } else {
                if kept != i { (base + kept).moveInitialize(from: base + i, count: 1) }
                kept += 1
            }
        }
        let removed = members.count - kept
        members.forget(removed)
        return members.popArray(from: start)
    }

    @inline(__always)
    private static func isCollectionKey(_ key: String) -> Bool {
        key.utf8.count == 11 && key == "$collection"
    }

    private func checkDepth(_ depth: Int) throws {
        if initialDepth + depth > maximumDepth {
            throw error(.tooDeep, "nesting deeper than \(maximumDepth) levels (the documented limit)", at: index)
        }
    }

    /// Parses `"key" :` (whitespace around the colon) with `index` at the key's first byte.
    private mutating func parseMemberKey(afterComma: Bool) throws -> String {
        guard index < end else { throw unexpectedEnd(afterComma ? "expected a string key" : "expected a string key or '}'") }
        let byte = bytes[index]
        guard byte == JSONSyntax.quote else {
            if afterComma, byte == JSONSyntax.closeBrace {
                throw error(.malformedJSON, "trailing comma before '}'", at: index)
            }
            throw unexpectedError(afterComma ? "expected a string key" : "expected a string key or '}'", at: index)
        }
        let key = try parseString()
        skipWhitespace()
        guard index < end else { throw unexpectedEnd("expected ':' after object key") }
        guard bytes[index] == JSONSyntax.colon else { throw unexpectedError("expected ':' after object key", at: index) }
        index += 1
        return key
    }

    private mutating func parseLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        let start = index
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        var i = 0
        while i < count {
            if start + i >= end, !isFinal { throw JSONNeedsMoreInput() }
            guard start + i < end, bytes[start + i] == text[i] else {
                throw error(.malformedJSON, "invalid literal: expected true, false or null", at: start)
            }
            i += 1
        }
        index = start + count
    }

    // MARK: - Numbers

    /// `number = [ minus ] int [ frac ] [ exp ]` (RFC 8259 section 6), returned as its text.
    mutating func parseNumber() throws -> String {
        let start = index
        if bytes[index] == JSONSyntax.minus { index += 1 }
        guard index < end else { throw unexpectedEnd("expected a digit after '-'") }
        guard JSONSyntax.isDigit(bytes[index]) else { throw unexpectedError("expected a digit after '-'", at: index) }
        if bytes[index] == JSONSyntax.zero {
            index += 1
            if index < end, JSONSyntax.isDigit(bytes[index]) {
                throw error(.malformedJSON, "a number cannot have leading zeros", at: start)
            }
        } else {
            while index < end, JSONSyntax.isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == JSONSyntax.dot {
            index += 1
            guard index < end else { throw unexpectedEnd("expected a digit after the decimal point") }
            guard JSONSyntax.isDigit(bytes[index]) else {
                throw unexpectedError("expected a digit after the decimal point", at: index)
            }
            while index < end, JSONSyntax.isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end, bytes[index] == JSONSyntax.plus || bytes[index] == JSONSyntax.minus { index += 1 }
            guard index < end else { throw unexpectedEnd("expected a digit in the exponent") }
            guard JSONSyntax.isDigit(bytes[index]) else { throw unexpectedError("expected a digit in the exponent", at: index) }
            while index < end, JSONSyntax.isDigit(bytes[index]) { index += 1 }
        }
        // A number running into the end of a buffer may go on in the next bytes.
        if index == end, !isFinal { throw JSONNeedsMoreInput() }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}


/// Thrown by a parser that is not final when it reaches the end of its bytes: the caller reads
/// more input and parses the value again from its start.
struct JSONNeedsMoreInput: Error {}

extension String {
    /// The text without the single quotes `describe(at:)` puts around a character.
    var trimmingQuotes: String {
        guard count >= 2, first == "'", last == "'" else { return self }
        return String(dropFirst().dropLast())
    }
}
