import FerryCore

/// `--jobs N` for XML: the record elements of each collection are cut into batches by a
/// structural scan of their bytes (`XMLRecordScan`) on the calling thread, and worker threads
/// parse each batch with libxml2 into records (`XMLBatch.parse(offering:)`) through the same
/// SAX handler as `next()`. Everything else (the prolog, the root and collection tags, markup
/// between collections, records the scan cannot cut) is parsed by the reader's own parser on the
/// calling thread, which reads a batch's bytes as the blank lines and spaces that leave its line
/// and column where the records would (`XMLSafeParser.feedBlank`). Its records and problems go
/// into the batches in input order, so the order is that of `next()` throughout.
///
/// Why a batch parses as the whole document would: its parser first reads `<dataset>` and the
/// collection's start tag at their lines and columns in the document (`XMLSafeParser`'s batch
/// initializer), then the records from the line and column where the first starts, so libxml2's
/// element stack, positions and messages are those of the whole parse. A batch ends at the `>`
/// closing a record and holds nothing but records and the whitespace between them; a document
/// that is not well-formed inside a batch fails in the worker's libxml2 at the same byte with the
/// same message, and that failure ends the reading as `next()`'s error would. What the scan does
/// not follow (a CR, a DOCTYPE, namespace declarations, an encoding other than UTF-8, a record
/// that does not end before the input does or that is over `batchBytes`) ends the cutting: the
/// rest of the document is read by `next()`.
extension XMLRecordReader: BatchRecordReader {
    /// The most bytes of records a batch holds (a few MB in flight per job at most).
    static let batchBytes = 4 << 20
    /// Bytes read from the source at a time while cutting.
    static let readSize = 1 << 18

    /// An XML document's records are offered to a `RawRecordTaker` once parsed
    /// (`RawRecord.parsedText`), with one job too.
    public var takesRawRecords: Bool { true }

    /// The records that follow, at most `limit`: a stretch of record elements for a worker to
    /// parse, after the records and problems the reader's own parser read before it; nil once
    /// the cutting has ended (`next()` reads the rest).
    /// - Throws: a read failure of the source.
    public func nextBatch(limit: Int) throws -> (any RecordBatch)? {
        guard let parser, batchFailure == nil else { return nil }
        if cutting == nil {
            guard let content = parser.unparsedContent() else {
                cutting = XMLBatchCutting(window: [], absoluteStart: 0, position: TextPosition(line: 1, column: 1))
                cutting?.isDone = true
                return nil
            }
            cutting = XMLBatchCutting(window: content.bytes, absoluteStart: parser.fedBytes - content.bytes.count,
                                      position: content.position)
        }
        guard let cut = cutting, !cut.isDone else { return nil }
        var ready: [RecordBatchItem] = []
        while queueHead < queue.count {
            if let record = queue[queueHead].take() { ready.append(.record(record)) }
            queueHead += 1
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        collected = ready
        defer { collected = nil }
        cut.compact()
        while true {
            if let failure = parser.failure {
                collected?.append(.failure(FerryError(failure)))
                cut.isDone = true
                break
            }
            if collected?.count ?? 0 >= limit { break }
            // The next markup.
            guard let q = try cut.nextLessThan(parser.source) else {
                endCutting(cut, parser)
                break
            }
            let canCut = depth == 2 && q >= cut.fed && !parser.needsWholeDocument && collectionTag != nil
                && cut.window.withUnsafeBufferPointer { XMLRecordScan.startsElement($0, at: q) }
            if canCut, let batch = try cutRecords(at: q, limit: limit - (collected?.count ?? 0), cut, parser) {
                return batch
            }
            if cut.isDone { break }
            // Markup for the reader's own parser, one piece at a time (its depth decides what follows).
            switch try cut.token(at: q, parser.source) {
            case .startTag(let end, _), .endTag(let end), .other(let end):
                cut.feed(upTo: end, parser)
            case .incomplete, .unsupported:
                endCutting(cut, parser)
            }
            if cut.isDone { break }
        }
        let items = collected ?? []
        return items.isEmpty ? nil : XMLBatch(ready: items, segment: nil)
    }

    /// The records of a parsed batch; an error in it ends the reading, as `next()`'s would.
    public func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? XMLBatch else { return [] }
        let items = batch.takeItems()
        if case .failure(let error) = items.last {
            batchFailure = error
            cutting?.isDone = true
        }
        return items
    }

    /// Ends the cutting: the bytes read ahead go back to the reader's parser, for `next()`.
    private func endCutting(_ cut: XMLBatchCutting, _ parser: XMLSafeParser) {
        cut.isDone = true
        parser.setPending(Array(cut.window[cut.fed...]))
        cut.window = []
    }

