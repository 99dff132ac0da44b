import FerryCore
import FerrySchemas
import FormatJSON
import FormatXML

/// Renders records of models as XML record elements, byte for byte as `XMLRecordWriter` writes a
/// record holding the model's canonical `Value` (its `renderRecord`: the element at depth 2, its
/// members below, with the writer's indentation), without building that value.
public struct XMLRendering: Sendable {
    /// The layout of the writer's elements.
    let text: XMLElementText
    /// The record element name of each collection, and of any other.
    let recordNames: [String: String]
    let defaultName: String

    /// A renderer for a writer with `pretty` set as given (`WriteOptions.pretty`) naming the
    /// records of `collection` `recordNames[collection]`, else `defaultName`
    /// (`RenderedElementForm.xmlRecordElement`).
    public init(pretty: Bool, recordNames: [String: String] = [:], defaultName: String = XMLRecordWriter.defaultRecordName) {
        text = XMLElementText(pretty: pretty)
        self.recordNames = recordNames
        self.defaultName = defaultName
    }

    /// Appends the record element of a record of `collection` holding `model` (`render(_:recordName:into:)`
    /// with the collection's name).
    @discardableResult
    public func render<M: FieldCodable>(_ model: M, collection: String, into buffer: inout ByteBuffer) -> Bool {
        render(model, recordName: recordNames[collection] ?? defaultName, into: &buffer)
    }

    /// Appends the record element `recordName` (the collection's record type, `WineTastingNote`)
    /// holding `model`'s fields.
    /// - Returns: false, with `buffer` as it was, when the model holds what the writer refuses or
    ///   streams (a character XML cannot carry, a NaN or infinite number, nesting past
    ///   `XMLRecordWriter.maximumDepth`, a text of `XMLRecordWriter.longTextSize` bytes or more):
    ///   the record then goes to the writer as a value, which reports or streams it.
    @discardableResult
    public func render<M: FieldCodable>(_ model: M, recordName: String, into buffer: inout ByteBuffer) -> Bool {
        let mark = buffer.count
        let rendered = withUnsafeMutablePointer(to: &buffer) { pointer in
            var sink = XMLFieldSink(buffer: pointer, text: text)
            sink.appendObject(model, name: recordName, isItem: true, depth: 2, emptyMark: nil)
            return !sink.failed
        }
        if !rendered { buffer.truncate(to: mark) }
        return rendered
    }
}

/// A `FieldSink` that writes a model's fields as XML elements straight into a byte buffer, as
/// `XMLRecordWriter` writes the model's canonical `Value`: `.null` members left out, `""` as
/// `<x/>`, `[]` as `<x type="list"/>`, an object without members as `<x type="object"/>`, list
/// elements as `<item>`.
///
/// It holds a pointer to the caller's buffer because a `FieldSink` must be copyable and a
/// `ByteBuffer` is not; `XMLRendering.render` makes it for the length of one call only.
struct XMLFieldSink: FieldSink {
    private let buffer: UnsafeMutablePointer<ByteBuffer>
    private let text: XMLElementText
    /// The depth of the elements of the current object's members.
    private var depth = 3
    /// True when something could not be written as the writer writes it: the element is dropped.
    private(set) var failed = false

    init(buffer: UnsafeMutablePointer<ByteBuffer>, text: XMLElementText) {
        self.buffer = buffer
        self.text = text
    }

    /// Writes `model` as the element `name` at `depth`, its fields one level deeper; an element
    /// with no field becomes `<name type="object"/>` (`emptyMark`), or `<name/>` for a record.
    mutating func appendObject<M: FieldCodable>(_ model: M, name: String, isItem: Bool, depth elementDepth: Int,
        emptyMark: StaticString?)
    {
        let mark = buffer.pointee.count
        guard let tag = attempt({ (text, buffer) throws(XMLElementText.Problem) in
            try text.open(name, isItem: isItem, depth: elementDepth, into: &buffer.pointee)
        }) else { return }
        let opened = buffer.pointee.count
        let outer = depth
        depth = elementDepth + 1
        model.encode(to: &self)
        depth = outer
        guard buffer.pointee.count == opened else {
            return text.close(tag, depth: elementDepth, into: &buffer.pointee)
        }
        buffer.pointee.truncate(to: mark)
        if let emptyMark {
            marked(name, isItem: isItem, depth: elementDepth, type: emptyMark)
        } else {
            text.indent(elementDepth, into: &buffer.pointee)
            guard attempt({ (text, buffer) throws(XMLElementText.Problem) in
                try text.startTag(name, literal: isItem, depth: elementDepth, into: &buffer.pointee)
            }) != nil else { return }
            buffer.pointee.append("/>" as StaticString)
            text.newline(into: &buffer.pointee)
        }
    }

