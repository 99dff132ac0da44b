import FerryCore

/// Splits UTF-8 CSV bytes into rows and cells (RFC 4180 with CR, LF and CRLF line ends), keeping
/// physical line positions. It serves both the streaming `CSVReader` (bytes arrive in chunks:
/// `scan` asks for more and resumes where it stopped, so a long row is scanned once) and the
/// `--jobs` batches (all bytes at hand).
///
/// The scan reads eight bytes at a time and stops only at the bytes that can matter (the quote,
/// the delimiter, CR, LF: `CSVByteSearch.stops`), however short the cells are: `walk` follows the
/// cells from one such byte to the next and hands anything rarer (a line break, a syntax error,
/// the end of the bytes) back to `scan`. Columns are not counted as it goes: it keeps the lines
/// that the line breaks inside the row's quotes start, and a position is counted from the bytes
/// when one is wanted (`position(of:in:base:)`, `cellPositions(in:base:)`,
/// `rowEndPosition(in:base:)`), which the caller asks for while it still holds the row's bytes.
///
/// Offsets are absolute (from the start of the UTF-8 stream), but for the cells' (from the row's
/// start); the caller passes the bytes it holds with the absolute offset of the first one, and
/// keeps every byte from `keepFrom` on.
struct CSVRowScanner {
    /// What `scan` found.
    enum Step {
        /// A row: `cells`, `rowLine`, `rowEndPosition(in:base:)`, `rowError`.
        case row
        /// The end of the input: no row.
        case end
        /// The bytes ran out inside a row: call again with more (and every byte from `keepFrom`).
        case needMore
        /// The row outgrew `maximumRecordBytes` outside quotes.
        case tooLarge
    }

    /// A syntax error of the row just scanned (the row is skipped).
    struct RowError {
        var code: Diagnostic.Code
        var message: String
        var position: TextPosition
    }

    let delimiter: UInt8
    let maximumRecordBytes: Int
    /// The quote and the delimiter in every byte of a word (`CSVByteSearch.stops`).
    private let quotes: UInt64, delimiters: UInt64

    /// The physical line of the scan point and the absolute offset where it starts.
    var line: Int
    var lineStart: Int
    /// The previous row ended with CR: an LF right after it belongs to that row end.
    var pendingLF = false
    /// Where scanning goes on (absolute): inside the row being scanned, or the next row's start.
    var offset: Int

    /// The row being scanned (kept across `needMore`): whether there is one, where it starts
    /// (absolute), how far `walk` has come, a quote inside quotes that was the last byte held
    /// (the next byte tells what it was), and where to resume should the quoted cell that starts
    /// at `cell` (its content's offset) never close.
    var inRow = false
    private(set) var rowStart = 0
    var walker: Walker
    var quoteAtEnd = false
    private(set) var resync: (offset: Int, line: Int, cell: Int)?

    // The row's cells, and the lines its line breaks start (in order; a CRLF may note its line
    // twice, the second time starting after the LF), in storage the scanner owns (`deallocate()`
    // frees it).
    var cells: UnsafeMutablePointer<CSVCell>
    var cellCapacity: Int
    private(set) var breaks: UnsafeMutablePointer<(start: Int, line: Int)>
    private(set) var breakCount = 0
    private var breakCapacity: Int
    /// The physical line the row starts on.
    private(set) var rowLine = 1
    /// Where the row ends: its line break, or the end of the input (absolute).
    var rowEnd = 0
    /// The row just scanned ends where the input ends, outside quotes, with no line break after
    /// it: a row short of fields then is the input cut short rather than a row written short.
    var rowEndsInput = false
    /// The row just scanned ends with a CR that is the input's last byte: the LF of a CRLF may
    /// have been there (an input cut between the two, `ReadOptions.endsAtCut`).
    private(set) var rowEndsAtLoneCR = false
    /// False when the bytes scanned with `atEnd` end a batch of rows, not the input (`CSVBatch`):
    /// a CR they end with is then a whole line break.
    var bytesEndInput = true
    /// True when the input ends where it was cut (`ReadOptions.endsAtCut`, or a source that
    /// ended at a cut, `ByteSource.endsAtCut`): a row with no line break after it is the row the
    /// cut runs into, and is not read (`CSVRowDecoder`); a quoted
    /// field still open at its end is the field the cut runs into, and the row ends there; the
    /// lines after the opening quote's are the field's, not rows to resume reading at.
    var endsAtCut = false
    /// Where the CR that ends the row stands (from the row's start) when the bytes held ended
    /// with it: the row ends there once the byte after it, or the input's end, is known.
    var pendingCR: Int?
    /// The first syntax error of the row.
    var rowError: RowError?
    /// Where the row's unquoted cells that hold a quote have their first one (a warning each: the
    /// quote is kept as a character, as Python's csv, Rust's csv and DuckDB keep it).
    var strayQuotes: [TextPosition] = []
    /// The index of the last cell `strayQuotes` has a position for (one warning per cell).
    var strayQuoteCell = -1

