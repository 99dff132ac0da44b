import FerryCore

/// `--jobs N` for JSON documents: the elements of a collection array (an envelope's
/// `"<collection>": [...]` or a top-level array) are cut into batches by a structural scan of
/// their bytes, which pairs brackets outside strings and nothing else; worker threads parse each
/// element (`JSONDocumentBatch.parse(offering:)`). Everything else the document holds (the
/// envelope's members, scalar elements, objects keyed by document id, Firestore collection maps,
/// the closing brackets and what follows them) is read by `next()` on the calling thread, and
/// its records travel in batches of their own, so the order is that of `next()` throughout.
///
/// Why a scanned element parses as `next()` would parse it: a valid value ends where its
/// brackets pair up, so the scan's end is the parser's. An element that is not valid JSON fails
/// in the worker's parser at the same byte with the same message, since the parser reads the
/// same bytes up to it (the batch keeps a few bytes after its last element for the parser's
/// look-ahead); that failure ends the reading as `next()`'s error would. An element the scan
/// cannot close (a truncated document) or larger than `spanLimit` is left to `next()`.
extension JSONDocumentReader: BatchRecordReader {
    /// The most bytes of elements a batch holds (a few MB in flight per job at most).
    static let batchBytes = 4 << 20
    /// The most input a batch of records read by `next()` spans before it is handed out.
    static let readyBytes = 256 << 10
    /// Bytes kept after a batch's last element, for the parser's look-ahead at an error (a
    /// literal such as `false`, a UTF-8 sequence).
    static let lookAhead = 8

    /// A JSON document's object elements are offered to a `RawRecordTaker` (the typed path), so
    /// batches are worth cutting with one job too.
    public var takesRawRecords: Bool { true }

    /// True inside a top-level array: its elements are all of `options.collection`. Not after
    /// it (nothing comes then, but an envelope's end looks the same) nor in an envelope.
    public var remainingRecordsShareCollection: Bool {
        switch state {
        case .element(let collection), .afterElement(let collection): return !collection.inEnvelope
        default: return false
        }
    }

    /// The records that follow, at most `limit`: the elements of a collection array as spans of
    /// bytes for a worker to parse, or records `next()` read; nil at the end of the document.
    public func nextBatch(limit: Int) throws -> (any RecordBatch)? {
        if failure != nil { return nil }
        var entries: [JSONDocumentBatch.Entry] = []
        // Room for a whole batch at once: grown by doubling, the array was copied about seven
        // times a batch.
        entries.reserveCapacity(limit)
        // The buffer offset of the first element's first byte; spans are stored relative to it.
        var first: Int? = nil
        // The line and column of `first`.
        var firstPosition = TextPosition(line: 1, column: 1)
        let spanLimit = min(Self.batchBytes, maximumRecordSize / 4)
        let startOffset = input.offset
        // The collection array the spans are elements of: one a batch, since `next()` reads on
        // only before the first span and a batch ends with its array.
        var spansCollection: Collection? = nil
        while entries.count < limit {
            // A run of a collection array's elements, its collection held here and put back in
            // `state` once the run ends (or a read throws): set and taken apart for every element,
            // the state's enum was copied and destroyed twice a record on the calling thread.
            var run: (collection: Collection, afterElement: Bool)? = nil
            switch state {
            case .afterElement(let collection): run = (collection, true)
            case .element(let collection): run = (collection, false)
            default: break
            }
            if var (collection, afterElement) = run {
                defer { state = afterElement ? .afterElement(collection) : .element(collection) }
                while entries.count < limit {
                    if afterElement {
                        try skipWhitespace(keeping: &first)
                        guard input.pos < input.end, input.buffer[input.pos] == JSONSyntax.comma else { break }
                        input.pos += 1
                        afterElement = false
                    }
                    try skipWhitespace(keeping: &first)
                    guard input.pos < input.end,
                        input.buffer[input.pos] == JSONSyntax.openBrace || input.buffer[input.pos] == JSONSyntax.openBracket,
                        first.map({ input.pos - $0 < Self.batchBytes }) ?? true,
                        let end = try scanContainer(keeping: &first, limit: spanLimit)
                    else { break }
                    let start = input.pos
                    // Only the batch's first element is placed here; the worker places the others
                    // from it (`JSONDocumentBatch.parse(offering:)`), off the calling thread.
                    if first == nil { firstPosition = input.position(at: start) }
                    let base = first ?? start
                    first = base
                    if spansCollection == nil { spansCollection = collection }
                    entries.append(.span(JSONDocumentBatch.Span(
                        range: (start - base)..<(end - base), index: collection.index)))
                    input.pos = end
                    collection.index += 1
                    afterElement = true
                }
            }
            if entries.count >= limit { break }
            // Read by `next()`: only before the batch's first span, whose bytes it might drop.
            if first != nil { break }
            do {
                guard let item = try nextItem(deferring: true) else { break }
                switch item {
                case .record(let record): entries.append(.ready(record))
                case .pending(let pending): entries.append(.pending(pending))
                }
                // Records read whole here (a Firestore word book with its words) can be large: the
                // batch stops at `readyBytes` of input, so the batches in flight stay small.
                if input.offset - startOffset >= Self.readyBytes { break }
            } catch {
                entries.append(.failure(error))
                break
            }
        }
        if entries.isEmpty { return nil }
        var bytes: [UInt8] = []
        var isFinal = true
        if let first { (bytes, isFinal) = try copyWithLookAhead(from: first) }
        return JSONDocumentBatch(
            bytes: bytes, start: firstPosition, entries: entries, collection: spansCollection?.name,
            depth: spansCollection?.inEnvelope == true ? 2 : 1,
            isFinal: isFinal, location: options.inputLocation, maximumDepth: options.maximumDepth,
            inputBytes: input.offset - startOffset)
    }

