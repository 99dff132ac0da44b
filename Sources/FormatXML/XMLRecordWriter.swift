import FerryCore

/// Writes records as one XML document laid out as SCHEMAS.md "Formats" (XML) says.
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <dataset domain="notes" schemaVersion="2">
///       <wineTastingNotes>
///         <WineTastingNote>
///           <title>Barolo &amp; friends</title>
///           <smells>
///             <item>
///               <label>tar</label>
///             </item>
///           </smells>
///           <tastes type="list"/>
///         </WineTastingNote>
///       </wineTastingNotes>
///       <coffeeTastingNotes/>
///     </dataset>
///
/// - Collections: `options.collections` in order, each written (an empty one as `<name/>`), then
///   the others in first-seen order. Records of the first collection stream straight to the sink;
///   the others are rendered into a temporary spool file per collection, copied in at `finish()`.
/// - Records: one element each, named `recordNames[collection]` (the record type, `WineTastingNote`)
///   or `record`; members in their order; `.null` members omitted; `""` as `<x/>`; `[]` as
///   `<x type="list"/>`; `{}` as `<x type="object"/>`; a null list item as `<item type="null"/>`.
/// - Scalars: strings escaped (`&amp;` `&lt;` `&gt;`, CR as `&#13;`); `.integer` digits; `.double`
///   in the ECMAScript form (`NumberText.ecmaScript`); `.number` text verbatim; booleans
///   `true`/`false`.
/// - Keys that are not XML names (NCName), and the key `item`, are written `<field name="...">`.
/// - 2-space indentation when `options.pretty` (the default), UTF-8, a final newline. Written by
///   hand rather than with `xmlTextWriter`, so that spooled records can be rendered at their final
///   indentation and the bytes are fixed here (Docs/xml.md "Writer").
public final class XMLRecordWriter: RenderedElementWriter {
    /// The record element name used for collections that `recordNames` does not name.
    public static let defaultRecordName = "record"
    /// The collection element used for records that name no collection.
    public static let defaultCollectionName = "records"
    /// Deepest element nesting written; libxml2 (without `XML_PARSE_HUGE`) reads no deeper.
    public static let maximumDepth = 256

    private let sink: any ByteSink
    private let options: WriteOptions
    private let recordNames: [String: String]
    /// The layout of elements (`options.pretty`).
    private let text: XMLElementText
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var order: [String] = []
    @exclusivity(unchecked) private var known: Set<String> = []
    @exclusivity(unchecked) private var headerClosed = false
    @exclusivity(unchecked) private var streamedOpen = false
    @exclusivity(unchecked) private var spools: [String: SpoolFile] = [:]
    /// The collection of the record placed last and its spool file (nil: the collection streaming
    /// out): records of one collection usually come together, and so need no hashing of its name.
    @exclusivity(unchecked) private var lastPlaced: (collection: String, spool: SpoolFile?)?
    // Appended to for every byte written, one access at a time (no closure that runs inside
    // an access touches them): no dynamic exclusivity checks, which cost more than the append.
    @exclusivity(unchecked) private var buffer = ByteBuffer(capacity: 64 * 1024)
    /// Where the record being rendered starts in `buffer`: a record of a spooled collection is
    /// rendered after what waits for the output, and taken off again.
    @exclusivity(unchecked) private var renderStart = 0
    @exclusivity(unchecked) private var path: [String] = []
    @exclusivity(unchecked) private var currentRecord: Record?
    /// Where a text of `longTextThreshold` bytes or more goes while a record is rendered (the
    /// output, or the collection's spool file), piece by piece, rather than gathered in `buffer`
    /// whole: a long value then costs about its own size, not two or three times it.
    @exclusivity(unchecked) private var longTextTarget: ((UnsafeRawBufferPointer) throws -> Void)?
    /// True once a piece of the record being written went to `longTextTarget`: the record can no
    /// longer be taken back.
    @exclusivity(unchecked) private var sentPiece = false
    /// The shortest text (UTF-8 bytes) that goes out piece by piece rather than gathered with its
    /// record, and the piece size; a renderer that means to make the same bytes in as little memory
    /// leaves a record holding one to `write(_:)`.
    public static let longTextSize = 64 * 1024
    /// `longTextSize`, which tests raise to get the whole-buffer rendering to compare with.
    @exclusivity(unchecked) var longTextThreshold = longTextSize
    @exclusivity(unchecked) private var finished = false