    /// What `body` returns; nil, and the sink failed, when it meets a problem. `body` is handed
    /// the layout and the buffer (a closure reading `self` would overlap this mutating call).
    @inline(__always)
    private mutating func attempt<T>(
        _ body: (XMLElementText, UnsafeMutablePointer<ByteBuffer>) throws(XMLElementText.Problem) -> T
    ) -> T? {
        do {
            return try body(text, buffer)
        } catch {
            failed = true
            return nil
        }
    }

    private mutating func leaf(_ value: String, _ key: String, isItem: Bool = false, depth: Int) {
        guard value.utf8.count < XMLRecordWriter.longTextSize else { return failed = true }
        _ = attempt { (text, buffer) throws(XMLElementText.Problem) in
            try text.leaf(value, key: key, isItem: isItem, depth: depth, into: &buffer.pointee)
        }
    }

    /// A leaf whose text `write` appends in place: digits or an instant, nothing to escape, never
    /// empty (`XMLElementText.leaf(key:isItem:depth:into:content:)`).
    @inline(__always)
    private mutating func plainLeaf(_ key: String, _ write: (inout ByteBuffer) -> Void) {
        let depth = self.depth
        _ = attempt { (text, buffer) throws(XMLElementText.Problem) in
            try text.leaf(key: key, isItem: false, depth: depth, into: &buffer.pointee) { write(&$0) }
        }
    }

    private mutating func marked(_ key: String, isItem: Bool, depth: Int, type: StaticString) {
        _ = attempt { (text, buffer) throws(XMLElementText.Problem) in
            try text.marked(key, isItem: isItem, depth: depth, type: type, into: &buffer.pointee)
        }
    }

    mutating func add(_ key: String, _ value: String) { leaf(value, key, depth: depth) }

    // Numbers and instants are written without a `String`: `appendJSONNumberInline` writes the
    // ECMAScript form (`NumberText.ecmaScript`) that the writer gives a `.double`, `RFC3339Text`
    // an instant's `description`.
    mutating func add(_ key: String, _ number: Double) {
        guard number.isFinite else { return failed = true }
        plainLeaf(key) { _ = $0.appendJSONNumberInline(number) }
    }

    mutating func add(_ key: String, _ flag: Bool) {
        plainLeaf(key) { $0.append(flag ? "true" as StaticString : "false" as StaticString) }
    }

    mutating func add(_ key: String, _ integer: Int64) { plainLeaf(key) { $0.appendJSONInteger(integer) } }

    mutating func add(_ key: String, _ instant: Instant) {
        plainLeaf(key) { buffer in RFC3339Text.withDescription(instant) { buffer.append($0) } }
    }

    mutating func add(_ key: String, _ day: CalendarDay) { leaf(day.description, key, depth: depth) }

    mutating func add(_ key: String, _ strings: [String]) {
        guard !strings.isEmpty else { return marked(key, isItem: false, depth: depth, type: "list") }
        let depth = self.depth
        guard let tag = attempt({ (text, buffer) throws(XMLElementText.Problem) in
            try text.open(key, isItem: false, depth: depth, into: &buffer.pointee)
        }) else { return }
        for string in strings { leaf(string, "item", isItem: true, depth: depth + 1) }
        text.close(tag, depth: depth, into: &buffer.pointee)
    }

    mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        appendObject(model, name: key, isItem: false, depth: depth, emptyMark: "object")
    }

    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard !models.isEmpty else { return marked(key, isItem: false, depth: depth, type: "list") }
        let depth = self.depth
        guard let tag = attempt({ (text, buffer) throws(XMLElementText.Problem) in
            try text.open(key, isItem: false, depth: depth, into: &buffer.pointee)
        }) else { return }
        for model in models { appendObject(model, name: "item", isItem: true, depth: depth + 1, emptyMark: "object") }
        text.close(tag, depth: depth, into: &buffer.pointee)
    }

    /// A value the model built (a Firestore Timestamp object): written as the writer writes a
    /// `Value`, for the kinds such values hold; any other kind drops the element (the writer
    /// then writes it from the record's value).
    mutating func add(_ key: String, _ value: Value) { append(value, key: key, isItem: false, depth: depth) }

    private mutating func append(_ value: Value, key: String, isItem: Bool, depth: Int) {
        switch value {
        case .null:
            if isItem { marked(key, isItem: true, depth: depth, type: "null") }
        case .string(let string): leaf(string, key, isItem: isItem, depth: depth)
        case .integer(let integer): leaf(String(integer), key, isItem: isItem, depth: depth)
        case .object(let object) where object.contains(where: { !$0.value.isNull }):
            guard let tag = attempt({ (text, buffer) throws(XMLElementText.Problem) in
                try text.open(key, isItem: isItem, depth: depth, into: &buffer.pointee)
            }) else { return }
            for member in object.members { append(member.value, key: member.key, isItem: false, depth: depth + 1) }
            text.close(tag, depth: depth, into: &buffer.pointee)
        default:
            failed = true
        }
    }
}
