import FerryCore

/// Reads one JSON document (RFC 8259) as a stream of records, holding one record at a time.
///
/// Shapes (SCHEMAS.md "Formats: JSON document", Docs/json.md):
/// - A top-level object is an envelope: `domain` (a string) and `schemaVersion` (an integer) fill
///   `header` as they are met; every other member `K` is a collection. An array value gives one
///   record per element (`recordIndex` = element index); an object value gives one record per
///   member with `documentID` = the member's key (Firestore exports keyed by document id); any
///   other value is one record holding that value, index 0. A `domain` that is not a string or a
///   `schemaVersion` that is not an integer is such a one-record collection, not a header.
/// - With `options.nestedCollections`, an envelope member it names whose value is an object (a
///   Firestore export's `"__collections__": {"wordBooks": {"<id>": {...}}}`) maps collection
///   names to collections: each document of an object or list collection is a record of its own
///   (`Record.nesting`), so memory holds one document, not the collection; any other collection
///   value is one record, as above. A syntax error in such a collection then comes after the
///   records of the documents before it, as in a top-level array.
/// - A top-level array gives one record per element, of collection `options.collection`.
/// - Any other top-level value is one record of collection `options.collection`.
///
/// A UTF-8 byte order mark at the very start is skipped; UTF-16 and UTF-32 input is refused with
/// `invalid-encoding`. A syntax error anywhere stops the reading: `next()` throws it (DESIGN.md:
/// a broken single JSON document stops at the first syntax error), and throws it again if called
/// again.
///
/// Each record's location is the line and column of its first byte; its locator rescans a copy
/// of the record's bytes to find fields.
public final class JSONDocumentReader: RecordReader {
    /// What the envelope said so far.
    public internal(set) var header = DatasetHeader()

    // Internal, not private: `nextBatch(limit:)` (JSONDocumentBatching.swift) cuts batches from them.
    let input: ChunkedInput
    let options: ReadOptions
    let maximumRecordSize: Int
    var state = State.start
    var failure: (any Error)?
    /// True once the envelope was looked for past the first collection (`lookAheadForEnvelope`).
    var lookedAhead = false

    struct Collection {
        var name: String?
        var index = 0
        /// True inside the envelope (two levels deep), false for a top-level array.
        var inEnvelope: Bool
    }

    /// An envelope member mapping collection names to collections (`"__collections__": {...}`).
    struct CollectionMap {
        /// The member's name, the collection of the records read from it.
        var name: String
        /// The index of the map member being read (each member is a record's `recordIndex`).
        var index = 0
    }

    /// One collection of a `CollectionMap`, read document by document.
    struct NestedCollection {
        var map: CollectionMap
        /// Its name in the map, each record's `documentID`.
        var name: String
        /// An object keyed by document id, or a list.
        var isObject: Bool
        /// The line and column of its `{` or `[`, each record's position.
        var start: TextPosition
        var index = 0
    }

    enum State {
        case start
        case member(first: Bool)
        case afterMember
        case element(Collection)
        case afterElement(Collection)
        case documentMember(Collection)
        case afterDocumentMember(Collection)
        /// Inside an envelope member that maps collection names to collections (`NestedCollections`).
        case mapMember(CollectionMap)
        case afterMapMember(CollectionMap)
        /// Inside one collection of such a map, read document by document.
        case nestedDocument(NestedCollection)
        case afterNestedDocument(NestedCollection)
        case trailing
        case finished
    }

    /// - Parameters:
    ///   - source: the document's bytes.
    ///   - options: `fileName` and `member` for locations, `collection` for records outside an
    ///     envelope, `maximumDepth` for the nesting limit.
    ///   - chunkSize: bytes asked of the source per read.
    ///   - maximumRecordSize: the largest single record (in bytes) held in memory; a larger one
    ///     is `too-large` (Docs/json.md "Limits").
    public init(
        source: any ByteSource, options: ReadOptions = ReadOptions(), chunkSize: Int = 64 * 1024,
        maximumRecordSize: Int = 256 * 1024 * 1024
    ) {
        self.input = ChunkedInput(source: source, chunkSize: chunkSize)
        self.options = options
        self.maximumRecordSize = maximumRecordSize
    }

