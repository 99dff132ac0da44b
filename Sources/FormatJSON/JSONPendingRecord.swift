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
        let position = self.position ?? start
        var record = Record(
            collection: collection, documentID: documentID, value: value,
            location: SourceLocation(
                file: location.file, member: location.member, line: position.line, column: position.column,
                collection: collection, recordIndex: index),
            locator: JSONFieldLocator(bytes: bytes, window: 0..<count, start: start))
        record.nesting = nesting
        return record
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
