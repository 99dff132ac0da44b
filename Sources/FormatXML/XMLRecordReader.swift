import FerryCore

/// Reads records from an XML document laid out as SCHEMAS.md "Formats" (XML) says, streaming:
/// libxml2's push parser feeds SAX events, and only the record being built is held in memory.
///
/// Shape read (Docs/xml.md "Mapping"):
///
///     <dataset domain="notes" schemaVersion="2">       -> header
///       <wineTastingNotes>                              -> collection name
///         <WineTastingNote>                             -> one record (element name ignored)
///           <title>Barolo</title>                       -> "title": .string("Barolo")
///           <smells><item>..</item></smells>            -> an array
///           <look><tint>ruby</tint></look>              -> an object
///
/// - Every scalar is read as `.string`: XML has no types, so the domain layer types the strings,
///   as it does for CSV. `<x/>` and `<x></x>` are `.string("")`.
/// - `type="list"` marks an empty list (`<smells type="list"/>` is `[]`), `type="object"` an empty
///   object, `type="null"` a null list item; an element whose children are all `<item>` is a list,
///   one with other child elements an object.
/// - `<field name="not a name">` carries a key that is not an XML name.
/// - A record that is well-formed XML but not of this mapping (text mixed with child elements, an
///   unknown `type`) is reported to the log as `malformed-xml` with its line, column and field
///   pointer, and skipped; reading goes on with the next record.
/// - Not-well-formed XML stops the document: `next()` throws `malformed-xml` (libxml2's message,
///   line and column) after returning the records that ended before the error. A document that
///   declares entities throws `unsafe-xml` (Docs/xml.md "Safety"). Nesting deeper than libxml2's
///   256 elements (or `options.maximumDepth`) throws `too-deep`.
public final class XMLRecordReader: RecordReader {
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    /// From the `<dataset>` element's `domain` and `schemaVersion` attributes.
    @exclusivity(unchecked) public private(set) var header = DatasetHeader()

    /// The longest text, in UTF-8 bytes, of one element (`too-large` beyond it): 64 MiB.
    public static let maximumTextBytes = 64 * 1024 * 1024

    private struct Frame {
        var key = ""
        var isItem = false
        var indexInParent = 0
        var marker: Marker = .none
        var position = TextPosition(line: 1, column: 1)
        /// The length of the element's text so far and whether some of it is not blank, saved
        /// here while a child element is open (the innermost element's are the reader's
        /// `openText` while it is).
        var textBytes = 0
        var hasNonSpaceText = false
        var members: [(key: String, value: Value)] = []
        var allItems = true
        /// This element's entry in `fieldElements` (-1 for the record's own element).
        var entry: Int32 = -1

        /// Makes a used frame the one of a new element, keeping its buffers' capacity.
        mutating func reset(key: String, isItem: Bool, index: Int, position: TextPosition, entry: Int32) {
            self.key = key
            self.isItem = isItem
            indexInParent = index
            marker = .none
            self.position = position
            if !members.isEmpty { members.removeAll(keepingCapacity: true) }
            allItems = true
            self.entry = entry
        }

        /// Notes that a child element starts (one access to the frame): keeps the element's
        /// text state while the child is open; returns the child's index among the members.
        mutating func childStarts(isItem: Bool, text: OpenText) -> Int {
            if !isItem { allItems = false }
            textBytes = text.bytes
            hasNonSpaceText = text.hasNonSpace
            return members.count
        }
    }

    /// The text state of the innermost open element, kept in the reader rather than in its
    /// frame so that a text event (most of them the blanks between elements) reads and writes
    /// three stored properties, not an array element.
    private struct OpenText {
        /// The length of the element's text so far (the 64 MiB limit).
        var bytes = 0
        /// Some of the text is not blank (text mixed with child elements, or in a marked element).
        var hasNonSpace = false
        /// A child element has ended: the element is a list or an object, whose text is only
        /// counted and checked for being blank, not kept.
        var hasChildren = false
    }

    private enum Marker { case none, list, object, null }

    let options: ReadOptions
    /// `options.inputLocation`, made once: each record's location starts from it.
    private let inputLocation: SourceLocation
    private let log: DiagnosticLog
    @exclusivity(unchecked) var parser: XMLSafeParser?
    // The state the SAX callbacks change on every element is `@exclusivity(unchecked)`: the
    // callbacks run one at a time on the reading thread and never hold two accesses to one
    // property, and the dynamic checks cost more than the rest of an event's work.
    /// Records built and not yet returned; `next()` moves each out (nil left behind), so that
    /// handing a record on copies none of its parts.
    @exclusivity(unchecked) var queue: [Record?] = []
    @exclusivity(unchecked) var queueHead = 0
    /// Records and problems in input order instead of `queue` and the log, while batches are
    /// cut or parsed (`XMLRecordReader+Batching`); nil otherwise.
    @exclusivity(unchecked) var collected: [RecordBatchItem]?
    /// The batch cutting's state, once `nextBatch` was called.
    @exclusivity(unchecked) var cutting: XMLBatchCutting?
    /// What a batch's parse threw: reading cannot go on after it.
    @exclusivity(unchecked) var batchFailure: (any Error)?