    /// The records of a parsed batch; an error in it ends the reading, as `next()`'s would.
    public func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? JSONDocumentBatch else { return [] }
        let items = batch.takeItems()
        if case .failure(let error) = items.last {
            failure = error
            state = .finished
        }
        return items
    }

    /// A copy of the bytes from `from` to `lookAhead` bytes past `input.pos` (fewer where the
    /// input ends), reading more as needed; and whether it reaches the end of the input.
    func copyWithLookAhead(from: Int) throws -> (bytes: [UInt8], isFinal: Bool) {
        var from = from
        while input.end - input.pos < Self.lookAhead, !input.isExhausted {
            let (shift, added) = try input.fill(keeping: from)
            from -= shift
            if !added { break }
        }
        let upTo = min(input.end, input.pos + Self.lookAhead)
        return (input.copy(from..<upTo), input.isExhausted && upTo == input.end)
    }

    /// Skips JSON whitespace, reading more while keeping the bytes from `first` (when set) on.
    private func skipWhitespace(keeping first: inout Int?) throws {
        while true {
            // Offsets read before the call: `input.pos` written from a closure reading it cost a
            // runtime exclusivity check per element.
            let from = input.pos
            let end = input.end
            input.pos = input.withBytes { JSONSyntax.skipWhitespace(in: $0, from: from, to: end) }
            if input.pos < input.end { return }
            let (shift, added) = try input.fill(keeping: first ?? input.pos)
            first = first.map { $0 - shift }
            if !added { return }
        }
    }

    /// The offset one past the bracket closing the object or array at `input.pos`, reading more
    /// as needed (keeping the bytes from `first` on); nil when the input ends first or the value
    /// runs over `limit` bytes. `input.pos` does not move.
    func scanContainer(keeping first: inout Int?, limit: Int) throws -> Int? {
        var scan = BracketScan()
        var i = input.pos
        while true {
            let (next, closed) = input.withBytes { scan.run(over: $0, from: i, to: input.end) }
            if closed { return next }
            i = next
            if i - input.pos > limit { return nil }
            let (shift, added) = try input.fill(keeping: first ?? input.pos)
            i -= shift
            first = first.map { $0 - shift }
            if !added { return nil }
        }
    }
}