    /// The number of cells of the row.
    var cellCount: Int { walker.cursor - cells }

    /// - Parameters:
    ///   - offset: the absolute offset scanning starts at, a line start (after any BOM).
    ///   - line: that line's number.
    init(delimiter: UInt8, maximumRecordBytes: Int, offset: Int, line: Int) {
        self.delimiter = delimiter
        self.maximumRecordBytes = maximumRecordBytes
        self.quotes = CSVByteSearch.broadcast(CSVReader.quote)
        self.delimiters = CSVByteSearch.broadcast(delimiter)
        self.offset = offset
        self.line = line
        self.lineStart = offset
        self.cellCapacity = 32
        self.cells = UnsafeMutablePointer<CSVCell>.allocate(capacity: 32)
        self.breakCapacity = 8
        self.breaks = UnsafeMutablePointer<(start: Int, line: Int)>.allocate(capacity: 8)
        self.walker = Walker(cells: cells, limit: cells + cellCapacity)
    }

    /// Frees the cell storage; the scanner is not used after.
    func deallocate() {
        cells.deallocate()
        breaks.deallocate()
    }

    /// The first absolute offset the caller must still hold: the row's start inside a row.
    var keepFrom: Int { inRow ? rowStart : offset }

    /// Moves the scan point to `offset`, the start of line `line`, between rows (after a batch
    /// was cut there).
    mutating func restart(at offset: Int, line: Int) {
        self.offset = offset
        self.line = line
        lineStart = offset
        pendingLF = false
        inRow = false
    }

    // MARK: - Scanning

    /// Scans (or goes on scanning) one row.
    /// - Parameters:
    ///   - p: the bytes held; `p[0]` is at absolute offset `base`, and they reach `keepFrom` or earlier.
    ///   - count: how many bytes `p` holds.
    ///   - atEnd: no bytes follow `p[count - 1]`.
    mutating func scan(_ p: UnsafePointer<UInt8>, base: Int, count: Int, atEnd: Bool) -> Step {
        if !inRow {
            var i = offset - base
            rowError = nil
            if strayQuoteCell >= 0 {
                strayQuotes.removeAll(keepingCapacity: true)
                strayQuoteCell = -1
            }
            if pendingLF {
                if i == count {
                    return atEnd ? .end : .needMore
                }
                pendingLF = false
                if p[i] == CSVReader.lf {
                    i += 1
                    offset = base + i
                    lineStart = offset
                }
            }
            if i == count {
                return atEnd ? .end : .needMore
            }
            inRow = true
            rowStart = base + i
            rowLine = line
            rowEndsInput = false
            rowEndsAtLoneCR = false
            pendingCR = nil
            breakCount = 0
            quoteAtEnd = false
            resync = nil
            walker = Walker(cells: cells, limit: cells + cellCapacity)
        }
        // The row's bytes held, from its first one.
        let row = p + (rowStart - base)
        let held = count - (rowStart - base)
        if let j = pendingCR {
            if held == j + 1 {
                if !atEnd { return awaitByteAfterCR(at: j, base: base, count: count) }
                rowEndsAtLoneCR = bytesEndInput
            }
            pendingCR = nil
            return endRow(at: j, CSVReader.cr)
        }
        if quoteAtEnd {
            guard walker.next < held else { return endOfBytes(p, base: base, count: count, atEnd: atEnd) }
            quoteAtEnd = false
            // The byte after a quote inside a quoted cell, which the bytes held last time ended with.
            if let step = afterQuote(row, at: walker.next - 1) { return step }
        }
        let delimiter = self.delimiter == CSVReader.quote ? 256 : Int(self.delimiter)
        while true {
            switch Self.walk(row, held, delimiter, quotes, delimiters, &walker) {
            case .rowEnd(let j, let byte):
                if byte == CSVReader.cr && j == held - 1 {
                    // A CR the bytes held end with: whether an LF follows is known only with the
                    // next byte, or at the input's end.
                    if !atEnd { return awaitByteAfterCR(at: j, base: base, count: count) }
                    rowEndsAtLoneCR = bytesEndInput
                }
                return endRow(at: j, byte)
            case .strayQuote(let j):
                strayQuote(row, j)
            case .textAfterQuote(let k):
                fail(.malformedCSV, "text after the closing quote of a field (RFC 4180 section 2.7: double a quote inside a quoted field)", row, k)
            case .quotedLineBreak(let j, let byte):
                quotedLineBreak(row, j, byte)
            case .room:
                growCells()
            case .quoteAtEnd:
                quoteAtEnd = true
                return endOfBytes(p, base: base, count: count, atEnd: atEnd)
            case .endOfBytes:
                return endOfBytes(p, base: base, count: count, atEnd: atEnd)
            }
        }
    }