    @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) var collection: String?
    @exclusivity(unchecked) var counts: [String: Int] = [:]
    /// Where the root element's `<` is.
    @exclusivity(unchecked) var rootPosition = TextPosition(line: 1, column: 1)
    /// The open collection element's start tag as a batch's parser reads it (its name, and the
    /// `name` attribute of `<field>`), and where its `<` is; nil when batches cannot rebuild it.
    @exclusivity(unchecked) var collectionTag: (bytes: [UInt8], position: TextPosition)?
    @exclusivity(unchecked) private var recordIndex = 0
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var top = -1
    @exclusivity(unchecked) private var openText = OpenText()
    @exclusivity(unchecked) private var recordProblem: Diagnostic?
    /// Where each element of the record being built starts (`XMLFieldLocator`); its pointer is
    /// only built when a diagnostic asks.
    @exclusivity(unchecked) private var fieldElements: [XMLFieldLocator.Element] = []
    /// The text of the innermost element since its start tag: emptied at every start tag, so when
    /// an element without child elements ends (the only element whose text is read) it holds
    /// that element's text. One buffer for every element, not an array a frame: emptying and
    /// filling an array per element cost more than the rest of its text's handling.
    @exclusivity(unchecked) private var textBytes: UnsafeMutablePointer<UInt8> = {
        // Initialized: a short value is read as two words whatever its length (`InlineString`).
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        bytes.initialize(repeating: 0, count: 256)
        return bytes
    }()
    @exclusivity(unchecked) private var textCount = 0
    @exclusivity(unchecked) private var textCapacity = 256
    /// The index the next record of the open collection gets (`counts` holds it for the others,
    /// and for this one once it closes): read here, a record costs no dictionary lookup.
    @exclusivity(unchecked) var nextRecordIndex = 0

    /// Starts reading `source`.
    /// - Parameters:
    ///   - options: `fileName` / `member` for locations, `encoding` to force an encoding (iconv
    ///     name), `maximumDepth`.
    ///   - log: receives the records skipped for not following the mapping.
    /// - Throws: `FerryError(.invalidEncoding)` for an unknown forced encoding, or a read failure.
    public convenience init(_ source: any ByteSource, options: ReadOptions = ReadOptions(), log: DiagnosticLog) throws {
        try self.init(source, options: options, log: log, chunkSize: 64 * 1024)
    }

    /// As the public initializer, reading the source `chunkSize` bytes at a time (tests read in
    /// small pieces); `namesByAddress` false tells names by their bytes only (`XMLKnownNames`).
    init(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog, chunkSize: Int, namesByAddress: Bool = true) throws {
        self.options = options
        self.inputLocation = options.inputLocation
        self.log = log
        var encoding = options.encoding
        if let name = encoding?.lowercased(), name == "utf-8" || name == "utf8" { encoding = nil }
        self.parser = try XMLSafeParser(source: source, location: options.inputLocation, handler: self, encoding: encoding,
                                        chunkSize: chunkSize, namesByAddress: namesByAddress)
    }

    /// A reader of one batch's record elements (`XMLBatch`), which collects its records and
    /// problems in order: it starts inside `collection`, whose next record has index `index`.
    init(batchIn collection: String, index: Int, options: ReadOptions) {
        self.options = options
        self.inputLocation = options.inputLocation
        self.log = DiagnosticLog()
        self.collection = collection
        self.counts[collection] = index
        self.nextRecordIndex = index
        self.collected = []
    }

    deinit {
        textBytes.deallocate()
    }

    /// Appends text to `textBytes`, growing it as needed.
    private func keepText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if textCount + bytes.count > textCapacity {
            var capacity = textCapacity * 2
            while capacity < textCount + bytes.count { capacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.initialize(repeating: 0, count: capacity)
            grown.update(from: textBytes, count: textCount)
            textBytes.deallocate()
            textBytes = grown
            textCapacity = capacity
        }
        (textBytes + textCount).update(from: base, count: bytes.count)
        textCount += bytes.count
    }

    /// Reports a record's problem: to the log, or in order with the records while collecting.
    private func report(_ diagnostic: Diagnostic) {
        if collected != nil { collected!.append(.problem(diagnostic)) } else { log.report(diagnostic) }
    }

    /// The next record, or nil after `</dataset>`.
    /// - Throws: `FerryError` with `malformed-xml`, `unsafe-xml`, `too-deep`, `too-large`, or a
    ///   read failure; reading cannot go on after it.
    public func next() throws -> Record? {
        if let batchFailure { throw batchFailure }
        while queueHead == queue.count {
            guard let parser else { return nil }
            if let failure = parser.failure { throw FerryError(failure) }
            if parser.isFinished { return nil }
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            _ = try parser.advance()
        }
        defer { queueHead += 1 }
        return queue[queueHead].take()
    }

    /// `<name a="v">`, which libxml2 reads back as `name` and `attributes`; nil for a prefixed
    /// name (a namespace would be needed to read it). libxml2 hands attribute values over with
    /// `&` already written `&#38;` (no entity substitution), so `&` stays as it is.
    static func startTag(_ name: String, attributes: [(name: String, value: String)]) -> [UInt8]? {
        guard !name.contains(":") else { return nil }
        var tag = "<" + name
        for attribute in attributes {
            var value = ""
            for scalar in attribute.value.unicodeScalars {
                switch scalar {
                case "<": value += "&lt;"
                case "\"": value += "&quot;"
                case "\t": value += "&#9;"
                case "\n": value += "&#10;"
                case "\r": value += "&#13;"
                default: value.unicodeScalars.append(scalar)
                }
            }
            tag += " \(attribute.name)=\"\(value)\""
        }
        return Array((tag + ">").utf8)
    }

    // MARK: - Building records

    private func location(_ position: TextPosition?, field: JSONPointer? = nil) -> SourceLocation {
        var location = inputLocation
        location.position = position
        location.collection = collection
        if depth >= 2 { location.recordIndex = recordIndex }
        location.field = field
        return location
    }

    /// The pointer from the dataset root to frame `index` (`/wineTastingNotes/3/tastes/0`).
    private func pointer(to index: Int) -> JSONPointer {
        var tokens: [String] = []
        if let collection { tokens.append(collection) }
        tokens.append(String(recordIndex))
        return JSONPointer(tokens: tokens).appending(fieldPointer(to: index))
    }

    /// The pointer from the record to frame `index` (`/tastes/0`).
    private func fieldPointer(to index: Int) -> JSONPointer {
        var tokens: [String] = []
        if index >= 1 {
            for i in 1...index {
                tokens.append(frames[i].isItem ? String(frames[i].indexInParent) : frames[i].key)
            }
        }
        return JSONPointer(tokens: tokens)
    }

    private func problem(_ message: String, frame index: Int) {
        guard recordProblem == nil else { return }
        recordProblem = .error(.malformedXML, message, at: location(frames[index].position, field: pointer(to: index)))
    }

    /// True when some byte of text libxml2 reported is not XML white space (space, LF, tab,
    /// CR). libxml2 reports no other byte below 0x21 (XML has no other such characters; a
    /// control character, raw or as a reference, is an error that stops the parse), so one
    /// compare a byte tells: the blanks between elements are most of the text events.
    @inline(__always)
    static func hasNonSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte > 0x20 { return true }
        return false
    }

    /// Turns the innermost frame, just finished, into its value (Docs/xml.md "Lists, objects and
    /// empty values"); its text state is `openText`. Reads the frame in place (a copy of it would
    /// retain its text, key and members).
    private func value(of index: Int) -> Value {
        let marker = frames[index].marker
        let hasNonSpaceText = openText.hasNonSpace
        if frames[index].members.isEmpty {
            switch marker {
            case .none:
                if textCount < 16 { return .string(InlineString.make(textBytes, start: 0, length: textCount)) }
                return .string(String(decoding: UnsafeBufferPointer(start: textBytes, count: textCount), as: UTF8.self))
            case .list, .object, .null:
                if hasNonSpaceText { problem("an element marked type=\"\(marker)\" holds text", frame: index) }
                return marker == .list ? .array([]) : marker == .object ? .object(ValueObject()) : .null
            }
        }
        if hasNonSpaceText {
            problem("<\(frames[index].key)> mixes text with child elements", frame: index)
        }
        switch marker {
        case .null:
            problem("an element marked type=\"null\" has child elements", frame: index)
            return .null
        case .list:
            if !frames[index].allItems { problem("an element marked type=\"list\" has children other than <item>", frame: index) }
            return .array(frames[index].members.map(\.value))
        case .none where frames[index].allItems:
            return .array(frames[index].members.map(\.value))
        case .none, .object:
            return .object(ValueObject(frames[index].members))
        }
    }
}

