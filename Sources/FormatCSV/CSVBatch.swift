import FerryCore

/// Rows cut from a UTF-8 CSV input by `CSVReader.nextBatch(limit:)`, parsed on any thread with
/// the same scanner and decoder as `CSVReader.next()`; or the outcomes of rows the reader read
/// itself (then `parse()` has nothing to do).
///
/// Its records get their record index as they are parsed: the reader numbers the batch's rows
/// from `firstIndex` when it cuts the batch, counting every row but blank ones (the cutter counts
/// those), so that the calling thread does not touch each record again. Should a batch hold
/// another count than predicted, the reader renumbers the batches after it (`CSVReader.items(from:)`).
final class CSVBatch: RecordBatch, @unchecked Sendable {
    // @unchecked: `parse()` writes `items` once, on one thread; the reader waits for it first.

    /// The rows' bytes: whole rows, line ends included; `bytes[0]` is at absolute offset `base`
    /// and starts line `firstLine`.
    private let bytes: [UInt8]
    private let base: Int
    private let firstLine: Int
    private let delimiter: UInt8
    private let context: CSVRowContext?
    /// True when the batch's last byte is the input's (a CR there may have lost its LF to a cut).
    private let endsInput: Bool
    /// True when the input ends where it was cut (`CSVRowScanner.endsAtCut`).
    private let endsAtCut: Bool
    /// The record index of the batch's first row that is not blank.
    let firstIndex: Int
    /// The rows that take a record index (all but blank ones), as the cutter counted them.
    let predictedCount: Int
    /// The rows that took a record index, once parsed.
    private(set) var indexedCount = 0
    private var items: [RecordBatchItem]

    var inputBytes: Int { bytes.count }

    /// Raw rows to parse, numbered from `firstIndex`.
    init(bytes: [UInt8], base: Int, firstLine: Int, delimiter: UInt8, context: CSVRowContext, firstIndex: Int,
         predictedCount: Int, endsInput: Bool, endsAtCut: Bool) {
        self.endsInput = endsInput
        self.endsAtCut = endsAtCut
        self.bytes = bytes
        self.base = base
        self.firstLine = firstLine
        self.delimiter = delimiter
        self.context = context
        self.firstIndex = firstIndex
        self.predictedCount = predictedCount
        self.items = []
    }

    /// Outcomes the reader already has, numbered from `firstIndex`.
    init(outcomes: [CSVRowOutcome], firstIndex: Int) {
        self.bytes = []
        self.base = 0
        self.firstLine = 1
        self.delimiter = CSVReader.comma
        self.context = nil
        self.endsInput = false
        self.endsAtCut = false
        self.firstIndex = firstIndex
        self.items = []
        var index = firstIndex
        for outcome in outcomes { Self.append(outcome, index: &index, to: &items) }
        self.indexedCount = index - firstIndex
        self.predictedCount = indexedCount
    }

    /// The items in row order, once (the batch lets go of them).
    func takeItems() -> [RecordBatchItem] {
        defer { items = [] }
        return items
    }

    /// Adds the item of `outcome` (none for a blank row), numbering its record `index`, and counts
    /// the index as `CSVReader.next()` does (every row but blank ones takes one). False after a
    /// failure (reading stops there).
    @discardableResult
    private static func append(_ outcome: consuming CSVRowOutcome, index: inout Int, to items: inout [RecordBatchItem]) -> Bool {
        switch consume outcome {
        case .blank:
            return true
        case .problem(let diagnostic):
            items.append(.problem(diagnostic))
        case .record(var record):
            record.location.recordIndex = index
            items.append(.record(record))
        case .taken(var item):
            item.recordIndex = index
            items.append(.taken(consume item))
        case .failure(let error):
            items.append(.failure(error))
            index += 1
            return false
        }
        index += 1
        return true
    }

    /// Scans and decodes every row as `CSVReader.next()` does, first offering each row that makes a
    /// record to `taker` (not with `--infer-types`; see `CSVRowDecoder.outcome`). The batch holds
    /// whole rows and no unterminated quote (the cutter sees to it), so its end is the end of its
    /// last row.
    func parse(offering taker: (any RawRecordTaker)?) {
        guard let context, !bytes.isEmpty else { return }
        var scanner = CSVRowScanner(delimiter: delimiter, maximumRecordBytes: Int.max, offset: base, line: firstLine)
        scanner.bytesEndInput = endsInput
        scanner.endsAtCut = endsAtCut
        var decoder = CSVRowDecoder(context: context)
        let source = CSVRowSource(bytes: bytes, base: base, delimiter: delimiter, layout: context.layout,
                                  fields: context.expectedFields ?? 0, location: context.inputLocation)
        defer {
            scanner.deallocate()
            decoder.deallocate()
        }
        var results: [RecordBatchItem] = []
        results.reserveCapacity(predictedCount)
        var index = firstIndex
        bytes.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            while case .row = scanner.scan(p, base: base, count: buffer.count, atEnd: true) {
                for position in scanner.strayQuotes {
                    results.append(.problem(CSVRowScanner.strayQuoteWarning(at: context.location(position))))
                }
                // Handed on at once: tested first, the outcome was copied once more.
                let outcome = decoder.outcome(scanner, p, base: base, count: buffer.count, offeringTo: taker, source: source)
                if !Self.append(outcome, index: &index, to: &results) { break }
            }
        }
        items = results
        indexedCount = index - firstIndex
    }
}

