import FerryCore

/// Appends JSON text for `Value`s to one reusable byte buffer.
///
/// The pretty form is exactly JavaScript's `JSON.stringify(value, null, 2)`: members and elements
/// on their own lines indented by 2 spaces a level, `"key": value`, `[]` and `{}` for empty
/// containers. The compact form has no whitespace at all. Strings are raw UTF-8 with only `"`,
/// `\` and control characters escaped (`\b \f \n \r \t`, others `\u00xx` in lower-case hex),
/// `/` not escaped (SCHEMAS.md "Formats: JSON document"). Numbers: `.integer` as decimal digits,
/// `.double` in the ECMAScript form (`NumberText.ecmaScript`), `.number` text verbatim.
struct JSONSerializer: ~Copyable {
    /// The text so far.
    var bytes: ByteBuffer
    /// Indent (true) or compact (false).
    let pretty: Bool
    /// The deepest nesting written; deeper values throw `too-deep` rather than risk the stack.
    let maximumDepth: Int

    init(pretty: Bool, maximumDepth: Int = 512, capacity: Int = 64 * 1024) {
        self.pretty = pretty
        self.maximumDepth = maximumDepth
        self.bytes = ByteBuffer(capacity: capacity)
    }

    /// Appends a line break and `level` indents (pretty only).
    @inline(__always)
    mutating func appendNewline(indent level: Int) {
        guard pretty else { return }
        bytes.reserve(1 + 2 * level)
        bytes.appendReserved(JSONSyntax.newline)
        for _ in 0..<(2 * level) { bytes.appendReserved(JSONSyntax.space) }
    }

    /// Appends ASCII text as it is.
    @inline(__always)
    mutating func appendASCII(_ text: StaticString) {
        bytes.append(text)
    }

    /// Appends `"key": ` (pretty) or `"key":` (compact).
    mutating func appendKey(_ key: String) {
        appendString(key)
        bytes.append(JSONSyntax.colon)
        if pretty { bytes.append(JSONSyntax.space) }
    }

    /// Appends `value`, whose first line is already indented at `level`.
    /// - Throws: `FerryError(.invalidValue)` for NaN and infinities; `FerryError(.tooDeep)` past
    ///   `maximumDepth`.
    mutating func appendValue(_ value: Value, indent level: Int = 0) throws {
        try appendValue(value, indent: level, depth: 0)
    }

    private mutating func appendValue(_ value: Value, indent level: Int, depth: Int) throws {
        switch value {
        case .null:
            appendASCII("null")
        case .bool(let flag):
            if flag { appendASCII("true") } else { appendASCII("false") }
        case .integer(let integer):
            appendInteger(integer)
        case .double(let double):
            try appendDouble(double)
        case .number(let text):
            appendRaw(text)
        case .string(let text):
            appendString(text)
        case .array(let elements):
            guard !elements.isEmpty else {
                appendASCII("[]")
                return
            }
            try checkDepth(depth + 1)
            bytes.append(JSONSyntax.openBracket)
            try elements.withUnsafeBufferPointer { elements in
                for index in elements.indices {
                    if index > 0 { bytes.append(JSONSyntax.comma) }
                    appendNewline(indent: level + 1)
                    try appendValue(elements[index], indent: level + 1, depth: depth + 1)
                }
            }
            appendNewline(indent: level)
            bytes.append(JSONSyntax.closeBracket)
        case .object(let object):
            guard !object.isEmpty else {
                appendASCII("{}")
                return
            }
            try checkDepth(depth + 1)
            bytes.append(JSONSyntax.openBrace)
            try object.members.withUnsafeBufferPointer { members in
                for index in members.indices {
                    if index > 0 { bytes.append(JSONSyntax.comma) }
                    appendNewline(indent: level + 1)
                    appendKey(members[index].key)
                    try appendValue(members[index].value, indent: level + 1, depth: depth + 1)
                }
            }
            appendNewline(indent: level)
            bytes.append(JSONSyntax.closeBrace)
        }
    }

    private func checkDepth(_ depth: Int) throws {
        if depth > maximumDepth {
            throw FerryError(.tooDeep, "a value nested deeper than \(maximumDepth) levels cannot be written")
        }
    }

    /// Appends a double in the ECMAScript form, without building a `String` for whole numbers.
    /// The cases follow `NumberText.ecmaScript`, which does the rare exponent forms.
    private mutating func appendDouble(_ double: Double) throws {
        guard double.isFinite else {
            throw FerryError(
                .invalidValue, "\(double) has no JSON form: NaN and infinities cannot be written (RFC 8259 section 6)")
        }
        if double == 0 {
            bytes.append(JSONSyntax.zero)
        } else if let exact = Int64(exactly: double), exact.magnitude < 1_000_000_000_000_000 {
            appendInteger(exact)
        } else {
            let description = double.description
            // Swift writes 1e-4 <= |value| < 2^53 without an exponent, in the ECMAScript form.
            if !description.utf8.contains(UInt8(ascii: "e")) {
                appendRaw(description)
            } else if let text = NumberText.ecmaScript(double) {
                appendRaw(text)
            }
        }
    }