    /// Where `walk` stands in a row: the eight bytes it reads (from `w`, the stop bytes still to
    /// visit in `m`, bit `k` for byte `w + k`), the next byte to read (`next`), where the next cell goes (`cursor`, before the end of
    /// the storage, `limit`), and the cell being scanned (its content's start, its flags so far,
    /// whether it is inside its quotes). Offsets are from the row's first byte.
    struct Walker {
        var w = 0
        var m: UInt64 = 0
        var next = 0
        var cursor: UnsafeMutablePointer<CSVCell>
        var limit: UnsafeMutablePointer<CSVCell>
        var cellStart = 0
        var cellFlags: UInt8 = 0
        var inQuotes = false

        init(cells: UnsafeMutablePointer<CSVCell>, limit: UnsafeMutablePointer<CSVCell>) {
            cursor = cells
            self.limit = limit
        }
    }

    /// What `walk` stopped at: something for `scan` to do before it walks on.
    private enum Event {
        /// The row ends at the line break `byte` at `at` (its last cell is added).
        case rowEnd(at: Int, UInt8)
        /// A quote inside an unquoted cell (RFC 4180 section 2.5): noted, and kept as text.
        case strayQuote(at: Int)
        /// Text right after a closing quote (section 2.7); the rest of the cell is plain text.
        case textAfterQuote(at: Int)
        /// A line break inside quotes.
        case quotedLineBreak(at: Int, UInt8)
        /// The storage may not hold the cells of the next eight bytes: make room.
        case room
        /// The bytes held end right after a quote inside quotes.
        case quoteAtEnd
        /// The bytes held end inside the row.
        case endOfBytes
    }

