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

    /// Where a string value of `longStringThreshold` bytes or more goes, piece by piece, once what
    /// is buffered is written: so a long value is not gathered whole a second time, nor copied by
    /// the buffer's doubling growth. Nil (the default, and in renderers) keeps everything in `bytes`.
    /// Text already written cannot be taken back, so the first long string checks `uncheckedValue`
    /// (the whole value being written) first: a value that would throw throws before anything of
    /// it reaches the sink.
    var longStringSink: (any ByteSink)?
    /// The value being written, not yet checked by `checkWritable`; set with `longStringSink`.
    var uncheckedValue: Value?

    /// Throw `LongStringDeclined` at a string of `longStringThreshold` bytes or more, rather than
    /// gather it: renderers on other threads leave such a record to the writer, which streams it.
    var declinesLongStrings = false

    /// The smallest string (UTF-8 bytes) streamed to `longStringSink`, and the piece size.
    static let longStringThreshold = JSONLinesWriter.longStringThreshold

    /// What a serializer that `declinesLongStrings` throws at a long string.
    struct LongStringDeclined: Error {}

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

    /// Appends `value` found `depth` levels inside the outermost value written (0 for that value
    /// itself): containers past `maximumDepth` levels throw.
    mutating func appendValue(_ value: Value, indent level: Int, depth: Int) throws {
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
            if longStringSink != nil || declinesLongStrings, text.utf8.count >= Self.longStringThreshold {
                guard !declinesLongStrings else { throw LongStringDeclined() }
                try appendLongString(text)
            } else {
                appendString(text)
            }
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

    /// Writes what is buffered, then `text` quoted and escaped in pieces of `longStringThreshold`
    /// bytes, each written to `longStringSink` as soon as it is escaped.
    /// - Throws: the sink's write errors.
    private mutating func appendLongString(_ text: String) throws {
        guard let sink = longStringSink else { return appendString(text) }
        if let value = uncheckedValue {
            try checkWritable(value)
            uncheckedValue = nil
        }
        bytes.append(JSONSyntax.quote)
        var copy = text
        try copy.withUTF8 { utf8 in
            var offset = 0
            while offset < utf8.count {
                let end = min(offset + Self.longStringThreshold, utf8.count)
                bytes.appendJSONEscapedPiece(UnsafeBufferPointer(rebasing: utf8[offset..<end]))
                try bytes.withBytes { try sink.write(UnsafeRawBufferPointer($0)) }
                bytes.removeAll()
                offset = end
            }
        }
        bytes.append(JSONSyntax.quote)
    }

    /// Throws what `appendValue(value, indent:depth:)` would throw, in the same order, without
    /// writing: NaN and infinities (`invalid-value`), containers past `maximumDepth` (`too-deep`).
    /// Returns whether `value` holds a string of `longStringThreshold` bytes or more.
    @discardableResult
    func checkWritable(_ value: Value, depth: Int = 0) throws -> Bool {
        switch value {
        case .null, .bool, .integer, .number:
            return false
        case .double(let double):
            if !double.isFinite {
                throw FerryError(
                    .invalidValue, "\(double) has no JSON form: NaN and infinities cannot be written (RFC 8259 section 6)")
            }
            return false
        case .string(let text):
            return text.utf8.count >= Self.longStringThreshold
        case .array(let elements):
            guard !elements.isEmpty else { return false }
            try checkDepth(depth + 1)
            var long = false
            for element in elements where try checkWritable(element, depth: depth + 1) { long = true }
            return long
        case .object(let object):
            guard !object.isEmpty else { return false }
            try checkDepth(depth + 1)
            var long = false
            for member in object.members where try checkWritable(member.value, depth: depth + 1) { long = true }
            return long
        }
    }

    private func checkDepth(_ depth: Int) throws {
        if depth > maximumDepth {
            throw FerryError(.tooDeep, "a value nested deeper than \(maximumDepth) levels cannot be written")
        }
    }

    /// Appends a double in the ECMAScript form (`ByteBuffer.appendJSONNumber`).
    /// - Throws: `FerryError(.invalidValue)` for NaN and infinities.
    private mutating func appendDouble(_ double: Double) throws {
        guard bytes.appendJSONNumber(double) else {
            throw FerryError(
                .invalidValue, "\(double) has no JSON form: NaN and infinities cannot be written (RFC 8259 section 6)")
        }
    }

    /// Appends the decimal digits of an integer.
    @inline(__always)
    mutating func appendInteger(_ value: Int64) { bytes.appendJSONInteger(value) }

    /// Appends text that needs no escaping (number text) as it is.
    mutating func appendRaw(_ text: String) { bytes.append(text) }

    /// Appends a string in quotes, escaping only `"`, `\` and control characters.
    @inline(__always)
    mutating func appendString(_ text: String) { bytes.appendJSONString(text) }
}
