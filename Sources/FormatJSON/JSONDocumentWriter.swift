import FerryCore

/// Writes records as one JSON document in the canonical form of SCHEMAS.md "Formats: JSON
/// document", streaming where it can.
///
/// - With a domain in `options.header`, or collections (in `options.collections` or on the
///   records), the document is an envelope: `{"domain": ..., "schemaVersion": ..., "<collection>":
///   [...], ...}`: the envelope keys first (those set), then every collection of
///   `options.collections` in that order (empty ones as `[]`), then any other collection in the
///   order first seen.
/// - Otherwise it is a top-level array of the records.
/// - `options.pretty` (the default) writes like `JSON.stringify(document, null, 2)`; otherwise the
///   compact form. Either way the document ends with a newline.
///
/// Memory stays flat: records of the first collection in canonical order stream straight to the
/// sink when they are the first to arrive; records of any other collection are encoded at once
/// and parked in an unlinked temporary file, then copied into place by `finish()`.
///
/// A record's `documentID` is not written (domain codecs put ids in the value).
public final class JSONDocumentWriter: RenderedElementWriter {
    private let sink: any ByteSink
    private let options: WriteOptions
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var out: JSONSerializer
    @exclusivity(unchecked) private var scratch: JSONSerializer

    private enum Mode { case undecided, array, envelope }
    @exclusivity(unchecked) private var mode = Mode.undecided
    @exclusivity(unchecked) private var arrayCount = 0
    @exclusivity(unchecked) private var envelopeMembers = 0

    /// Canonical collection order: `options.collections`, then others as first seen.
    @exclusivity(unchecked) private var order: [String]
    @exclusivity(unchecked) private var known: Set<String>
    /// The collection streaming straight out, and how many records it has.
    @exclusivity(unchecked) private var open: String?
    @exclusivity(unchecked) private var openCount = 0

    /// A collection's records waiting for their place. A class: the writer appends to its buffer
    /// where it is, with no look-up and no copy-on-write check per record.
    private final class Spool {
        @exclusivity(unchecked) var pending = ByteBuffer(capacity: 0)
        @exclusivity(unchecked) var segments: [(offset: Int64, length: Int)] = []
        @exclusivity(unchecked) var count = 0
    }
    @exclusivity(unchecked) private var spools: [String: Spool] = [:]
    /// The collection of the record written last in an envelope, and where its records go (nil:
    /// the collection streaming out): records of one collection usually come together, and so
    /// need no hashing of their collection's name.
    @exclusivity(unchecked) private var lastCollection: String?
    @exclusivity(unchecked) private var lastSpool: Spool?
    @exclusivity(unchecked) private var spoolFile: SpoolFile?
    @exclusivity(unchecked) private var pendingTotal = 0
    @exclusivity(unchecked) private var finished = false

    /// As large as `FileDescriptorSink`'s buffer, so that a flush is written straight through, not copied into it.
    private static let flushThreshold = 256 * 1024
    /// A spooled collection's encoded records move to the temporary file in pieces of this size...
    private let spoolSegmentSize: Int
    /// ...and all of them do when together they hold more than this.
    private let spoolMemoryBudget: Int

    /// - Parameters:
    ///   - sink: where the document goes.
    ///   - options: `header`, `collections` and `pretty`.
    public convenience init(sink: any ByteSink, options: WriteOptions = WriteOptions()) {
        self.init(sink: sink, options: options, spoolSegmentSize: 64 * 1024, spoolMemoryBudget: 8 * 1024 * 1024)
    }

    /// Tests use small spool sizes to exercise the temporary file.
    init(sink: any ByteSink, options: WriteOptions, spoolSegmentSize: Int, spoolMemoryBudget: Int) {
        self.spoolSegmentSize = spoolSegmentSize
        self.spoolMemoryBudget = spoolMemoryBudget
        self.sink = sink
        self.options = options
        self.out = JSONSerializer(pretty: options.pretty)
        self.scratch = JSONSerializer(pretty: options.pretty, capacity: 4096)
        var seen = Set<String>()
        self.order = options.collections.filter { seen.insert($0).inserted }
        self.known = seen
    }