    /// Cuts the records from the one whose `<` is at `start` into a batch, and has the reader's
    /// parser read them as blanks; nil when not even the first can be cut (then it is read by the
    /// reader's parser, or the cutting has ended).
    private func cutRecords(at start: Int, limit: Int, _ cut: XMLBatchCutting, _ parser: XMLSafeParser) throws -> XMLBatch? {
        // The reader's parser reads the whitespace before the first record, and tells where it stands.
        cut.feed(upTo: start, parser)
        guard parser.failure == nil, depth == 2, let collection, let collectionTag,
              let held = parser.unparsedContent() else { return nil }
        // Text before the record is reported where libxml2 reads it, at the record's `<`: the
        // reader's parser reads the record's start tag then.
        guard held.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }) else { return nil }
        let before = held.bytes.withUnsafeBufferPointer { XMLRecordScan.span($0, 0..<$0.count) }
        let position = before.newlines > 0
            ? TextPosition(line: held.position.line + before.newlines, column: before.columns + 1)
            : TextPosition(line: held.position.line, column: held.position.column + before.columns)
        var count = 0
        var end = start
        var i = start
        scanning: while count < limit {
            let element = cut.window.withUnsafeBufferPointer {
                XMLRecordScan.element(in: $0, from: i, limit: Self.batchBytes - (i - start))
            }
            switch element {
            case .complete(let next):
                count += 1
                (i, end) = (next, next)
            case .incomplete:
                // Scanned again from its `<` once more bytes are there.
                if try cut.readMore(parser.source) { continue scanning }
                break scanning
            case .unsupported:
                break scanning
            }
            // Only whitespace up to the next record keeps the batch going.
            while true {
                let next = cut.window.withUnsafeBufferPointer { bytes -> Int? in
                    var j = i
                    while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x0A || bytes[j] == 0x09 { j += 1 }
                    guard j + 1 < bytes.count else { return nil }
                    return XMLRecordScan.startsElement(bytes, at: j) && j - start < Self.batchBytes ? j : -1
                }
                guard let next else {
                    if try cut.readMore(parser.source) { continue }
                    break scanning
                }
                guard next >= 0 else { break scanning }
                i = next
                break
            }
        }
        let moved = cut.window.withUnsafeBufferPointer { XMLRecordScan.span($0, start..<end) }
        guard count > 0, !moved.hasCR else {
            // Not even one record: read by the reader's parser when it ended the input or grew too
            // big, or (a CR) when its lines are libxml2's to count: the cutting ends.
            endCutting(cut, parser)
            return nil
        }
        let bytes = Array(cut.window[start..<end])
        parser.feedBlank(newlines: moved.newlines, columns: moved.columns, skipped: end - start)
        cut.fed = end
        cut.scanned = end
        let index = nextRecordIndex
        nextRecordIndex = index + count
        let segment = XMLBatch.Segment(
            bytes: bytes, collection: collection, index: index, root: rootPosition, collectionTag: collectionTag,
            position: position, byteOffset: cut.absoluteStart + start, options: options)
        return XMLBatch(ready: collected ?? [], segment: segment)
    }
}

/// The bytes read ahead of the reader's parser while batches are cut, and how far they were fed.
final class XMLBatchCutting {
    /// Bytes from the source; those before `fed` were fed to the reader's parser.
    var window: [UInt8]
    var fed: Int
    /// Where the search for the next markup goes on.
    var scanned = 0
    /// The offset of `window[0]` in the document.
    var absoluteStart: Int
    /// True once the cutting has ended: `next()` reads the rest.
    var isDone = false
    private var exhausted = false

    /// - Parameters:
    ///   - window: bytes the reader's parser has but did not parse yet, at `position`.
    init(window: [UInt8], absoluteStart: Int, position: TextPosition) {
        self.window = window
        self.fed = window.count
        self.absoluteStart = absoluteStart
    }

    /// Drops the bytes before both `fed` and `scanned` once there are many.
    func compact() {
        let drop = min(fed, scanned)
        guard drop >= 1 << 20 else { return }
        window.removeFirst(drop)
        fed -= drop
        scanned -= drop
        absoluteStart += drop
    }

    /// Appends the next bytes of `source`; false at its end.
    func readMore(_ source: any ByteSource) throws -> Bool {
        guard !exhausted else { return false }
        let old = window.count
        window.append(contentsOf: repeatElement(0, count: XMLRecordReader.readSize))
        let n = try window.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[old...])) }
        window.removeLast(XMLRecordReader.readSize - n)
        if n == 0 { exhausted = true }
        return n > 0
    }

    /// The offset of the next `<` from `scanned` on, reading more as needed; nil at the end of
    /// the input.
    func nextLessThan(_ source: any ByteSource) throws -> Int? {
        while true {
            let found = window.withUnsafeBufferPointer { XMLRecordScan.nextLessThan(in: $0, from: scanned, end: $0.count) }
            if let found {
                // Whether a record starts here shows in the byte after the `<`.
                if found + 1 == window.count, try readMore(source) { continue }
                return found
            }
            scanned = window.count
            guard try readMore(source) else { return nil }
        }
    }

    /// The markup at `i`, reading more as needed.
    func token(at i: Int, _ source: any ByteSource) throws -> XMLRecordScan.Token {
        while true {
            let token = window.withUnsafeBufferPointer { XMLRecordScan.token(in: $0, at: i, end: $0.count) }
            if token != .incomplete { return token }
            guard try readMore(source) else { return .incomplete }
        }
    }

    /// Feeds the reader's parser the bytes up to `end` it has not had yet.
    func feed(upTo end: Int, _ parser: XMLSafeParser) {
        if end > fed {
            window.withUnsafeBytes { _ = parser.feed(UnsafeRawBufferPointer(rebasing: $0[fed..<end])) }
            fed = end
        }
        scanned = max(scanned, end)
    }
}

