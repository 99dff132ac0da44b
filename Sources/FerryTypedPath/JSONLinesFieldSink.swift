import FerryCore
import FerrySchemas
import FormatJSON

/// Renders records of models as JSON Lines lines, as `JSONLinesWriter` writes them (SCHEMAS.md
/// "Formats: JSON Lines"): `{"$collection":"c",` then the model's fields in canonical order, compact,
/// then LF; without a collection the model's object alone. Strings, numbers and instants are
/// written by the serializer's own pieces (`ByteBuffer.appendJSONString`, `appendJSONNumber`, and
/// their in-line fast paths `appendJSONMember`, `appendJSONStringInline`, `appendJSONNumberInline`,
/// which write the same bytes), so the bytes are those the writer makes for
/// `Record(collection: c, value: model.value)`.
///
/// Made with `documentElement(pretty:indent:)`, it renders instead a record as an element of a
/// collection's array in a JSON document, as `JSONDocumentWriter` writes it: the model's object
/// alone, pretty (indented as the element's depth wants) or compact, without the separator and
/// line break before it, which the writer writes (`JSONDocumentWriter.writeElement`).
public struct JSONLinesRendering: Sendable {
    /// What is rendered: a JSON Lines line, or a JSON document's array element.
    private enum Form: Sendable {
        case line
        /// `indent`: the levels of indentation of the element's first line (pretty only).
        case element(pretty: Bool, indent: Int)
    }
    private let form: Form

    /// nil when the writer's options make bytes this renderer does not reproduce.
    ///
    /// No option changes a JSON Lines record line today: `header` only adds the header line, which
    /// the writer itself writes; `pretty` is ignored (lines are always compact); the rest concern
    /// other formats. The failable shape is kept for options to come.
    public init?(options: WriteOptions) { form = .line }

    private init(form: Form) { self.form = form }

    /// Renders records as the elements of a JSON document's collection array: pretty, with the
    /// element's first line standing at `indent` levels (`JSONDocumentWriter.renderedElementForm`),
    /// or compact.
    public static func documentElement(pretty: Bool, indent: Int) -> JSONLinesRendering {
        JSONLinesRendering(form: .element(pretty: pretty, indent: indent))
    }

    /// Appends the line for a record of `collection` (nil: none) holding `model`, LF included; for
    /// a document element, the element (`collection` is then the writer's to place it by).
    /// - Returns: false, with `buffer` as it was, when the model holds what the writer would refuse
    ///   (a NaN or infinite number, a value nested too deeply) or a string it streams: the record
    ///   then goes the general path, which reports or streams it.
    @discardableResult
    public func render<M: FieldCodable>(_ model: M, collection: String?, into buffer: inout ByteBuffer) -> Bool {
        let mark = buffer.count
        let rendered = withUnsafeMutablePointer(to: &buffer) { pointer in
            switch form {
            case .line:
                var sink = JSONLinesFieldSink(buffer: pointer, skipsCollectionMember: collection != nil)
                sink.appendLine(model, collection: collection)
                return !sink.failed
            case .element(let pretty, let indent):
                var sink = JSONLinesFieldSink(buffer: pointer, pretty: pretty, indent: indent)
                sink.appendElement(model)
                return !sink.failed
            }
        }
        if !rendered { buffer.truncate(to: mark) }
        return rendered
    }
}

/// A `FieldSink` that writes a model's fields as JSON members straight into a byte buffer, byte
/// for byte as `JSONSerializer` writes the model's canonical `Value`: compact (JSON Lines, or a
/// compact JSON document), or pretty (a JSON document's element, as `JSON.stringify(value, null, 2)`
/// indents it at its depth).
///
/// It holds a pointer to the caller's buffer because a `FieldSink` must be copyable and a
/// `ByteBuffer` is not; `JSONLinesRendering.render` makes it for the length of one call only.
struct JSONLinesFieldSink: FieldSink {
    /// The buffer written to; valid while `render` runs.
    private let buffer: UnsafeMutablePointer<ByteBuffer>
    /// True when the line names its collection: a model field named `$collection` is then not
    /// written (the writer skips that member of the value, at the top level only).
    private let skipsCollectionMember: Bool
    /// True for the pretty form: members and list items on lines of their own.
    private let pretty: Bool
    /// The indentation level of the current object's braces (pretty only): its members stand one
    /// level deeper.
    private var indent = 0
    /// True inside a nested object (`$collection` is skipped only at the top).
    private var isNested = false
    /// The depth the writer gives the values of the current object's members (its limit on
    /// nesting counts it): 0 at the top of a line with `$collection`, 1 at the top of one without
    /// and of a document's element.
    private var memberDepth: Int
    /// True once a member was written in the current object (the next one needs a comma).
    private var needsComma = false
    /// True when something could not be written as the writer writes it (NaN, infinity, a value
    /// nested too deeply), or is a string the writer streams (`JSONLinesWriter.longStringThreshold`
    /// bytes or more): the line must be dropped.
    private(set) var failed = false