/// Records cut from a JSON document by `JSONDocumentReader.nextBatch(limit:)`: elements of a
/// collection array to parse on any thread, or records the reader read itself.
final class JSONDocumentBatch: RecordBatch, TakenRecordSource, @unchecked Sendable {
    // @unchecked: `parse(offering:)` writes `items` once, on one thread; `takeItems()` runs after it.

    /// One element of the batch's collection array: its bytes (`range`, in `bytes`) and its index
    /// in the array. The collection is the batch's (`collection`), named once, not by every span;
    /// the line and column of its first byte are counted by `parse(offering:)` from `start`.
    struct Span {
        var range: Range<Int>
        var index: Int
    }

    /// The rare record and pending document are boxed (`indirect`): an entry is then the size of
    /// a span, which nearly every entry is, not of a `Record`.
    enum Entry {
        case span(Span)
        /// A record `next()` returned.
        indirect case ready(Record)
        /// A document `next()` would have parsed, for the worker to parse.
        indirect case pending(JSONPendingRecord)
        /// What `next()` threw; nothing follows it.
        case failure(any Error)
    }

    private let bytes: [UInt8]
    /// The line and column of `bytes[0]`, the first span's first byte (when there are spans).
    private let start: TextPosition
    private let entries: [Entry]
    /// The collection whose array the spans are elements of (nil: a top-level array of none).
    private let collection: String?
    /// Containers open around each span's element (2 in an envelope, 1 in a top-level array).
    private let depth: Int
    /// True when `bytes` reach the end of the input.
    private let isFinal: Bool
    private let location: SourceLocation
    private let maximumDepth: Int
    private var items: [RecordBatchItem] = []

    /// The input the batch spans: its elements, and the records `next()` read for it.
    let inputBytes: Int

    init(bytes: [UInt8], start: TextPosition, entries: [Entry], collection: String?, depth: Int, isFinal: Bool,
        location: SourceLocation, maximumDepth: Int, inputBytes: Int)
    {
        self.inputBytes = inputBytes
        self.bytes = bytes
        self.start = start
        self.entries = entries
        self.collection = collection
        self.depth = depth
        self.isFinal = isFinal
        self.location = location
        self.maximumDepth = maximumDepth
    }

    /// `items(from:)` gives the parsed items as they are (it only notes a failure).
    var itemsAsParsed: [RecordBatchItem]? { items }

    /// The items, once (the batch lets go of them).
    func takeItems() -> [RecordBatchItem] {
        defer { items = [] }
        return items
    }

    /// Parses every span as `JSONDocumentReader.next()` parses an element, first offering each
    /// element of a named collection to `taker`: an element it takes is not parsed.
    func parse(offering taker: (any RawRecordTaker)?) {
        let stacks = JSONParseStacks()
        var results: [RecordBatchItem] = []
        results.reserveCapacity(entries.count)
        // The batch's records hold their own copy of the file's path and the collection's name
        // (`String.separateCopy()`).
        var location = self.location
        location.file = location.file?.separateCopy()
        location.member = location.member?.separateCopy()
        let collection = self.collection?.separateCopy()
        bytes.withUnsafeBufferPointer { p in
            // Each span's position, counted on from the last span's as the reader's cursor counts.
            var position = start
            var positionOffset = 0
            for entry in entries {
                switch entry {
                case .ready(let record):
                    results.append(.record(record))
                case .failure(let error):
                    results.append(.failure(error))
                    return
                case .pending(let pending):
                    // A bundle member's nested records go the usual way: their diagnostics are placed
                    // in the member by what the bundle's reader adds to them.
                    if let taker, location.member == nil, let taken = pending.offer(to: taker, maximumDepth: maximumDepth) {
                        let payloads = taken.payload..<(taken.payload + taken.count)
                        let source = JSONPendingSource(pending, location: location, maximumDepth: maximumDepth,
                            pointers: payloads.map { taker.documentPointer(of: $0) })
                        for payload in payloads {
                            results.append(.taken(TakenItem(
                                payload: payload, collection: pending.collection,
                                recordIndex: pending.index, start: pending.start, span: 0..<pending.count,
                                source: source, document: payload - taken.payload)))
                        }
                        continue
                    }
                    do {
                        results.append(.record(
                            try pending.record(location: location, maximumDepth: maximumDepth, stacks: stacks)))
                    } catch {
                        results.append(.failure(error))
                        return
                    }
                case .span(let span):
                    position = ByteBlock.advance(position, in: p, from: positionOffset, to: span.range.lowerBound)
                    positionOffset = span.range.lowerBound
                    if let taker, let collection,
                        let taken = taker.take(.jsonElement(UnsafeBufferPointer(rebasing: p[span.range]), start: position,
                            collection: collection, maximumDepth: maximumDepth - depth))
                    {
                        results.append(.taken(TakenItem(
                            payload: taken.payload, collection: collection, recordIndex: span.index, start: position,
                            singleLine: 0, span: span.range, source: self)))
                        continue
                    }
                    do {
                        results.append(.record(
                            try record(span, at: position, collection: collection, in: p, location: location, stacks: stacks)))
                    } catch {
                        results.append(.failure(error))
                        return
                    }
                }
            }
        }
        items = results
    }

