import FerryCore

/// Reads JSON Lines (one JSON value per line, LF or CRLF) as a stream of records.
///
/// - Blank lines (nothing but whitespace) are skipped.
/// - The first non-blank line is the header when it is an object holding only `domain` (a
///   string) and/or `schemaVersion` (an integer): it fills `header` and is not a record.
/// - A record's `"$collection"` member (a string) names its collection and is removed from the
///   value; without it (or when it is not a string, in which case it stays in the value) the
///   collection is `options.collection`. A line naming `$collection` twice keeps both members in
///   its value (the first still names the collection), so that reading the record reports the
///   second as any member given twice is reported.
/// - A line that is not valid JSON is reported to the log (`malformed-json`, `invalid-encoding`,
///   `too-deep` or `too-large`, with its physical line and column) and reading resumes at the
///   next line (DESIGN.md "Syntax errors").
///
/// A record's location is the start of its line (column 1), its `recordIndex` counts the
/// records of its collection from 0, and its locator rescans a copy of the line (for a line a
/// `RawRecordTaker` took, the line where it stands in its batch: `JSONLineLocator`).
public final class JSONLinesReader: BatchRecordReader {
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    /// What the header line said, if there was one.
    @exclusivity(unchecked) public private(set) var header = DatasetHeader()

    private let input: ChunkedInput
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let maximumLineSize: Int
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var sawContent = false
    @exclusivity(unchecked) private var lineNumber = 0
    @exclusivity(unchecked) private var counts = KeyedCounter()
    @exclusivity(unchecked) private var unnamedCount = 0
    /// The bytes of the last batch cut (`nextBatch(limit:)`).
    @exclusivity(unchecked) private var lastBatchSize = 0
    /// The parser's container stacks, reused for every line.
    private let stacks = JSONParseStacks()

    /// - Parameters:
    ///   - source: the input's bytes.
    ///   - options: `fileName` and `member` for locations, `collection` for lines without
    ///     `$collection`, `maximumDepth` for the nesting limit.
    ///   - log: where bad lines are reported.
    ///   - chunkSize: bytes asked of the source per read.
    ///   - maximumLineSize: the longest line (in bytes) held in memory; a longer one is reported
    ///     `too-large` and skipped (Docs/json.md "Limits").
    public init(
        source: any ByteSource, options: ReadOptions = ReadOptions(), log: DiagnosticLog,
        chunkSize: Int = 64 * 1024, maximumLineSize: Int = 256 * 1024 * 1024
    ) {
        self.input = ChunkedInput(source: source, chunkSize: chunkSize, tracksPositions: false)
        self.options = options
        self.log = log
        self.maximumLineSize = maximumLineSize
    }

    /// The next record, or nil at the end of the input.
    /// - Throws: `FerryError(.invalidEncoding)` when the input is UTF-16 or UTF-32; the source's
    ///   read errors. Bad lines are reported to the log, not thrown.
    public func next() throws -> Record? {
        if !started {
            started = true
            try input.skipByteOrderMark(at: options.inputLocation)
        }
        while true {
            guard let extent = try input.nextLine(limit: maximumLineSize) else { return nil }
            lineNumber += 1
            let lineStart = TextPosition(line: lineNumber, column: 1)
            if extent.truncated {
                var location = options.inputLocation
                location.position = lineStart
                log.report(.error(.tooLarge, "a line longer than \(maximumLineSize) bytes (the documented limit)", at: location))
                sawContent = true
                continue
            }
            let range = extent.range
            let parsed: (value: Value, collection: String?)?
            do {
                parsed = try input.withBytes { p -> (value: Value, collection: String?)? in
                    let first = JSONSyntax.skipWhitespace(in: p, from: range.lowerBound, to: range.upperBound)
                    if first == range.upperBound { return nil }
                    var parser = JSONParser(
                        bytes: p, range: range, basePosition: lineStart, location: options.inputLocation,
                        maximumDepth: options.maximumDepth, stacks: stacks, takesCollection: true)
                    do {
                        return (try parser.parseDocument(), parser.collection)
                    } catch let error as FerryError {
                        throw FerryError(JSONCutShort.lineError(
                            error, bytes: p, range: range, number: lineNumber, endsInput: extent.endsInput,
                            maximumDepth: options.maximumDepth))
                    }
                }
            } catch let error as FerryError {
                log.report(error.diagnostic)
                sawContent = true
                continue
            }
            guard let parsed else { continue }
            let start = TextPosition(line: lineNumber, column: 1)
            if let record = record(
                from: parsed.value, collection: parsed.collection, lineNumber: lineNumber,
                locator: JSONFieldLocator(bytes: input.copy(range), start: start))
            {
                return record
            }
        }
    }

    /// The record a parsed, non-blank line holds, or nil for the header line: takes the header
    /// and the record index (state that runs through the input in order). `taken` is the
    /// `$collection` the parser took out of the value (`JSONParser(takesCollection:)`).
    private func record(
        from value: Value, collection taken: String?, lineNumber: Int, locator: @autoclosure () -> any FieldLocating
    ) -> Record? {
        let isFirst = !sawContent
        sawContent = true
        // A line that had a `$collection` member is never the header.
        if isFirst, taken == nil, let header = Self.header(in: value) {
            self.header = header
            return nil
        }
        let collection = taken ?? options.collection
        let index = takeRecordIndex(in: collection)
        let location = SourceLocation(
            file: options.fileName, member: options.member, line: lineNumber, column: 1,
            collection: collection, recordIndex: index)
        return Record(collection: collection, value: value, location: location, locator: locator())
    }