    /// A reader that only looks for the envelope (`envelopeAhead()`): no positions, large reads.
    init(lookingAheadIn source: any ByteSource, options: ReadOptions) {
        self.input = ChunkedInput(source: source, chunkSize: 1 << 20, tracksPositions: false)
        self.options = options
        self.maximumRecordSize = 256 * 1024 * 1024
    }

    /// The next record, or nil after the document's end.
    /// - Throws: `FerryError` with `malformed-json`, `invalid-encoding`, `too-deep` or `too-large`
    ///   and the line and column of the problem; or the source's read error.
    public func next() throws -> Record? {
        switch try nextItem(deferring: false) {
        case .record(let record): return record
        case .pending(let pending):
            return try pending.record(
                location: options.inputLocation, maximumDepth: options.maximumDepth, stacks: JSONParseStacks())
        case nil: return nil
        }
    }

    /// What `next()` reads: a record, or (when `deferring`) a document held unparsed.
    enum Item {
        case record(Record)
        case pending(JSONPendingRecord)
    }

    /// The next record, or with `deferring` a document (an object keyed by document id, a
    /// collection's document in a Firestore map) whose bytes a bracket scan found, for a worker
    /// to parse: the calling thread then scans it instead of parsing it.
    func nextItem(deferring: Bool) throws -> Item? {
        if let failure { throw failure }
        do {
            return try step(deferring: deferring)
        } catch {
            failure = error
            state = .finished
            throw error
        }
    }

    // MARK: - The envelope's state machine