extension XMLRecordReader: XMLParseHandler {
    func startElement(_ tag: XMLStartTag, at position: TextPosition) {
        defer { depth += 1 }
        let name = tag.name
        switch depth {
        case 0:
            rootPosition = position
            guard tag.kind == .dataset else {
                parser?.stop(.error(.malformedXML, "the root element is <\(name)>, not <dataset> (Docs/xml.md)",
                                    at: location(position)))
                return
            }
            for attribute in tag.attributes.pairs {
                if attribute.name == "domain" { header.domain = attribute.value }
                if attribute.name == "schemaVersion" {
                    guard let version = Int(attribute.value) else {
                        parser?.stop(.error(.unknownVersion, "schemaVersion \(quoted: attribute.value) is not an integer",
                                            at: location(position)))
                        return
                    }
                    header.schemaVersion = version
                }
            }
        case 1:
            let attributes = tag.attributes.pairs
            var collectionName = name
            if name == "field", let given = attributes.first(where: { $0.name == "name" }) { collectionName = given.value }
            collection = collectionName
            nextRecordIndex = counts[collectionName, default: 0]
            collectionTag = Self.startTag(name, attributes: name == "field" ? attributes.filter { $0.name == "name" } : [])
                .map { ($0, position) }
        case 2:
            recordIndex = nextRecordIndex
            nextRecordIndex += 1
            textCount = 0
            recordProblem = nil
            fieldElements.removeAll(keepingCapacity: true)
            top = 0
            if frames.isEmpty { frames.append(Frame()) }
            frames[0].reset(key: "", isItem: false, index: 0, position: position, entry: -1)
            openText = OpenText()
        default:
            guard depth < options.maximumDepth else {
                parser?.stop(.error(.tooDeep, "elements nest deeper than \(options.maximumDepth)", at: location(position)))
                return
            }
            let parent = top
            top += 1
            if frames.count <= top { frames.append(Frame()) }
            var key = name
            if tag.kind == .field, let given = tag.attributes.first(.name) { key = given }
            let isItem = tag.kind == .item
            let index = frames[parent].childStarts(isItem: isItem, text: openText)
            openText = OpenText()
            fieldElements.append(XMLFieldLocator.Element(parent: frames[parent].entry, key: isItem ? nil : key,
                                                         index: Int32(truncatingIfNeeded: index), position: position))
            frames[top].reset(key: key, isItem: isItem, index: index, position: position,
                              entry: Int32(truncatingIfNeeded: fieldElements.count - 1))
            textCount = 0
        }
        if depth >= 2, !tag.attributes.isEmpty {
            tag.attributes.forEach(.type) { value in
                if Self.bytes(value, are: "list") {
                    frames[top].marker = .list
                } else if Self.bytes(value, are: "object") {
                    frames[top].marker = .object
                } else if Self.bytes(value, are: "null") {
                    frames[top].marker = .null
                } else {
                    problem("unknown type=\(quoted: String(decoding: value, as: UTF8.self)) (list, object or null)", frame: top)
                }
            }
        }
    }