/// Records cut from an XML document by `XMLRecordReader.nextBatch(limit:)`: records and
/// problems the reader read itself, then a stretch of record elements to parse on any thread.
final class XMLBatch: RecordBatch, TakenRecordSource, @unchecked Sendable {
    // @unchecked: `parse(offering:)` writes `items` and `takenRecords` once, on one thread;
    // `takeItems()` and `record(of:)` run after it.

    /// Record elements of one collection with only whitespace between them, and where they stand.
    struct Segment {
        var bytes: [UInt8]
        var collection: String
        /// The index of the first record in its collection.
        var index: Int
        /// Where the root's and the collection's start tags are, and the latter's bytes.
        var root: TextPosition
        var collectionTag: (bytes: [UInt8], position: TextPosition)
        /// The line and column of the first record's `<`, and its offset in the document.
        var position: TextPosition
        var byteOffset: Int
        var options: ReadOptions
    }

    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var ready: [RecordBatchItem]
    private let segment: Segment?
    @exclusivity(unchecked) private var items: [RecordBatchItem] = []

    /// The record elements' bytes (the records the reader's own parser read are not counted: the
    /// scan leaves it only markup between collections and what it cannot cut).
    var inputBytes: Int { segment?.bytes.count ?? 0 }

    init(ready: [RecordBatchItem], segment: Segment?) {
        self.ready = ready
        self.segment = segment
    }

    /// True when the batch holds record elements for a worker (not only what the reader read).
    var hasRecordElements: Bool { segment != nil }

    /// The items, once (the batch lets go of them).
    func takeItems() -> [RecordBatchItem] {
        defer { items = [] }
        return items
    }

    /// Parses the segment's records as `XMLRecordReader.next()` would, then offers each record of
    /// a collection to `taker` (`RawRecord.parsedText`): one it takes is handed on with a null
    /// value (freed here, on the parsing thread).
    func parse(offering taker: (any RawRecordTaker)?) {
        var results = ready
        ready = []
        if let segment { results.append(contentsOf: Self.parse(segment)) }
        if let taker {
            for index in results.indices {
                guard case .record(var record) = results[index], record.collection != nil,
                      let taken = taker.take(.parsedText(record))
                else { continue }
                record.value = .null
                let location = record.location
                results[index] = .taken(TakenItem(
                    payload: taken.payload, collection: record.collection, recordIndex: location.recordIndex ?? 0,
                    start: TextPosition(line: location.line ?? 0, column: location.column ?? 0), singleLine: 0,
                    span: 0..<0, detail: takenRecords.count, source: self))
                takenRecords.append(record)
            }
        }
        items = results
    }

    /// The records of the items taken, with null values, for `record(of:)` (an item's `detail`
    /// is its index here): an XML record is parsed whole before it is offered, so it is kept as
    /// made rather than made again.
    @exclusivity(unchecked) private var takenRecords: [Record] = []

    func record(of item: TakenItem) -> Record { takenRecords[item.detail] }

    private static func parse(_ segment: Segment) -> [RecordBatchItem] {
        // The batch's records hold their own copy of the file's path and the collection's name
        // (`String.separateCopy()`).
        var options = segment.options
        options.fileName = options.fileName?.separateCopy()
        options.member = options.member?.separateCopy()
        let reader = XMLRecordReader(batchIn: segment.collection.separateCopy(), index: segment.index, options: options)
        let location = options.inputLocation
        do {
            let parser = try XMLSafeParser(
                batchAfter: segment.root, collectionTag: segment.collectionTag.bytes,
                collectionAt: segment.collectionTag.position, location: location, handler: reader)
            reader.parser = parser
            segment.bytes.withUnsafeBytes { parser.parseBatch($0, at: segment.position, byteOffset: segment.byteOffset) }
            var items = reader.collected ?? []
            if let failure = parser.failure {
                items.append(.failure(FerryError(failure)))
            } else if reader.depth != 2 || parser.unparsedContent()?.bytes.isEmpty != true {
                // The scan ended the batch where libxml2 did not end an element without an error:
                // a disagreement the scan is built not to have.
                items.append(.failure(FerryError(.internalError, "an XML batch's records did not end where their scan did", at: location)))
            }
            return items
        } catch {
            return [.failure(error)]
        }
    }
}