    private func step(deferring: Bool) throws -> Item? {
        while true {
            switch state {
            case .start:
                try input.skipByteOrderMark(at: options.inputLocation)
                try input.skipWhitespace()
                guard let byte = try input.peek() else {
                    throw error("empty input: expected a JSON value", at: input.pos)
                }
                if byte == JSONSyntax.openBrace {
                    try checkDepth(1)
                    input.pos += 1
                    state = .member(first: true)
                } else if byte == JSONSyntax.openBracket {
                    try checkDepth(1)
                    input.pos += 1
                    state = .element(Collection(name: options.collection, inEnvelope: false))
                } else {
                    let record = try readRecord(collection: options.collection, documentID: nil, index: 0, depth: 0)
                    state = .trailing
                    return .record(record)
                }

            case .member(let first):
                guard try memberFollows(first: first) else {
                    state = .trailing
                    continue
                }
                let key = try readKey(depth: 1)
                guard let valueByte = try input.peek() else { throw unexpectedEnd("expected a value") }
                if valueByte == JSONSyntax.openBrace || valueByte == JSONSyntax.openBracket,
                    !lookedAhead, header.domain == nil || header.schemaVersion == nil
                {
                    lookAheadForEnvelope(before: key)
                }
                if valueByte == JSONSyntax.openBrace,
                    options.nestedCollections?.mapsCollections(key, domain: header.domain) == true
                {
                    try checkDepth(2)
                    input.pos += 1
                    state = .mapMember(CollectionMap(name: key))
                } else if valueByte == JSONSyntax.openBracket {
                    try checkDepth(2)
                    input.pos += 1
                    state = .element(Collection(name: key, inEnvelope: true))
                } else if valueByte == JSONSyntax.openBrace {
                    try checkDepth(2)
                    input.pos += 1
                    state = .documentMember(Collection(name: key, inEnvelope: true))
                } else {
                    let record = try readRecord(collection: key, documentID: nil, index: 0, depth: 1)
                    state = .afterMember
                    if key == "domain", let domain = record.value.stringValue {
                        header.domain = domain
                    } else if key == "schemaVersion", let version = record.value.int64Value,
                        let exact = Int(exactly: version)
                    {
                        header.schemaVersion = exact
                    } else {
                        return .record(record)
                    }
                }

            case .afterMember:
                state = try itemFollows(objectMember: true) ? .member(first: false) : .trailing

            case .element(var collection):
                try input.skipWhitespace()
                guard let byte = try input.peek() else {
                    throw unexpectedEnd(collection.index == 0 ? "expected a value or ']'" : "expected a value")
                }
                if byte == JSONSyntax.closeBracket {
                    guard collection.index == 0 else { throw error("trailing comma before ']'", at: input.pos) }
                    input.pos += 1
                    state = collection.inEnvelope ? .afterMember : .trailing
                    continue
                }
                let record = try readRecord(
                    collection: collection.name, documentID: nil, index: collection.index,
                    depth: collection.inEnvelope ? 2 : 1)
                collection.index += 1
                state = .afterElement(collection)
                return .record(record)

            case .afterElement(let collection):
                state = try itemFollows(objectMember: false)
                    ? .element(collection) : collection.inEnvelope ? .afterMember : .trailing

            case .documentMember(var collection):
                guard try memberFollows(first: collection.index == 0) else {
                    state = .afterMember
                    continue
                }
                let key = try readKey(depth: 2)
                guard try input.peek() != nil else { throw unexpectedEnd("expected a value") }
                let item = try readDocument(
                    collection: collection.name, documentID: key, index: collection.index, depth: 2, deferring: deferring)
                collection.index += 1
                state = .afterDocumentMember(collection)
                return item

            case .afterDocumentMember(let collection):
                state = try itemFollows(objectMember: true) ? .documentMember(collection) : .afterMember

            case .mapMember(var map):
                guard try memberFollows(first: map.index == 0) else {
                    state = .afterMember
                    continue
                }
                let key = try readKey(depth: 2)
                guard let valueByte = try input.peek() else { throw unexpectedEnd("expected a value") }
                if valueByte == JSONSyntax.openBrace || valueByte == JSONSyntax.openBracket {
                    // The collection's documents are records of their own: it is never held whole.
                    try checkDepth(3)
                    let start = input.position(at: input.pos)
                    input.pos += 1
                    state = .nestedDocument(NestedCollection(
                        map: map, name: key, isObject: valueByte == JSONSyntax.openBrace, start: start))
                    continue
                }
                let record = try readRecord(collection: map.name, documentID: key, index: map.index, depth: 2)
                map.index += 1
                state = .afterMapMember(map)
                return .record(record)

            case .afterMapMember(let map):
                state = try itemFollows(objectMember: true) ? .mapMember(map) : .afterMember

            // The messages below are the parser's for the same bytes: an error reads as it did
            // when the collection was parsed as one value.
            case .nestedDocument(var nested):
                try input.skipWhitespace()
                let first = nested.index == 0
                guard let byte = try input.peek() else {
                    throw unexpectedEnd(
                        !nested.isObject ? "expected a value" : first ? "expected a string key or '}'" : "expected a string key")
                }
                if byte == (nested.isObject ? JSONSyntax.closeBrace : JSONSyntax.closeBracket) {
                    guard first else {
                        throw error(nested.isObject ? "trailing comma before '}'" : "trailing comma before ']'", at: input.pos)
                    }
                    input.pos += 1
                    state = .afterMapMember(CollectionMap(name: nested.map.name, index: nested.map.index + 1))
                    // An empty collection is the one record it always was: it names the
                    // collection (detection, counts) though it holds no document.
                    let location = SourceLocation(
                        file: options.fileName, member: options.member, line: nested.start.line,
                        column: nested.start.column, collection: nested.map.name, recordIndex: nested.map.index)
                    let empty: [UInt8] = nested.isObject ? [JSONSyntax.openBrace, JSONSyntax.closeBrace]
                        : [JSONSyntax.openBracket, JSONSyntax.closeBracket]
                    return .record(Record(
                        collection: nested.map.name, documentID: nested.name,
                        value: nested.isObject ? .object(ValueObject()) : .array([]), location: location,
                        locator: JSONFieldLocator(bytes: empty, start: nested.start)))
                }
                var documentID: String?
                if nested.isObject {
                    guard byte == JSONSyntax.quote else {
                        throw unexpected(first ? "expected a string key or '}'" : "expected a string key")
                    }
                    documentID = try readKey(depth: 3)
                    guard try input.peek() != nil else { throw unexpectedEnd("expected a value") }
                }
                let document = documentID.map { "document \(DiagnosticText.quoted($0))" } ?? "document \(nested.index)"
                let item = try readDocument(
                    collection: nested.map.name, documentID: nested.name, index: nested.map.index, depth: 3,
                    name: "\(document) of \(nested.name)", position: nested.start,
                    nesting: RecordNesting(token: documentID ?? String(nested.index), documentID: documentID),
                    deferring: deferring)
                nested.index += 1
                state = .afterNestedDocument(nested)
                return item

            case .afterNestedDocument(let nested):
                state = try itemFollows(objectMember: nested.isObject)
                    ? .nestedDocument(nested) : .afterMapMember(CollectionMap(name: nested.map.name, index: nested.map.index + 1))

            case .trailing:
                try input.skipWhitespace()
                if let byte = try input.peek() { throw trailingData(byte) }
                state = .finished
                return nil

            case .finished:
                return nil
            }
        }
    }

