import FerryCore

/// Appends JSON text for `Value`s to one reusable byte buffer.
///
/// The pretty form is exactly JavaScript's `JSON.stringify(value, null, 2)`: members and elements
/// on their own lines indented by 2 spaces a level, `"key": value`, `[]` and `{}` for empty
/// containers. The compact form has no whitespace at all. Strings are raw UTF-8 with only `"`,
/// `\` and control characters escaped (`\b \f \n \r \t`, others `\u00xx` in lower-case hex),
/// `/` not escaped (SCHEMAS.md "Formats: JSON document"). Numbers: `.integer` as decimal digits,
/// `.double` in the ECMAScript form (`NumberText.ecmaScript`), `.number` text verbatim.
struct JSONSerializer {
    /// The text so far.
    var bytes: [UInt8] = []
    /// Indent (true) or compact (false).
    let pretty: Bool
    /// The deepest nesting written; deeper values throw `too-deep` rather than risk the stack.
    let maximumDepth: Int

    init(pretty: Bool, maximumDepth: Int = 512, capacity: Int = 64 * 1024) {
        self.pretty = pretty
        self.maximumDepth = maximumDepth
        bytes.reserveCapacity(capacity)
    }

    /// Appends a line break and `level` indents (pretty only).
    @inline(__always)
    mutating func appendNewline(indent level: Int) {
        guard pretty else { return }
        bytes.append(JSONSyntax.newline)
        for _ in 0..<level {
            bytes.append(JSONSyntax.space)
            bytes.append(JSONSyntax.space)
        }
    }

    /// Appends ASCII text as it is.
    @inline(__always)
    mutating func appendASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
            guard let text = NumberText.ecmaScript(double) else {
                throw FerryError(
                    .invalidValue, "\(double) has no JSON form: NaN and infinities cannot be written (RFC 8259 section 6)")
            }
            bytes.append(contentsOf: text.utf8)
        case .number(let text):
            bytes.append(contentsOf: text.utf8)
        case .string(let text):
            appendString(text)
        case .array(let elements):
            guard !elements.isEmpty else {
                appendASCII("[]")
                return
            }
            try checkDepth(depth + 1)
            bytes.append(JSONSyntax.openBracket)
            var first = true
            for element in elements {
                if !first { bytes.append(JSONSyntax.comma) }
                first = false
                appendNewline(indent: level + 1)
                try appendValue(element, indent: level + 1, depth: depth + 1)
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
            var first = true
            for member in object.members {
                if !first { bytes.append(JSONSyntax.comma) }
                first = false
                appendNewline(indent: level + 1)
                appendKey(member.key)
                try appendValue(member.value, indent: level + 1, depth: depth + 1)
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

    /// Appends the decimal digits of an integer.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(JSONSyntax.minus) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            bytes.append(JSONSyntax.zero + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits without allocating
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                raw[count] = JSONSyntax.zero + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            var i = count - 1
            while i >= 0 {
                bytes.append(raw[i])
                i -= 1
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends a string in quotes, escaping only `"`, `\` and control characters.
    mutating func appendString(_ text: String) {
        bytes.append(JSONSyntax.quote)
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var i = 0
            let count = utf8.count
            while i < count {
                // Eight bytes at a time while none needs escaping.
                if i + 8 <= count, let base = utf8.baseAddress,
                   !JSONSyntax.hasStringSpecial(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                {
                    i += 8
                    continue
                }
                let byte = utf8[i]
                if byte >= 0x20 && byte != JSONSyntax.quote && byte != JSONSyntax.backslash {
                    i += 1
                    continue
                }
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                bytes.append(JSONSyntax.backslash)
                switch byte {
                case JSONSyntax.quote: bytes.append(JSONSyntax.quote)
                case JSONSyntax.backslash: bytes.append(JSONSyntax.backslash)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(JSONSyntax.zero)
                    bytes.append(JSONSyntax.zero)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
                i += 1
                runStart = i
            }
            if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
        }
        bytes.append(JSONSyntax.quote)
    }
}