    /// Walks the row `row` (the `count` bytes held from its first one) from stop byte to stop byte,
    /// adding the cells it ends, until something else is to be done. On local copies of `walker`,
    /// so that they stay in registers; outside quotes and inside them are two loops (the state is
    /// where the code is, not a variable to test at every byte).
    private static func walk(_ row: UnsafePointer<UInt8>, _ count: Int, _ delimiter: Int, _ quotes: UInt64, _ delimiters: UInt64,
                             _ walker: inout Walker) -> Event {
        let quote = CSVReader.quote, cr = CSVReader.cr, lf = CSVReader.lf
        var w = walker.w, m = walker.m, next = walker.next, cursor = walker.cursor
        var cellStart = walker.cellStart, cellFlags = walker.cellFlags
        let limit = walker.limit
        @inline(__always) func keep(_ event: Event, inQuotes: Bool) -> Event {
            walker.w = w
            walker.m = m
            walker.next = next
            walker.cursor = cursor
            walker.cellStart = cellStart
            walker.cellFlags = cellFlags
            walker.inQuotes = inQuotes
            return event
        }
        // The next word's stop bytes into `m`; false when there are no bytes left or no room for
        // the cells they may end (`keep` then tells which).
        @inline(__always) func load() -> Bool {
            if next >= count || limit - cursor < 9 { return false }
            w = next
            m = stops(row, w, count, quotes, delimiters)
            next = w &+ 8
            return true
        }
        @inline(__always) func stalled(inQuotes: Bool) -> Event {
            if next >= count {
                next = count
                return keep(.endOfBytes, inQuotes: inQuotes)
            }
            return keep(.room, inQuotes: inQuotes)
        }
        var inQuotes = walker.inQuotes
        while true {
            if !inQuotes {
                // Outside quotes: delimiters end cells, a quote at a cell's start opens it.
                while true {
                    if m == 0 {
                        if !load() { return stalled(inQuotes: false) }
                        continue
                    }
                    let j = w &+ m.trailingZeroBitCount
                    m &= m &- 1
                    let b = row[j]
                    if Int(b) == delimiter {
                        cursor.initialize(to: CSVCell(start: cellStart, end: j, flags: cellFlags))
                        cursor += 1
                        cellStart = j &+ 1
                        cellFlags = 0
                    } else if b == quote {
                        guard j == cellStart else { return keep(.strayQuote(at: j), inQuotes: false) }
                        cellStart = j &+ 1
                        cellFlags = CSVCell.quoted | CSVCell.opened
                        break
                    } else if b == lf || b == cr {
                        cursor.initialize(to: CSVCell(start: cellStart, end: j, flags: cellFlags))
                        cursor += 1
                        return keep(.rowEnd(at: j, b), inQuotes: false)
                    }
                }
                inQuotes = true
            }
            // Inside quotes: only quotes and line breaks matter.
            while true {
                if m == 0 {
                    if !load() { return stalled(inQuotes: true) }
                    continue
                }
                let j = w &+ m.trailingZeroBitCount
                m &= m &- 1
                let b = row[j]
                if b == quote {
                    let k = j &+ 1
                    if k == count {
                        next = count
                        return keep(.quoteAtEnd, inQuotes: true)
                    }
                    let c = row[k]
                    if c == quote {
                        cellFlags |= CSVCell.escaped
                    } else if Int(c) == delimiter {
                        cursor.initialize(to: CSVCell(start: cellStart, end: j, flags: cellFlags))
                        cursor += 1
                        cellStart = k &+ 1
                        cellFlags = 0
                    } else if c == lf || c == cr {
                        cursor.initialize(to: CSVCell(start: cellStart, end: j, flags: cellFlags))
                        cursor += 1
                        return keep(.rowEnd(at: k, c), inQuotes: false)
                    } else {
                        cellFlags = CSVCell.opened
                        return keep(.textAfterQuote(at: k), inQuotes: false)
                    }
                    // The stop byte after the quote (a second quote, the delimiter) is taken with it.
                    if k &- w < 8 {
                        m &= m &- 1
                    } else {
                        next = k &+ 1
                    }
                    if c != quote { break }
                } else if b == lf || b == cr {
                    return keep(.quotedLineBreak(at: j, b), inQuotes: true)
                }
            }
            inQuotes = false
        }
    }

    /// The stop bytes of the eight bytes from offset `w`, bit `k` for byte `w + k` (fewer at the
    /// end of the bytes held; none past it). `w < count`.
    @inline(__always)
    private static func stops(_ p: UnsafePointer<UInt8>, _ w: Int, _ count: Int, _ quotes: UInt64, _ delimiters: UInt64) -> UInt64 {
        CSVByteSearch.highBits(w &+ 8 <= count
            ? CSVByteSearch.stops(CSVByteSearch.word(p, w), quotes, delimiters)
            : CSVByteSearch.stops(tailOf: p, at: w, count: count, quotes, delimiters))
    }

    /// Ends the row at the line break `byte` at offset `i` from the row's start.
    mutating func endRow(at i: Int, _ byte: UInt8) -> Step {
        rowEnd = rowStart + i
        newline(at: rowStart + i, byte, afterCR: false)
        pendingLF = byte == CSVReader.cr
        offset = rowStart + i + 1
        inRow = false
        return .row
    }

    /// A line break inside quotes, its byte at offset `i` from the row's start: the line it starts
    /// is noted, and the first one of the quoted cell (or the LF completing its CRLF) is where
    /// reading resumes should the quote never close.
    @inline(never)
    private mutating func quotedLineBreak(_ row: UnsafePointer<UInt8>, _ i: Int, _ byte: UInt8) {
        let afterCR = i > 0 && row[i - 1] == CSVReader.cr
        let at = rowStart + i
        newline(at: at, byte, afterCR: afterCR)
        if breakCount == breakCapacity { Self.grow(&breaks, &breakCapacity, count: breakCount) }
        (breaks + breakCount).initialize(to: (lineStart, line))
        breakCount += 1
        if resync?.cell != walker.cellStart || (byte == CSVReader.lf && afterCR && resync?.offset == at) {
            resync = (at + 1, line, walker.cellStart)
        }
    }

    /// Moves the line count past a line break whose byte is at absolute offset `at` (`afterCR`:
    /// the byte before it, in the row, is CR).
    @inline(__always)
    private mutating func newline(at: Int, _ byte: UInt8, afterCR: Bool) {
        if byte == CSVReader.lf && lineStart == at && afterCR {
            // The LF of a CRLF: the line already moved at the CR.
        } else {
            line += 1
        }
        lineStart = at + 1
    }
}