    /// Skips white space to an object's next member: true at its key's quote, false past the
    /// object's '}' (allowed only when `first`, no member read yet).
    func memberFollows(first: Bool) throws -> Bool {
        try input.skipWhitespace()
        guard let byte = try input.peek() else {
            throw unexpectedEnd(first ? "expected a string key or '}'" : "expected a string key")
        }
        if byte == JSONSyntax.closeBrace {
            guard first else { throw error("trailing comma before '}'", at: input.pos) }
            input.pos += 1
            return false
        }
        guard byte == JSONSyntax.quote else { throw unexpected(first ? "expected a string key or '}'" : "expected a string key") }
        return true
    }

    /// Skips white space and the ',' after an object member or array element (true) or the
    /// container's closing '}' or ']' (false).
    func itemFollows(objectMember: Bool) throws -> Bool {
        try input.skipWhitespace()
        let expectation = objectMember ? "expected ',' or '}' after object member" : "expected ',' or ']' after array element"
        guard let byte = try input.peek() else { throw unexpectedEnd(expectation) }
        guard byte == JSONSyntax.comma || byte == (objectMember ? JSONSyntax.closeBrace : JSONSyntax.closeBracket) else {
            throw unexpected(expectation)
        }
        input.pos += 1
        return byte == JSONSyntax.comma
    }

    // MARK: - Values

    /// Parses the value at the current position with `body`, reading more input and parsing again
    /// while the parser runs into the end of the buffer (so a record is held whole, once).
    /// - Returns: the result, the value's byte range in the buffer and the position of its start.
    private func parseInPlace<T>(depth: Int, _ body: (inout JSONParser) throws -> T) throws
        -> (result: T, range: Range<Int>, start: TextPosition)
    {
        let start = input.position(at: input.pos)
        if let first = try input.peek(), first == JSONSyntax.openBrace || first == JSONSyntax.openBracket {
            // Half the limit: a value near it reads on as before, so `too-large` is met the same way.
            try input.requireContainer(limit: maximumRecordSize / 2)
        }
        while true {
            let from = input.pos
            do {
                let (result, end) = try input.withBytes { p in
                    var parser = JSONParser(
                        bytes: p, range: from..<input.end, basePosition: start, location: options.inputLocation,
                        maximumDepth: options.maximumDepth, initialDepth: depth, isFinal: input.isExhausted)
                    let result = try body(&parser)
                    return (result, parser.index)
                }
                return (result, from..<end, start)
            } catch is JSONNeedsMoreInput {
                let held = input.end - from
                if held >= maximumRecordSize {
                    var location = options.inputLocation
                    location.position = start
                    throw FerryError(
                        .tooLarge, "a single value larger than \(maximumRecordSize) bytes (the documented limit)",
                        at: location)
                }
                // Ask for twice as much each time, so a long value is parsed O(1) times on average.
                try input.require(min(max(held * 2, held + 4096), maximumRecordSize))
            }
        }
    }

