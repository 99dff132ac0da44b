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
public final class XMLRecordWriter: RecordWriter {
    /// The record element name used for collections that `recordNames` does not name.
    public static let defaultRecordName = "record"
    /// The collection element used for records that name no collection.
    public static let defaultCollectionName = "records"
    /// Deepest element nesting written; libxml2 (without `XML_PARSE_HUGE`) reads no deeper.
    public static let maximumDepth = 256

    private let sink: any ByteSink
    private let options: WriteOptions
    private let recordNames: [String: String]
    private var order: [String] = []
    private var known: Set<String> = []
    private var headerClosed = false
    private var streamedOpen = false
    private var spools: [String: SpoolFile] = [:]
    // Appended to for every byte written, one access at a time (no closure that runs inside
    // an access touches them): no dynamic exclusivity checks, which cost more than the append.
    @exclusivity(unchecked) private var buffer = ByteBuffer(capacity: 64 * 1024)
    /// Where the record being rendered starts in `buffer`: a record of a spooled collection is
    /// rendered after what waits for the output, and taken off again.
    private var renderStart = 0
    @exclusivity(unchecked) private var path: [String] = []
    private var currentRecord: Record?
    /// Where a text of `longTextThreshold` bytes or more goes while a record is rendered (the
    /// output, or the collection's spool file), piece by piece, rather than gathered in `buffer`
    /// whole: a long value then costs about its own size, not two or three times it.
    private var longTextTarget: ((UnsafeRawBufferPointer) throws -> Void)?
    /// The shortest text (UTF-8 bytes) that goes out piece by piece, and the piece size; tests
    /// raise it to get the whole-buffer rendering to compare with.
    var longTextThreshold = 64 * 1024
    private var finished = false

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
        for collection in options.collections where known.insert(collection).inserted { order.append(collection) }
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset")
        if let domain = options.header.domain { try attribute("domain", domain) }
        if let version = options.header.schemaVersion { try attribute("schemaVersion", String(version)) }
    }

    /// Writes one record.
    /// - Throws: `FerryError(.invalidValue)` for a string holding a character XML 1.0 cannot carry
    ///   (U+0000-U+001F other than tab, LF, CR; U+FFFE, U+FFFF) or a NaN or infinite double;
    ///   `.typeError` for a record that is not an object; `.tooDeep` past 256 levels;
    ///   `.outputUnwritable` from the sink or the spool file; `.internalError` after `finish()`.
    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "XMLRecordWriter.write after finish()") }
        let collection = record.collection ?? options.collections.first ?? Self.defaultCollectionName
        guard case .object(let object) = record.value else {
            throw FerryError(.typeError, "an XML record must be an object, not \(record.value.kindName)",
                             at: record.location)
        }
        if known.insert(collection).inserted { order.append(collection) }
        currentRecord = record
        defer {
            currentRecord = nil
            longTextTarget = nil
        }
        let recordName = recordNames[collection] ?? Self.defaultRecordName
        if collection == order[0] {
            if !streamedOpen {
                closeHeader()
                streamedOpen = true
                try openCollection(collection)
            }
            longTextTarget = { [sink] in try sink.write($0) }
            try renderRecord(object, name: recordName)
            if buffer.count >= 32 * 1024 { try flushBuffer() }
        } else {
            let spool: SpoolFile
            if let existing = spools[collection] {
                spool = existing
            } else {
                spool = try SpoolFile(kind: "xml-spool")
                spools[collection] = spool
            }
            let mark = buffer.count
            renderStart = mark
            defer {
                buffer.truncate(to: mark)
                renderStart = 0
            }
            longTextTarget = { _ = try spool.append($0) }
            try renderRecord(object, name: recordName)
            _ = try spool.append(UnsafeRawBufferPointer(rebasing: buffer.bytes[mark...]))
        }
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
                _ = try startTag(collection, literal: false, depth: 1)
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
        guard options.pretty else { return }
        let width = 2 * depth
        if width <= Self.spaces.count {
            Self.spaces.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[..<width])) }
        } else {
            for _ in 0..<width { buffer.append(0x20) }
        }
    }

    /// Two spaces for each of the first 32 levels, appended in one piece.
    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    private func newline() {
        if options.pretty { buffer.append(0x0A) }
    }

    private func openCollection(_ collection: String) throws {
        indent(1)
        _ = try startTag(collection, literal: false, depth: 1)
        buffer.append(UInt8(ascii: ">"))
        newline()
    }

    private func closeCollection(_ collection: String) throws {
        indent(1)
        endTag(!Self.isItem(collection) && XMLName.isNCName(collection) ? collection : "field")
        newline()
    }

    /// `<name` for an XML-name key, `<field name="key"` for any other key and for `item`.
    /// - Returns: the element's name, for its end tag (`endTag(_:)`).
    private func startTag(_ key: String, literal: Bool, depth: Int) throws -> String {
        guard depth < Self.maximumDepth else {
            throw FerryError(.tooDeep, "values nest deeper than XML's \(Self.maximumDepth) element levels",
                             at: fieldLocation())
        }
        buffer.append(UInt8(ascii: "<"))
        if literal || (!Self.isItem(key) && XMLName.isNCName(key)) {
            append(key)
            return key
        }
        append("field")
        try attribute("name", key)
        return "field"
    }

    /// True for the key `item`, which names list elements and so goes into `<field name="item">`
    /// (the length first: most keys differ from it there, and String's `!=` takes its slow path
    /// whenever two strings differ).
    private static func isItem(_ key: String) -> Bool {
        key.utf8.count == 4 && key == "item"
    }

    /// `</name>`, `name` as `startTag` returned it.
    private func endTag(_ name: String) {
        buffer.append(UInt8(ascii: "<"))
        buffer.append(UInt8(ascii: "/"))
        append(name)
        buffer.append(UInt8(ascii: ">"))
    }

    private func attribute(_ name: String, _ value: String) throws {
        buffer.append(0x20)
        append(name)
        append("=\"")
        try escape(value, inAttribute: true)
        buffer.append(UInt8(ascii: "\""))
    }

    private func fieldLocation() -> SourceLocation {
        guard let currentRecord else { return SourceLocation(file: options.fileName) }
        return currentRecord.location(of: JSONPointer(tokens: path))
    }

    private func renderRecord(_ object: ValueObject, name: String) throws {
        path.removeAll(keepingCapacity: true)
        indent(2)
        _ = try startTag(name, literal: true, depth: 2)
        guard object.contains(where: { !$0.value.isNull }) else {
            append("/>")
            newline()
            return
        }
        buffer.append(UInt8(ascii: ">"))
        newline()
        for member in object.members {
            path.append(member.key)
            try render(member.value, key: member.key, isItem: false, depth: 3)
            path.removeLast()
        }
        indent(2)
        endTag(name)
        newline()
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
            indent(depth)
            let name = try startTag(key, literal: isItem, depth: depth)
            buffer.append(UInt8(ascii: ">"))
            newline()
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                try render(element, key: "item", isItem: true, depth: depth + 1)
                path.removeLast()
            }
            indent(depth)
            endTag(name)
            newline()
        case .object(let object):
            guard object.contains(where: { !$0.value.isNull }) else {
                try marked(key, isItem: isItem, depth: depth, type: "object")
                return
            }
            indent(depth)
            let name = try startTag(key, literal: isItem, depth: depth)
            buffer.append(UInt8(ascii: ">"))
            newline()
            for member in object.members {
                path.append(member.key)
                try render(member.value, key: member.key, isItem: false, depth: depth + 1)
                path.removeLast()
            }
            indent(depth)
            endTag(name)
            newline()
        }
    }

    private func marked(_ key: String, isItem: Bool, depth: Int, type: String) throws {
        indent(depth)
        _ = try startTag(key, literal: isItem, depth: depth)
        append(" type=\"")
        append(type)
        append("\"/>")
        newline()
    }

    private func leaf(_ text: String, key: String, isItem: Bool, depth: Int) throws {
        indent(depth)
        let name = try startTag(key, literal: isItem, depth: depth)
        if text.isEmpty {
            append("/>")
        } else {
            buffer.append(UInt8(ascii: ">"))
            if let target = longTextTarget, text.utf8.count >= longTextThreshold {
                try escapeLong(text, to: target)
            } else {
                try escape(text, inAttribute: false)
            }
            endTag(name)
        }
        newline()
    }

    /// Appends `text` escaped for element content or a double-quoted attribute value; refuses the
    /// characters XML 1.0 section 2.2 excludes.
    private func escape(_ text: String, inAttribute: Bool) throws {
        var text = text
        if let bad = text.withUTF8({ escape($0, inAttribute: inAttribute) }) { throw unwritable(bad) }
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
                if let bad = escape(UnsafeBufferPointer(rebasing: bytes[offset..<end]), inAttribute: false) {
                    throw unwritable(bad)
                }
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

    /// Appends `bytes` escaped; the first character XML 1.0 excludes, if any (appending stops there).
    private func escape(_ bytes: UnsafeBufferPointer<UInt8>, inAttribute: Bool) -> UInt32? {
        var i = 0
        var run = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // Bytes written as they are go out in runs, one append each.
            if b >= 0x20 && b != UInt8(ascii: "&") && b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != 0xEF
                && !(inAttribute && b == UInt8(ascii: "\"")) {
                i += 1
                continue
            }
            if run < i { buffer.append(UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            run = i + 1
            switch b {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case 0x0D: append("&#13;")
            case UInt8(ascii: "\"") where inAttribute: append("&quot;")
            case 0x09 where inAttribute: append("&#9;")
            case 0x0A where inAttribute: append("&#10;")
            case 0x09, 0x0A: buffer.append(b)
            case 0x00..<0x20:
                return UInt32(b)
            case 0xEF where i + 2 < n && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                return bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF
            default: buffer.append(b)
            }
            i += 1
        }
        if run < n { buffer.append(UnsafeBufferPointer(rebasing: bytes[run..<n])) }
        return nil
    }
}