    /// Appends the decimal digits of an integer.
    mutating func appendInteger(_ value: Int64) {
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.reserve(2)
            if value < 0 { bytes.appendReserved(JSONSyntax.minus) }
            bytes.appendReserved(JSONSyntax.zero &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits without allocating
        withUnsafeMutableBytes(of: &digits) { raw in
            // Digits are written backwards from the end of `raw`, then copied in one piece.
            var first = raw.count
            while magnitude > 0 {
                first -= 1
                raw[first] = JSONSyntax.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            bytes.reserve(raw.count - first + 1)
            if value < 0 { bytes.appendReserved(JSONSyntax.minus) }
            if let base = raw.baseAddress {
                bytes.appendReserved(base.assumingMemoryBound(to: UInt8.self) + first, count: raw.count - first)
            }
        }
    }

    /// Appends text that needs no escaping (number text) as it is.
    mutating func appendRaw(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append($0) }) == nil {
            bytes.append(Array(text.utf8))
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends a string in quotes, escaping only `"`, `\` and control characters.
    mutating func appendString(_ text: String) {
        // Native strings (and small ones) hand out their UTF-8 without a copy of the string.
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var copy = text
            copy.withUTF8 { appendQuoted($0) }
        }
    }

    /// Appends UTF-8 text in quotes, escaping only `"`, `\` and control characters.
    mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        guard let start = utf8.baseAddress, count > 0 else {
            bytes.reserve(2)
            bytes.appendReserved(JSONSyntax.quote)
            bytes.appendReserved(JSONSyntax.quote)
            return
        }
        // The usual string has nothing to escape: find that out eight bytes at a time, then copy
        // it in one piece.
        var i = 0
        while i + 8 <= count, !JSONSyntax.hasStringSpecial(UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)) {
            i += 8
        }
        // Fewer than eight bytes left and none special so far: check them as the word ending the
        // string when it has one (its first bytes were checked already), else one by one.
        if i < count, i + 8 > count, count >= 8,
           !JSONSyntax.hasStringSpecial(UnsafeRawPointer(start + (count - 8)).loadUnaligned(as: UInt64.self))
        {
            i = count
        }
        while i < count, !Self.needsEscape(start[i]) { i += 1 }
        bytes.reserve(i + 2)
        bytes.appendReserved(JSONSyntax.quote)
        bytes.appendReserved(start, count: i)
        if i < count { appendEscaping(start, from: i, count: count) }
        bytes.append(JSONSyntax.quote)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == JSONSyntax.quote || byte == JSONSyntax.backslash
    }

    /// Appends `start[from..<count]`, escaping what needs it (the rare part of a string).
    private mutating func appendEscaping(_ start: UnsafePointer<UInt8>, from: Int, count: Int) {
        var i = from
        var runStart = from
        while i < count {
            let byte = start[i]
            guard Self.needsEscape(byte) else {
                i += 1
                continue
            }
            bytes.append(UnsafeBufferPointer(start: start + runStart, count: i - runStart))
            bytes.reserve(6)
            bytes.appendReserved(JSONSyntax.backslash)
            switch byte {
            case JSONSyntax.quote: bytes.appendReserved(JSONSyntax.quote)
            case JSONSyntax.backslash: bytes.appendReserved(JSONSyntax.backslash)
            case 0x08: bytes.appendReserved(UInt8(ascii: "b"))
            case 0x0C: bytes.appendReserved(UInt8(ascii: "f"))
            case 0x0A: bytes.appendReserved(UInt8(ascii: "n"))
            case 0x0D: bytes.appendReserved(UInt8(ascii: "r"))
            case 0x09: bytes.appendReserved(UInt8(ascii: "t"))
            default:
                let hex = Self.hexDigits.utf8Start
                bytes.appendReserved(UInt8(ascii: "u"))
                bytes.appendReserved(JSONSyntax.zero)
                bytes.appendReserved(JSONSyntax.zero)
                bytes.appendReserved(hex[Int(byte >> 4)])
                bytes.appendReserved(hex[Int(byte & 0x0F)])
            }
            i += 1
            runStart = i
        }
        bytes.append(UnsafeBufferPointer(start: start + runStart, count: count - runStart))
    }
}