    /// The next record index of `collection` (records of no collection are counted on their own).
    private func takeRecordIndex(in collection: String?) -> Int {
        guard let collection else {
            unnamedCount += 1
            return unnamedCount - 1
        }
        return counts.postIncrement(collection)
    }

    // MARK: Batches (--jobs)

    /// The lines that follow, at most `limit` of them (and about 4 MiB), copied out for
    /// `JSONLinesBatch.parse()` to parse on any thread; nil at the end of the input.
    public func nextBatch(limit: Int) throws -> (any RecordBatch)? {
        if !started {
            started = true
            try input.skipByteOrderMark(at: options.inputLocation)
        }
        var bytes: [UInt8] = []
        // About the previous batch's size: the lines are copied in without growing the buffer.
        bytes.reserveCapacity(lastBatchSize + lastBatchSize / 8)
        var lines: [JSONLinesBatch.Line] = []
        lines.reserveCapacity(limit)
        while lines.count < limit, bytes.count < 4 << 20 {
            // The lines already read in, in one pass; `nextLine` reads the one the buffer cuts.
            input.takeBufferedLines(while: { lines.count < limit && bytes.count < 4 << 20 }) { line in
                lineNumber += 1
                let start = bytes.count
                bytes.append(contentsOf: line)
                lines.append(JSONLinesBatch.Line(start: start, end: bytes.count, number: lineNumber, truncated: false))
            }
            guard lines.count < limit, bytes.count < 4 << 20 else { break }
            guard let extent = try input.nextLine(limit: maximumLineSize) else { break }
            lineNumber += 1
            let start = bytes.count
            if !extent.truncated {
                input.withBytes { p in bytes.append(contentsOf: UnsafeBufferPointer(rebasing: p[extent.range])) }
            }
            lines.append(JSONLinesBatch.Line(
                start: start, end: bytes.count, number: lineNumber, truncated: extent.truncated, endsInput: extent.endsInput))
        }
        guard !lines.isEmpty else { return nil }
        lastBatchSize = bytes.count
        return JSONLinesBatch(
            bytes: bytes, lines: lines, location: options.inputLocation, maximumDepth: options.maximumDepth,
            defaultCollection: options.collection)
    }

    /// The records and problems of a parsed batch, exactly as `next()` gives and reports them.
    public func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        guard let batch = batch as? JSONLinesBatch else { return [] }
        var items: [RecordBatchItem] = []
        items.reserveCapacity(batch.lines.count)
        for (index, line) in batch.lines.enumerated() {
            switch batch.take(index) {
            case .tooLarge:
                var location = options.inputLocation
                location.position = TextPosition(line: line.number, column: 1)
                items.append(.problem(.error(.tooLarge, "a line longer than \(maximumLineSize) bytes (the documented limit)", at: location)))
                sawContent = true
            case .problem(let diagnostic):
                items.append(.problem(diagnostic))
                sawContent = true
            case .failure(let error):
                items.append(.failure(error))
                return items
            case .blank:
                continue
            case .value(let value, let collection, let locatorBytes):
                let start = TextPosition(line: line.number, column: 1)
                if let record = record(
                    from: value, collection: collection, lineNumber: line.number,
                    locator: JSONFieldLocator(bytes: locatorBytes, start: start))
                {
                    items.append(.record(record))
                }
            case .taken(let taken):
                appendTaken(taken, line: line, in: batch, to: &items)
            }
        }
        return items
    }

    /// Appends the item of a line the `RawRecordTaker` took (its record, made when asked, is the
    /// one `record(from:...)` makes of a parsed line, with a null value); nothing for the header
    /// line.
    @inline(__always)
    private func appendTaken(_ taken: TakenRecord, line: JSONLinesBatch.Line, in batch: JSONLinesBatch,
        to items: inout [RecordBatchItem])
    {
        let range = line.start..<line.end
        // The first line may be the header, which is never a record (a taker would not take one,
        // but the header rule is the reader's): parse it to see.
        if !sawContent, taken.collection == nil, let header = headerLine(Array(batch.bytes[range])) {
            self.header = header
            sawContent = true
            return
        }
        sawContent = true
        let collection = taken.collection ?? options.collection
        let index = takeRecordIndex(in: collection)
        items.append(.taken(TakenItem(
            payload: taken.payload, collection: collection, recordIndex: index,
            start: TextPosition(line: line.number, column: 1), singleLine: line.number, span: range, source: batch)))
    }

    /// The header the bytes of a line hold, if they parse as one.
    private func headerLine(_ bytes: [UInt8]) -> DatasetHeader? {
        bytes.withUnsafeBufferPointer { p -> DatasetHeader? in
            var parser = JSONParser(
                bytes: p, range: 0..<p.count, location: options.inputLocation, maximumDepth: options.maximumDepth,
                takesCollection: true)
            guard let value = try? parser.parseDocument(), parser.collection == nil else { return nil }
            return Self.header(in: value)
        }
    }

    /// The header a line holds: an object with only `domain` (a string) and/or `schemaVersion`
    /// (an integer), at least one of them.
    static func header(in value: Value) -> DatasetHeader? {
        guard case .object(let object) = value, !object.isEmpty else { return nil }
        var header = DatasetHeader()
        for member in object {
            switch member.key {
            case "domain":
                guard let domain = member.value.stringValue else { return nil }
                header.domain = domain
            case "schemaVersion":
                guard let version = member.value.int64Value, let exact = Int(exactly: version) else { return nil }
                header.schemaVersion = exact
            default:
                return nil
            }
        }
        return header
    }
}