    /// - Parameters:
    ///   - sink: where the document goes.
    ///   - options: `header` for `<dataset>`'s attributes, `collections` for their order, `pretty`.
    ///   - recordNames: the record element name of each collection (`["wineTastingNotes":
    ///     "WineTastingNote"]`), from the domain schema; others are `record`.
    /// - Throws: `FerryError(.usage)` when a record name is not an XML name.
    public init(_ sink: any ByteSink, options: WriteOptions = WriteOptions(), recordNames: [String: String] = [:]) throws {
        for (collection, name) in recordNames.sorted(by: { $0.key < $1.key }) where !XMLName.isNCName(name) {
            throw FerryError(.usage, "record element name \(quoted: name) of collection \(collection) is not an XML name")
        }
        self.sink = sink
        self.options = options
        self.recordNames = recordNames
        self.text = XMLElementText(pretty: options.pretty)
        for collection in options.collections where known.insert(collection).inserted { order.append(collection) }
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset")
        if let domain = options.header.domain { try attribute("domain", domain) }
        if let version = options.header.schemaVersion { try attribute("schemaVersion", String(version)) }
    }

    /// Writes one record.
    /// - Throws: `FerryError(.invalidValue)` for a string holding a character XML 1.0 cannot carry
    ///   (U+0000-U+001F other than tab, LF, CR; U+FFFE, U+FFFF) or a NaN or infinite double;
    ///   `.typeError` for a record that is not an object; `.tooDeep` past 256 levels: each with
    ///   `RecordLeftOut` as its cause when nothing of the record was written (all but a text too
    ///   long to hold, written piece by piece); `.outputUnwritable` from the sink or the spool
    ///   file; `.internalError` after `finish()`.
    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "XMLRecordWriter.write after finish()") }
        let collection = collectionName(record.collection)
        guard case .object(let object) = record.value else {
            throw FerryError(.error(.typeError, "an XML record must be an object, not \(record.value.kindName)",
                at: record.location), cause: RecordLeftOut())
        }
        currentRecord = record
        defer {
            currentRecord = nil
            longTextTarget = nil
        }
        let recordName = recordNames[collection] ?? Self.defaultRecordName
        sentPiece = false
        do {
            try place(collection, rendered: nil) { target in
                longTextTarget = target
                try renderRecord(object, name: recordName)
            }
        } catch var error as FerryError where !sentPiece && error.cause == nil
            && [.invalidValue, .typeError, .tooDeep].contains(error.diagnostic.code)
        {
            error.cause = RecordLeftOut()
            throw error
        }
    }

    /// Elements rendered ahead are record elements at depth 2 named as `write(_:)` names them.
    public var renderedElementForm: RenderedElementForm? {
        .xmlRecordElement(pretty: options.pretty, recordNames: recordNames, defaultName: Self.defaultRecordName)
    }

    /// Writes a record element rendered ahead (`XMLRendering` in `renderedElementForm`: the
    /// element named as `write(_:)` names the collection's records, at depth 2, with its indentation and
    /// line break) exactly as `write(_:)` writes the record of `collection`.
    /// - Throws: `.outputUnwritable` from the sink or the spool file; `.internalError` after `finish()`.
    public func writeElement(_ element: UnsafeBufferPointer<UInt8>, collection: String) throws {
        guard !finished else { throw FerryError(.internalError, "XMLRecordWriter.writeElement after finish()") }
        let bytes = UnsafeRawBufferPointer(element)
        try place(collectionName(collection), rendered: bytes) { _ in buffer.append(element) }
    }

    /// The collection element a record of `collection` goes into.
    private func collectionName(_ collection: String?) -> String {
        collection ?? options.collections.first ?? Self.defaultCollectionName
    }

    /// Puts a record of `collection` where it goes: `render` appends it to `buffer`, for the
    /// output when its collection is the first (opened here with the first record), else for the
    /// collection's spool file. `render` is handed where a long text goes piece by piece. A record
    /// `rendered` ahead of a spooled collection goes to the spool file as it is.
    private func place(_ collection: String, rendered: UnsafeRawBufferPointer?,
        _ render: (_ longText: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
    {
        let spool: SpoolFile
        if let lastPlaced, lastPlaced.collection == collection {
            guard let existing = lastPlaced.spool else { return try stream(render) }
            spool = existing
        } else {
            if known.insert(collection).inserted { order.append(collection) }
            guard collection != order[0] else {
                lastPlaced = (collection, nil)
                return try stream(render)
            }
            if let existing = spools[collection] {
                spool = existing
            } else {
                spool = try SpoolFile(kind: "xml-spool")
                spools[collection] = spool
            }
            lastPlaced = (collection, spool)
        }
        if let rendered { return _ = try spool.append(rendered) }
        let mark = buffer.count
        renderStart = mark
        defer {
            buffer.truncate(to: mark)
            renderStart = 0
        }
        try render { _ = try spool.append($0) }
        _ = try spool.append(UnsafeRawBufferPointer(rebasing: buffer.bytes[mark...]))
    }

    /// Renders a record of the collection streaming out (the first), opening it with its first.
    private func stream(_ render: (_ longText: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        if !streamedOpen {
            closeHeader()
            streamedOpen = true
            try openCollection(order[0])
        }
        let mark = buffer.count
        do {
            try render { [sink] in try sink.write($0) }
        } catch {
            // Nothing of a record that fails is kept (a long text sent out in pieces aside).
            if buffer.count > mark { buffer.truncate(to: mark) }
            throw error
        }
        if buffer.count >= 32 * 1024 { try flushBuffer() }
    }

    /// Writes the collections not yet complete, `</dataset>` and a final newline, then flushes
    /// the sink. Calling it again does nothing.
    /// - Throws: `FerryError(.outputUnwritable)` from the sink or a spool file.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        closeHeader()
        for (position, collection) in order.enumerated() {
            if position == 0 && streamedOpen {
                try closeCollection(collection)
            } else if let spool = spools[collection] {
                try openCollection(collection)
                try flushBuffer()
                try spool.copyAll(to: sink)
                try closeCollection(collection)
            } else {
                indent(1)
                _ = try reported { () throws(XMLElementText.Problem) in try text.startTag(collection, literal: false, depth: 1, into: &buffer) }
                append("/>")
                newline()
            }
        }
        if !order.isEmpty {
            append("</dataset>\n")
        } else if !options.pretty {
            buffer.append(0x0A)
        }
        try flushBuffer()
        try sink.flush()
        spools.removeAll()
    }

    // MARK: - Rendering

    private func append(_ text: String) {
        buffer.append(text)
    }

    private func flushBuffer() throws {
        guard !buffer.isEmpty else { return }
        try sink.write(buffer.bytes)
        buffer.removeAll()
    }

    private func closeHeader() {
        guard !headerClosed else { return }
        headerClosed = true
        append(order.isEmpty ? "/>" : ">")
        newline()
    }

    private func indent(_ depth: Int) {
        text.indent(depth, into: &buffer)
    }

    private func newline() {
        text.newline(into: &buffer)
    }

    private func openCollection(_ collection: String) throws {
        _ = try reported { () throws(XMLElementText.Problem) in try text.open(collection, isItem: false, depth: 1, into: &buffer) }
    }

    private func closeCollection(_ collection: String) throws {
        text.close(XMLElementText.elementName(collection), depth: 1, into: &buffer)
    }

    private func attribute(_ name: String, _ value: String) throws {
        try reported { () throws(XMLElementText.Problem) in try XMLElementText.attribute(name, value, into: &buffer) }
    }

    /// What `body` returns; a problem it meets thrown as the writer's error, at the field being
    /// written.
    private func reported<T>(_ body: () throws(XMLElementText.Problem) -> T) throws -> T {
        do {
            return try body()
        } catch .tooDeep {
            throw FerryError(.tooDeep, "values nest deeper than XML's \(Self.maximumDepth) element levels",
                             at: fieldLocation())
        } catch .unwritable(let bad) {
            throw unwritable(bad)
        }
    }

    private func fieldLocation() -> SourceLocation {
        guard let currentRecord else { return SourceLocation(file: options.fileName) }
        return currentRecord.location(of: JSONPointer(tokens: path))
    }

    private func renderRecord(_ object: ValueObject, name: String) throws {
        path.removeAll(keepingCapacity: true)
        guard object.contains(where: { !$0.value.isNull }) else {
            text.indent(2, into: &buffer)
            _ = try reported { () throws(XMLElementText.Problem) in try text.startTag(name, literal: true, depth: 2, into: &buffer) }
            append("/>")
            newline()
            return
        }
        let tag = try reported { () throws(XMLElementText.Problem) in try text.open(name, isItem: true, depth: 2, into: &buffer) }
        for member in object.members {
            path.append(member.key)
            try render(member.value, key: member.key, isItem: false, depth: 3)
            path.removeLast()
        }
        text.close(tag, depth: 2, into: &buffer)
    }

    private func render(_ value: Value, key: String, isItem: Bool, depth: Int) throws {
        switch value {
        case .null:
            guard isItem else { return }
            try marked(key, isItem: isItem, depth: depth, type: "null")
        case .bool(let b):
            try leaf(b ? "true" : "false", key: key, isItem: isItem, depth: depth)
        case .integer(let i):
            try leaf(String(i), key: key, isItem: isItem, depth: depth)
        case .double(let d):
            guard let text = NumberText.ecmaScript(d) else {
                throw FerryError(.invalidValue, "\(d) has no XML form (NaN and infinities are not numbers)",
                                 at: fieldLocation())
            }
            try leaf(text, key: key, isItem: isItem, depth: depth)
        case .number(let text):
            try leaf(text, key: key, isItem: isItem, depth: depth)
        case .string(let text):
            try leaf(text, key: key, isItem: isItem, depth: depth)
        case .array(let elements):
            guard !elements.isEmpty else {
                try marked(key, isItem: isItem, depth: depth, type: "list")
                return
            }
            let name = try reported { () throws(XMLElementText.Problem) in try text.open(key, isItem: isItem, depth: depth, into: &buffer) }
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                try render(element, key: "item", isItem: true, depth: depth + 1)
                path.removeLast()
            }
            text.close(name, depth: depth, into: &buffer)
        case .object(let object):
            guard object.contains(where: { !$0.value.isNull }) else {
                try marked(key, isItem: isItem, depth: depth, type: "object")
                return
            }
            let name = try reported { () throws(XMLElementText.Problem) in try text.open(key, isItem: isItem, depth: depth, into: &buffer) }
            for member in object.members {
                path.append(member.key)
                try render(member.value, key: member.key, isItem: false, depth: depth + 1)
                path.removeLast()
            }
            text.close(name, depth: depth, into: &buffer)
        }
    }

    private func marked(_ key: String, isItem: Bool, depth: Int, type: StaticString) throws {
        try reported { () throws(XMLElementText.Problem) in try text.marked(key, isItem: isItem, depth: depth, type: type, into: &buffer) }
    }

    private func leaf(_ value: String, key: String, isItem: Bool, depth: Int) throws {
        guard let target = longTextTarget, value.utf8.count >= longTextThreshold else {
            return try reported { () throws(XMLElementText.Problem) in try text.leaf(value, key: key, isItem: isItem, depth: depth, into: &buffer) }
        }
        indent(depth)
        let name = try reported { () throws(XMLElementText.Problem) in try text.startTag(key, literal: isItem, depth: depth, into: &buffer) }
        buffer.append(UInt8(ascii: ">"))
        try escapeLong(value, to: target)
        text.endTag(name, into: &buffer)
        newline()
    }

    /// Appends `text` escaped for element content, going out to `longTextTarget` piece by piece:
    /// what is buffered first, then each piece of up to `longTextThreshold` bytes once escaped.
    /// Pieces end on a character boundary, so U+FFFE and U+FFFF are found as in one pass.
    private func escapeLong(_ text: String, to target: (UnsafeRawBufferPointer) throws -> Void) throws {
        var text = text
        try text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                var end = min(offset + longTextThreshold, bytes.count)
                while end < bytes.count && end > offset + 1 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                if let bad = XMLElementText.escape(UnsafeBufferPointer(rebasing: bytes[offset..<end]), inAttribute: false, into: &buffer) {
                    throw unwritable(bad)
                }
                sentPiece = true
                try target(UnsafeRawBufferPointer(rebasing: buffer.bytes[renderStart...]))
                buffer.truncate(to: renderStart)
                offset = end
            }
        }
    }

    private func unwritable(_ bad: UInt32) -> FerryError {
        let hex = String(bad, radix: 16, uppercase: true)
        return FerryError(.invalidValue, "U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) cannot be written in XML 1.0",
                          at: fieldLocation())
    }
}