    /// A sink for a JSON Lines line.
    init(buffer: UnsafeMutablePointer<ByteBuffer>, skipsCollectionMember: Bool) {
        self.buffer = buffer
        self.skipsCollectionMember = skipsCollectionMember
        self.pretty = false
        self.memberDepth = skipsCollectionMember ? 0 : 1
    }

    /// A sink for a JSON document's element whose first line stands at `indent` levels (pretty).
    init(buffer: UnsafeMutablePointer<ByteBuffer>, pretty: Bool, indent: Int) {
        self.buffer = buffer
        self.skipsCollectionMember = false
        self.pretty = pretty
        self.indent = indent
        self.memberDepth = 1
    }

    /// Appends the whole line: `{`, the `$collection` member when there is one, the fields, `}`, LF.
    mutating func appendLine<M: FieldCodable>(_ model: M, collection: String?) {
        if let collection {
            buffer.pointee.append("{\"$collection\":" as StaticString)
            buffer.pointee.appendJSONStringInline(collection)
            needsComma = true
        } else {
            buffer.pointee.append(UInt8(ascii: "{"))
        }
        model.encode(to: &self)
        buffer.pointee.reserve(2)
        buffer.pointee.appendReserved(UInt8(ascii: "}"))
        buffer.pointee.appendReserved(UInt8(ascii: "\n"))
    }

    /// Appends a document element: the model's object (`{}` when it writes no field), its closing
    /// brace on a line of its own at the element's indentation when pretty.
    mutating func appendElement<M: FieldCodable>(_ model: M) {
        buffer.pointee.append(UInt8(ascii: "{"))
        model.encode(to: &self)
        closeObject()
    }

    /// `}`, after a line break at the current object's indentation when pretty and not empty.
    @inline(__always)
    private mutating func closeObject() {
        if pretty, needsComma { appendNewline(indent) }
        buffer.pointee.append(UInt8(ascii: "}"))
    }

    /// A line break and `level` indents (`JSONSerializer.appendNewline`), with `,` before when
    /// `comma`.
    @inline(__always)
    private mutating func appendNewline(_ level: Int, comma: Bool = false) {
        let width = 2 &* level
        buffer.pointee.reserve(width &+ 2)
        if comma { buffer.pointee.appendReserved(UInt8(ascii: ",")) }
        buffer.pointee.appendReserved(UInt8(ascii: "\n"))
        let out = buffer.pointee.base + buffer.pointee.count
        out.initialize(repeating: UInt8(ascii: " "), count: width)
        buffer.pointee.count += width
    }

    /// Writes `,` when needed and `"key":` (`"key": ` on a line of its own when pretty); false
    /// when the member is to be left out.
    @inline(__always)
    private mutating func beginMember(_ key: String) -> Bool {
        if skipsCollectionMember, !isNested, key.utf8.count == 11, key == "$collection" { return false }
        if pretty {
            appendNewline(indent &+ 1, comma: needsComma)
            buffer.pointee.appendJSONMember(key, comma: false)
            buffer.pointee.append(UInt8(ascii: " "))
        } else {
            buffer.pointee.appendJSONMember(key, comma: needsComma)
        }
        needsComma = true
        return true
    }

    /// Starts a list item (pretty: on a line of its own, one level deeper than its member), after
    /// a comma unless it is the first.
    @inline(__always)
    private mutating func beginItem(first: Bool) {
        if pretty {
            appendNewline(indent &+ 2, comma: !first)
        } else if !first {
            buffer.pointee.append(UInt8(ascii: ","))
        }
    }