    /// True when `bytes` are `text`'s: two buffers compared (a buffer against a `String`'s UTF-8
    /// view is a generic walk of both, several times the work).
    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, are text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func endElement() {
        depth -= 1
        switch depth {
        case 0, 1:
            if depth == 1, let collection {
                counts[collection] = nextRecordIndex
                self.collection = nil
            }
        case 2:
            var members = ValueObject()
            if openText.hasNonSpace { problem("a record element holds text, not fields", frame: 0) }
            if frames[0].marker != .none && frames[0].marker != .object {
                problem("a record element cannot be marked type=\"\(frames[0].marker)\"", frame: 0)
            }
            members = ValueObject(frames[0].members)
            let recordLocation = location(frames[0].position)
            top = -1
            if let recordProblem {
                report(recordProblem)
                return
            }
            let locator = XMLFieldLocator(elements: fieldElements)
            if collected != nil {
                collected!.append(.record(Record(collection: collection, value: .object(members), location: recordLocation, locator: locator)))
            } else {
                queue.append(Record(collection: collection, value: .object(members), location: recordLocation, locator: locator))
            }
        default:
            let value = value(of: top)
            let key = frames[top].key
            top -= 1
            frames[top].members.append((key: key, value: value))
            openText = OpenText(bytes: frames[top].textBytes, hasNonSpace: frames[top].hasNonSpaceText, hasChildren: true)
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard depth >= 3, top >= 0 else {
            if Self.hasNonSpace(bytes) {
                report(.error(.malformedXML, "text outside any record is ignored",
                              at: location(parser?.currentPosition)))
            }
            return
        }
        if !openText.hasNonSpace, Self.hasNonSpace(bytes) { openText.hasNonSpace = true }
        guard openText.bytes + bytes.count <= Self.maximumTextBytes else {
            parser?.stop(.error(.tooLarge, "an element's text is longer than \(Self.maximumTextBytes) bytes",
                                at: location(frames[top].position, field: pointer(to: top))))
            return
        }
        openText.bytes += bytes.count
        if !openText.hasChildren { keepText(bytes) }
    }
}
