import FerryCore

/// A record of a JSON document held as bytes, to be parsed on a worker thread: a document the
/// reader's `next()` would parse on the calling thread (an object keyed by document id, a
/// Firestore collection's document with its sub-collections), cut by the same bracket scan as a
/// collection array's elements. `record(location:maximumDepth:stacks:)` gives what `next()`
/// gives for the same bytes: the record, or the error `next()` throws reading it.
struct JSONPendingRecord {
    /// The value's bytes, then up to `JSONDocumentReader.lookAhead` bytes after it (for the
    /// parser's description of an error at its end).
    var bytes: [UInt8]
    /// How many of `bytes` are the value's.
    var count: Int
    /// The line and column of the value's first byte.
    var start: TextPosition
    /// True when `bytes` reach the end of the input.
    var isFinal: Bool
    /// Containers open around the value.
    var depth: Int
    var collection: String?
    var documentID: String?
    var index: Int
    /// The record's line and column when not its value's (a Firestore collection's document is
    /// placed at its collection's opening bracket).
    var position: TextPosition?
    var nesting: RecordNesting?

    /// The record, parsed as `JSONDocumentReader.next()` parses it.
    /// - Throws: `FerryError` with `malformed-json` or `too-deep` at the line and column of the
    ///   problem, as `next()` throws it for the same bytes.
    func record(location: SourceLocation, maximumDepth: Int, stacks: JSONParseStacks) throws -> Record {
        let value = try bytes.withUnsafeBufferPointer { p in
            try JSONDocumentBatch.parseValue(
                in: p, range: 0..<count, start: start, location: location, maximumDepth: maximumDepth,
                depth: depth, isFinal: isFinal, stacks: stacks)
        }
        var record = Record(
            collection: collection, documentID: documentID, value: value, location: recordLocation(location),
            locator: JSONFieldLocator(bytes: bytes, window: 0..<count, start: start))
        record.nesting = nesting
        return record
    }
}

extension JSONPendingRecord {
    /// What `taker` makes of the record's documents (`RawRecord.jsonNested`), or nil.
    func offer(to taker: any RawRecordTaker, maximumDepth: Int) -> TakenRecord? {
        bytes.withUnsafeBufferPointer { p in
            taker.take(.jsonNested(
                UnsafeBufferPointer(rebasing: p[0..<count]), start: start, collection: collection, documentID: documentID,
                nesting: nesting, maximumDepth: maximumDepth - depth))
        }
    }

    /// The record's location, as `record(location:maximumDepth:stacks:)` places it.
    func recordLocation(_ location: SourceLocation) -> SourceLocation {
        let position = self.position ?? start
        return SourceLocation(
            file: location.file, member: location.member, line: position.line, column: position.column,
            collection: collection, recordIndex: index)
    }
}

/// The records a taker made of the documents of one `JSONPendingRecord`: each document's item
/// makes the whole record, with a null value (`record(of:)`), or parsed (`parsedRecord(of:)`, for a
/// diagnostic about one of its documents).
final class JSONPendingSource: TakenRecordSource, @unchecked Sendable {
    // @unchecked: written once, in `init`; read only after.
    private let pending: JSONPendingRecord
    private let location: SourceLocation
    private let maximumDepth: Int
    /// Each document's pointer, by its index (`TakenItem.document`).
    private let pointers: [JSONPointer?]

    init(_ pending: JSONPendingRecord, location: SourceLocation, maximumDepth: Int, pointers: [JSONPointer?]) {
        self.pending = pending
        self.location = location
        self.maximumDepth = maximumDepth
        self.pointers = pointers
    }

    func documentPointer(of item: TakenItem) -> JSONPointer? {
        guard let document = item.document, pointers.indices.contains(document) else { return nil }
        return pointers[document]
    }

    func record(of item: TakenItem) -> Record {
        var record = Record(
            collection: pending.collection, documentID: pending.documentID, value: .null,
            location: pending.recordLocation(location),
            locator: JSONFieldLocator(bytes: pending.bytes, window: 0..<pending.count, start: pending.start))
        record.nesting = pending.nesting
        return record
    }

    func parsedRecord(of item: TakenItem) -> Record {
        // The taker took the bytes only when they parse; the record without its value is the
        // fallback of a parse that would fail all the same.
        (try? pending.record(location: location, maximumDepth: maximumDepth, stacks: JSONParseStacks()))
            ?? record(of: item)
    }
}

extension JSONDocumentReader {
    /// The object or array at the current position held unparsed, when the bracket scan closes it
    /// within half the record limit and under `ChunkedInput.handOverSize` (a larger one is read by
    /// `readRecord`, which hands the buffer over rather than copy it); the reader then stands
    /// after it. Nil for a scalar, a value cut short or that large.
    func pendingDocument(collection: String?, documentID: String?, index: Int, depth: Int, position: TextPosition?,
        nesting: RecordNesting?) throws -> JSONPendingRecord?
    {
        guard let byte = try input.peek(), byte == JSONSyntax.openBrace || byte == JSONSyntax.openBracket else { return nil }
        var keep: Int? = nil
        let limit = min(maximumRecordSize / 2, ChunkedInput.handOverSize)
        guard let end = try scanContainer(keeping: &keep, limit: limit), end - input.pos < limit else { return nil }
        let start = input.position(at: input.pos)
        let from = input.pos
        input.pos = end
        let (bytes, isFinal) = try copyWithLookAhead(from: from)
        return JSONPendingRecord(
            bytes: bytes, count: end - from, start: start, isFinal: isFinal, depth: depth, collection: collection,
            documentID: documentID, index: index, position: position, nesting: nesting)
    }
}