/// Finds where rows end, fast, for `--jobs`: it follows the scanner's states (a quote opens a
/// quoted cell only at a cell's start; inside one, `""` is a quote; a quote in an unquoted cell
/// or text after a closing quote makes the rest of the cell plain text) but keeps no cells and no
/// columns, only the line count.
///
/// It gives up on a row (`bail`) the scanner must read with the whole input at hand: a quote that
/// is still open at the end of the input (unterminated: the scanner resyncs) and a row longer than
/// `rowLimit`.
struct CSVBatchCutter {
    enum Step {
        /// The batch ends at `offset` (the end of the input, or enough rows or bytes).
        case cut
        /// The bytes ran out inside a row: call again with more (and every byte from `batchStart`).
        case needMore
        /// The row at `offset` must be read by the scanner; the batch ends before it.
        case bail
    }

    private enum State { case fieldStart, unquoted, quoted, quotedQuote, garbage, afterCR }

    let delimiter: UInt8
    let rowLimit: Int
    /// Where the batch starts (absolute), after the LF of a CRLF the previous row ended with.
    private(set) var batchStart: Int
    /// The end of the rows cut so far: the next row's start.
    private(set) var offset: Int
    /// The line `offset` is on.
    private(set) var line: Int
    /// The rows cut so far.
    private(set) var rows = 0
    /// The rows among them that hold nothing but their line break (the decoder's blank rows).
    private(set) var blankRows = 0
    /// The line `batchStart` is on.
    let firstLine: Int
    private var pendingLF: Bool
    private var scanPoint: Int
    private var rowLine: Int
    private var state = State.fieldStart

    /// - Parameters:
    ///   - offset: a row start (absolute), on line `line`.
    ///   - pendingLF: the row before ended with CR, so an LF at `offset` still belongs to it.
    init(delimiter: UInt8, rowLimit: Int, offset: Int, line: Int, pendingLF: Bool) {
        self.delimiter = delimiter
        self.rowLimit = rowLimit
        self.batchStart = offset
        self.offset = offset
        self.line = line
        self.pendingLF = pendingLF
        self.scanPoint = offset
        self.rowLine = line
        self.firstLine = line
    }

    /// Cuts rows until `maximumRows` rows or `maximumBytes` bytes, the end of the input, or a row
    /// to bail on. `p[0]` is at absolute offset `base`; `count` bytes; `atEnd`: nothing follows.
    mutating func cut(_ p: UnsafePointer<UInt8>, base: Int, count: Int, atEnd: Bool, maximumRows: Int,
                      maximumBytes: Int) -> Step {
        var i = scanPoint - base
        if pendingLF {
            if i == count { return atEnd ? .cut : .needMore }
            pendingLF = false
            if p[i] == CSVReader.lf { i += 1 }
            batchStart = base + i
            offset = batchStart
            scanPoint = offset
        }
        let delimiter = self.delimiter
        let quote = CSVReader.quote, cr = CSVReader.cr, lf = CSVReader.lf
        let quotes = CSVByteSearch.broadcast(quote)
        var state = self.state
        var line = self.rowLine
        defer {
            self.state = state
            self.scanPoint = base + i
            self.rowLine = line
        }
        while rows < maximumRows && offset - batchStart < maximumBytes {
            if i == count {
                if base + i == offset {
                    // Between rows.
                    return atEnd ? .cut : .needMore
                }
                if base + i - offset > rowLimit { return .bail }
                if !atEnd { return .needMore }
                // The input ends inside the row: its end, unless a quote is open.
                if state == .quoted { return .bail }
                finishRow(at: base + i, line: line, &state)
                return .cut
            }
            let b = p[i]
            switch state {
            case .fieldStart, .unquoted, .garbage:
                // Outside quotes only a quote and a line break matter, and a quote opens a quoted
                // cell only at a cell's start (the row's start or after a delimiter): delimiters
                // need no stop of their own. (The search also stops at other control bytes,
                // which are text.)
                i = CSVByteSearch.firstStop(in: p, from: i, to: count, quote, quotes)
                if i == count { continue }
                let c = p[i]
                if c != quote && c != lf && c != cr {
                    i += 1
                } else if c == quote {
                    let opens = base + i == offset || p[i - 1] == delimiter
                    state = opens ? .quoted : .garbage
                    i += 1
                } else {
                    if base + i == offset { blankRows += 1 }
                    line += 1
                    i += 1
                    if c == lf {
                        finishRow(at: base + i, line: line, &state)
                    } else {
                        state = .afterCR
                    }
                }
            case .quoted:
                i = CSVByteSearch.firstStop(in: p, from: i, to: count, quote, quotes)
                if i == count { continue }
                let c = p[i]
                if c != quote && c != lf && c != cr {
                    // Another control byte: text.
                } else if c == quote {
                    state = .quotedQuote
                } else if c == cr || i == 0 || p[i - 1] != cr {
                    // A line break inside the quote (the LF of a CRLF counts with its CR).
                    line += 1
                }
                i += 1
            case .quotedQuote:
                if b == quote {
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    state = .fieldStart
                    i += 1
                } else if b == lf {
                    line += 1
                    i += 1
                    finishRow(at: base + i, line: line, &state)
                } else if b == cr {
                    line += 1
                    i += 1
                    state = .afterCR
                } else {
                    state = .garbage
                }
            case .afterCR:
                if b == lf { i += 1 }
                finishRow(at: base + i, line: line, &state)
            }
        }
        return .cut
    }

    private mutating func finishRow(at end: Int, line: Int, _ state: inout State) {
        offset = end
        self.line = line
        rows += 1
        state = .fieldStart
    }
}