    /// The record of a span the taker took, as `record(_:...)` makes it but with a null value.
    func record(of item: TakenItem) -> Record {
        Record(
            collection: item.collection, documentID: nil, value: .null,
            location: SourceLocation(
                file: location.file, member: location.member, line: item.start.line, column: item.start.column,
                collection: item.collection, recordIndex: item.recordIndex),
            locator: JSONFieldLocator(bytes: bytes, window: item.span, start: item.start))
    }

    /// The record of `span`, or the error `next()` would throw reading it. Its locator is a window
    /// on the batch's bytes (as a JSON Lines record's is), not a copy of them.
    private func record(_ span: Span, at start: TextPosition, collection: String?, in p: UnsafeBufferPointer<UInt8>,
        location: SourceLocation, stacks: JSONParseStacks) throws -> Record
    {
        let value = try Self.parseValue(
            in: p, range: span.range, start: start, location: location, maximumDepth: maximumDepth, depth: depth,
            isFinal: isFinal, stacks: stacks)
        let recordLocation = SourceLocation(
            file: location.file, member: location.member, line: start.line, column: start.column,
            collection: collection, recordIndex: span.index)
        return Record(
            collection: collection, documentID: nil, value: value, location: recordLocation,
            locator: JSONFieldLocator(bytes: bytes, window: span.range, start: start))
    }

    /// Parses the value a bracket scan found in `range` of `p` (the bytes after it up to `p`'s end
    /// are look-ahead), as the reader parses it in place: the same value, or the same error.
    static func parseValue(in p: UnsafeBufferPointer<UInt8>, range: Range<Int>, start: TextPosition,
        location: SourceLocation, maximumDepth: Int, depth: Int, isFinal: Bool, stacks: JSONParseStacks) throws -> Value
    {
        var parser = JSONParser(
            bytes: p, range: range.lowerBound..<p.count, basePosition: start, location: location,
            maximumDepth: maximumDepth, initialDepth: depth, isFinal: isFinal, stacks: stacks)
        let value: Value
        do {
            value = try parser.parseValue()
        } catch is JSONNeedsMoreInput {
            // Only an error right at the end of the look-ahead gets here: the bytes there are all
            // there is to describe it by.
            var last = JSONParser(
                bytes: p, range: range.lowerBound..<p.count, basePosition: start, location: location,
                maximumDepth: maximumDepth, initialDepth: depth, isFinal: true, stacks: stacks)
            value = try last.parseValue()
            parser = last
        }
        guard parser.index == range.upperBound else {
            // A valid value ends where its brackets pair up: the scan and the parser agree.
            throw FerryError(.internalError, "a JSON document's element ended where its scan did not", at: location)
        }
        return value
    }
}