    /// Reads the value at the current position as a record. `name` says which record it is when
    /// the input is cut inside it (default: from `documentID`, else `index`, and `collection`).
    func readRecord(collection: String?, documentID: String?, index: Int, depth: Int, name: String? = nil) throws -> Record {
        let opened = input.position(at: input.pos)
        let parsed: (result: Value, range: Range<Int>, start: TextPosition)
        do {
            parsed = try parseInPlace(depth: depth) { try $0.parseValue() }
        } catch let error as FerryError where isCutShort(error, depth: depth) {
            // Cut short inside a record: say which one, as the XML reader names the element left open.
            let record = documentID.map { "document \(DiagnosticText.quoted($0))" } ?? "record \(index)"
            throw FerryError(JSONCutShort.diagnostic(
                error.diagnostic, endingAt: input.position(at: input.end),
                inside: name ?? record + (collection.map { " of \($0)" } ?? ""), opensAt: opened))
        }
        let (value, range, start) = parsed
        input.pos = range.upperBound
        let locator = JSONFieldLocator(bytes: input.take(range), start: start)
        let location = SourceLocation(
            file: options.fileName, member: options.member, line: start.line, column: start.column,
            collection: collection, recordIndex: index)
        return Record(collection: collection, documentID: documentID, value: value, location: location, locator: locator)
    }

    /// Reads the document at the current position as `readRecord` does, placed at `position` when
    /// given; with `deferring`, held unparsed when it can be (`pendingDocument`).
    private func readDocument(collection: String?, documentID: String?, index: Int, depth: Int, name: String? = nil,
        position: TextPosition? = nil, nesting: RecordNesting? = nil, deferring: Bool) throws -> Item
    {
        if deferring, let pending = try pendingDocument(
            collection: collection, documentID: documentID, index: index, depth: depth, position: position, nesting: nesting)
        {
            return .pending(pending)
        }
        var record = try readRecord(collection: collection, documentID: documentID, index: index, depth: depth, name: name)
        if let position {
            record.location.line = position.line
            record.location.column = position.column
        }
        record.nesting = nesting
        return .record(record)
    }

    /// Whether `error`, met parsing the value at the current position, is the input ending inside
    /// that value (rather than a value that is wrong).
    private func isCutShort(_ error: FerryError, depth: Int) -> Bool {
        guard JSONCutShort.isEndError(error.diagnostic), input.isExhausted else { return false }
        let from = input.pos
        return input.withBytes { p in
            JSONCutShort.endsInsideValue(p, from..<input.end, maximumDepth: options.maximumDepth, initialDepth: depth)
        }
    }

    /// Reads `"key"`, the colon and the whitespace after it.
    func readKey(depth: Int) throws -> String {
        let opened = input.position(at: input.pos)
        let parsed: (result: String, range: Range<Int>, start: TextPosition)
        do {
            parsed = try parseInPlace(depth: depth) { try $0.parseString() }
        } catch let error as FerryError where isCutShort(error, depth: depth) {
            throw FerryError(JSONCutShort.diagnostic(
                error.diagnostic, endingAt: input.position(at: input.end), inside: "a member's key", opensAt: opened))
        }
        let (key, range, _) = parsed
        input.pos = range.upperBound
        try input.skipWhitespace()
        guard let byte = try input.peek() else { throw unexpectedEnd("expected ':' after object key") }
        guard byte == JSONSyntax.colon else { throw unexpected("expected ':' after object key") }
        input.pos += 1
        try input.skipWhitespace()
        return key
    }

    // MARK: - Errors
}