    /// Writes one record.
    /// - Throws: `FerryError(.invalidValue)` for NaN or infinity, and for a record without a
    ///   collection in an envelope (or with one in a top-level array); `FerryError(.tooDeep)`;
    ///   the sink's and the spool file's write errors.
    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "record written after the JSON document was finished") }
        if mode == .undecided {
            let envelope = options.header.domain != nil || !options.collections.isEmpty || record.collection != nil
            startDocument(envelope: envelope)
        }
        switch mode {
        case .undecided:
            break
        case .array:
            if let collection = record.collection {
                throw FerryError(
                    .invalidValue,
                    "a record of collection '\(collection)' cannot join a JSON array of records without collections",
                    at: record.location)
            }
            try appendItem(record.value, first: arrayCount == 0, indent: 1)
            arrayCount += 1
        case .envelope:
            guard let collection = record.collection else {
                throw FerryError(
                    .invalidValue, "a record without a collection cannot be placed in a JSON document of collections",
                    at: record.location)
            }
            if let spool = destination(of: collection) {
                try self.spool(record.value, collection: collection, into: spool)
            } else {
                try appendItem(record.value, first: openCount == 0, indent: 2)
                openCount += 1
            }
        }
        if out.bytes.count >= Self.flushThreshold { try flushOut() }
    }

    /// How `writeElement(_:collection:)` wants a record's element rendered: pretty or compact
    /// (`options.pretty`), and in the pretty form the levels of indentation its first line stands
    /// at. Nil once the document is a top-level array, whose records have no collection.
    public var renderedElementForm: RenderedElementForm? {
        mode == .array ? nil : .jsonArrayElement(pretty: options.pretty, indent: 2)
    }

    /// Writes a record of `collection` whose element (its value alone, as this writer writes it
    /// at `renderedElementForm`) was rendered ahead, exactly as `write(_:)` writes the record:
    /// the separator and line break before it, and its place in the document, are the writer's.
    /// - Throws: the sink's and the spool file's write errors; `internalError` when the document
    ///   is a top-level array.
    public func writeElement(_ element: UnsafeBufferPointer<UInt8>, collection: String) throws {
        guard !finished else { throw FerryError(.internalError, "record written after the JSON document was finished") }
        if mode == .undecided { startDocument(envelope: true) }
        guard mode == .envelope else {
            throw FerryError(.internalError, "a rendered element of collection '\(collection)' cannot join a JSON array of records")
        }
        if let spool = destination(of: collection) {
            let start = spool.pending.count
            if spool.count > 0 { spool.pending.append(JSONSyntax.comma) }
            if options.pretty { spool.pending.append("\n    " as StaticString) }
            spool.pending.append(element)
            try spooled(spool, bytes: spool.pending.count - start, collection: collection)
        } else {
            if openCount > 0 { out.bytes.append(JSONSyntax.comma) }
            out.appendNewline(indent: 2)
            out.bytes.append(element)
            openCount += 1
        }
        if out.bytes.count >= Self.flushThreshold { try flushOut() }
    }

    /// Writes the spooled collections in their places, closes the document and flushes the sink.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if mode == .undecided {
            startDocument(envelope: options.header.domain != nil || !options.collections.isEmpty)
        }
        switch mode {
        case .undecided, .array:
            if arrayCount > 0 { out.appendNewline(indent: 0) }
            out.bytes.append(JSONSyntax.closeBracket)
        case .envelope:
            if open != nil { closeMember(count: openCount) }
            for collection in order where collection != open {
                startMember(collection)
                if let spool = spools[collection] {
                    if !spool.segments.isEmpty, let spoolFile {
                        try flushOut()
                        for segment in spool.segments {
                            try spoolFile.copy(offset: segment.offset, length: Int64(segment.length), to: sink)
                        }
                    }
                    spool.pending.withBytes { out.bytes.append($0) }
                    closeMember(count: spool.count)
                    if out.bytes.count >= Self.flushThreshold { try flushOut() }
                } else {
                    closeMember(count: 0)
                }
            }
            spools = [:]
            lastSpool = nil
            spoolFile = nil
            if envelopeMembers > 0 { out.appendNewline(indent: 0) }
            out.bytes.append(JSONSyntax.closeBrace)
        }
        out.bytes.append(JSONSyntax.newline)
        try flushOut()
        try sink.flush()
    }

    /// Appends `value` as an array item at `indent`, after a comma unless `first`; on a throw
    /// `out` is as it was.
    private func appendItem(_ value: Value, first: Bool, indent: Int) throws {
        let mark = out.bytes.count
        do {
            if !first { out.bytes.append(JSONSyntax.comma) }
            out.appendNewline(indent: indent)
            try appendStreaming(value, indent: indent)
        } catch {
            out.bytes.truncate(to: min(mark, out.bytes.count))
            throw error
        }
    }

    /// Appends a record's value going straight out: a long string in it goes to the sink piece by
    /// piece (`JSONSerializer.longStringSink`) rather than gathered in `out` whole.
    private func appendStreaming(_ value: Value, indent level: Int) throws {
        out.longStringSink = sink
        out.uncheckedValue = value
        defer {
            out.longStringSink = nil
            out.uncheckedValue = nil
        }
        try out.appendValue(value, indent: level)
    }

    // MARK: - Pieces of the document

    private func startDocument(envelope: Bool) {
        if envelope {
            mode = .envelope
            out.bytes.append(JSONSyntax.openBrace)
            if let domain = options.header.domain {
                out.appendNewline(indent: 1)
                out.appendKey("domain")
                out.appendString(domain)
                envelopeMembers += 1
                if let version = options.header.schemaVersion {
                    out.bytes.append(JSONSyntax.comma)
                    out.appendNewline(indent: 1)
                    out.appendKey("schemaVersion")
                    out.appendInteger(Int64(version))
                    envelopeMembers += 1
                }
            }
        } else {
            mode = .array
            out.bytes.append(JSONSyntax.openBracket)
        }
    }

    /// `,\n  "name": [` (the comma only after an earlier member).
    private func startMember(_ name: String) {
        if envelopeMembers > 0 { out.bytes.append(JSONSyntax.comma) }
        out.appendNewline(indent: 1)
        out.appendKey(name)
        out.bytes.append(JSONSyntax.openBracket)
        envelopeMembers += 1
    }

    /// `\n  ]`, or `]` right after `[` for an empty collection.
    private func closeMember(count: Int) {
        if count > 0 { out.appendNewline(indent: 1) }
        out.bytes.append(JSONSyntax.closeBracket)
    }

    // MARK: - Spooling

    /// Where a record of `collection` goes in an envelope: nil for the collection streaming out
    /// (which it opens, when it is the first in canonical order and nothing of it is spooled),
    /// else the collection's spool.
    private func destination(of collection: String) -> Spool? {
        if let lastCollection, lastCollection == collection { return lastSpool }
        if known.insert(collection).inserted { order.append(collection) }
        if open == nil, spools[collection] == nil, collection == order.first {
            open = collection
            startMember(collection)
        }
        var spool: Spool? = nil
        if collection != open {
            spool = spools[collection] ?? Spool()
            spools[collection] = spool
        }
        lastCollection = collection
        lastSpool = spool
        return spool
    }

    /// Spools `value` as the next element of its collection (its first line indented at 2).
    private func spool(_ value: Value, collection: String, into spool: Spool) throws {
        scratch.bytes.removeAll()
        if spool.count > 0 { scratch.bytes.append(JSONSyntax.comma) }
        scratch.appendNewline(indent: 2)
        try scratch.appendValue(value, indent: 2)
        scratch.bytes.withBytes { spool.pending.append($0) }
        try spooled(spool, bytes: scratch.bytes.count, collection: collection)
    }

    /// Counts an element of `bytes` just appended to `spool`, and moves pending bytes to the
    /// temporary file past the segment size or the memory budget.
    private func spooled(_ spool: Spool, bytes: Int, collection: String) throws {
        spool.count += 1
        pendingTotal += bytes
        if spool.pending.count >= spoolSegmentSize {
            try park(spool)
        }
        if pendingTotal > spoolMemoryBudget {
            try parkAll(except: collection)
        }
    }

    /// Moves a spool's pending bytes to the temporary file.
    private func park(_ spool: Spool) throws {
        guard !spool.pending.isEmpty else { return }
        let file = try spoolFile ?? SpoolFile(kind: "json-spool")
        spoolFile = file
        let offset = try spool.pending.withBytes { try file.append(UnsafeRawBufferPointer($0)) }
        spool.segments.append((offset: offset, length: spool.pending.count))
        pendingTotal -= spool.pending.count
        spool.pending.removeAll()
    }

    private func parkAll(except current: String) throws {
        for (name, spool) in spools where name != current {
            try park(spool)
        }
    }

    private func flushOut() throws {
        guard !out.bytes.isEmpty else { return }
        try out.bytes.withBytes { try sink.write(UnsafeRawBufferPointer($0)) }
        out.bytes.removeAll()
    }
}