    /// `]` ending a member's non-empty list (on a line of its own when pretty).
    @inline(__always)
    private mutating func closeList() {
        if pretty { appendNewline(indent &+ 1) }
        buffer.pointee.append(UInt8(ascii: "]"))
    }

    /// Writes a nested model as an object (`{}` when it writes no field), `levels` deeper than the
    /// current members (1 for a member's object, 2 for an object in a member's list).
    private mutating func appendObject<M: FieldCodable>(_ model: M, levels: Int) {
        let (outerNested, outerComma, outerDepth, outerIndent) = (isNested, needsComma, memberDepth, indent)
        isNested = true
        needsComma = false
        memberDepth += levels
        indent += levels
        buffer.pointee.append(UInt8(ascii: "{"))
        model.encode(to: &self)
        closeObject()
        (isNested, needsComma, memberDepth, indent) = (outerNested, outerComma, outerDepth, outerIndent)
    }

    @inline(__always)
    mutating func add(_ key: String, _ text: String) {
        guard beginMember(key) else { return }
        // A long value is left to the writer, which streams it rather than gather it here.
        guard text.utf8.count < JSONLinesWriter.longStringThreshold else { return failed = true }
        buffer.pointee.appendJSONStringInline(text)
    }

    @inline(__always)
    mutating func add(_ key: String, _ number: Double) {
        guard beginMember(key) else { return }
        if !buffer.pointee.appendJSONNumberInline(number) { failed = true }
    }

    @inline(__always)
    mutating func add(_ key: String, _ flag: Bool) {
        guard beginMember(key) else { return }
        if flag { buffer.pointee.append("true" as StaticString) } else { buffer.pointee.append("false" as StaticString) }
    }

    @inline(__always)
    mutating func add(_ key: String, _ integer: Int64) {
        guard beginMember(key) else { return }
        buffer.pointee.appendJSONInteger(integer)
    }

    mutating func add(_ key: String, _ instant: Instant) {
        guard beginMember(key) else { return }
        // `description`'s bytes, written in place (they hold nothing to escape).
        RFC3339Text.appendQuoted(instant, to: &buffer.pointee)
    }

    mutating func add(_ key: String, _ day: CalendarDay) {
        guard beginMember(key) else { return }
        // `description`'s bytes written in place (digits and dashes: nothing to escape) for a day
        // the initializers make; any other (its fields are settable) through the `String`.
        guard (1...9999).contains(day.year), (1...12).contains(day.month), (1...31).contains(day.day) else {
            return buffer.pointee.appendJSONString(day.description)
        }
        buffer.pointee.reserve(12)
        let out = buffer.pointee.base + buffer.pointee.count
        out[0] = UInt8(ascii: "\"")
        RFC3339Fields.writeDate(year: day.year, month: day.month, day: day.day, to: out + 1)
        out[11] = UInt8(ascii: "\"")
        buffer.pointee.count += 12
    }

    mutating func add(_ key: String, _ strings: [String]) {
        guard beginMember(key) else { return }
        guard !strings.isEmpty else { return buffer.pointee.append("[]" as StaticString) }
        buffer.pointee.append(UInt8(ascii: "["))
        for index in strings.indices {
            beginItem(first: index == 0)
            guard strings[index].utf8.count < JSONLinesWriter.longStringThreshold else { return failed = true }
            buffer.pointee.appendJSONStringInline(strings[index])
        }
        closeList()
    }

    mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        guard beginMember(key) else { return }
        appendObject(model, levels: 1)
    }

    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard beginMember(key) else { return }
        guard !models.isEmpty else { return buffer.pointee.append("[]" as StaticString) }
        buffer.pointee.append(UInt8(ascii: "["))
        for index in models.indices {
            beginItem(first: index == 0)
            appendObject(models[index], levels: 2)
        }
        closeList()
    }

    mutating func add(_ key: String, _ value: Value) {
        guard beginMember(key) else { return }
        do {
            if pretty {
                try buffer.pointee.appendPrettyJSONValue(value, depth: memberDepth, indent: indent + 1)
            } else {
                try buffer.pointee.appendJSONValue(value, depth: memberDepth)
            }
        } catch {
            failed = true
        }
    }
}
