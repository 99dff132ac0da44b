import FerryCore

/// One cell of a scanned row: its content's absolute byte range (inside the quotes for a quoted
/// cell), where the cell starts (its opening quote when quoted), and how it was written.
struct CSVCell {
    var start: Int
    var end: Int
    var line: Int
    var column: Int
    var flags: UInt8

    static let quoted: UInt8 = 1, escaped: UInt8 = 2
    var isQuoted: Bool { flags & CSVCell.quoted != 0 }
}

/// Splits UTF-8 CSV bytes into rows and cells (RFC 4180 with CR, LF and CRLF line ends), keeping
/// physical line and column positions. It serves both the streaming `CSVReader` (bytes arrive in
/// chunks: `scan` asks for more and resumes where it stopped, so a long row is scanned once) and
/// the `--jobs` batches (all bytes at hand).
///
/// Offsets are absolute (from the start of the UTF-8 stream); the caller passes the bytes it holds
/// with the absolute offset of the first one, and keeps every byte from `keepFrom` on.
struct CSVRowScanner {
    /// What `scan` found.
    enum Step {
        /// A row: `cells`, `rowLine`, `rowEndPosition`, `rowError`.
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

    private enum State { case fieldStart, unquoted, quoted, quotedQuote, garbage }

    let delimiter: UInt8
    let maximumRecordBytes: Int

    // Position tracking: the physical line of the scan point, its start, and the number of scalars
    // on it up to `columnCountedTo` (absolute offsets).
    private(set) var line: Int
    private var lineStart: Int
    private var columnCountedTo: Int
    private var columnCount = 0
    /// The previous row ended with CR: an LF right after it belongs to that row end.
    private(set) var pendingLF = false
    /// Where scanning goes on (absolute): inside the row being scanned, or the next row's start.
    private(set) var offset: Int

    // The row being scanned, kept across `needMore`.
    private var inRow = false
    private var rowStart = 0
    private var state = State.fieldStart
    private var cellStart = 0
    private var escaped = false
    private var openPosition = TextPosition(line: 1, column: 1)
    private var resync: (offset: Int, line: Int)?

    // The row's cells, in storage the scanner owns (`deallocate()` frees it).
    private(set) var cells: UnsafeMutablePointer<CSVCell>
    private(set) var cellCount = 0
    private var cellCapacity: Int
    /// The physical line the row starts on.
    private(set) var rowLine = 1
    /// Where the row ends (its line break, or the end of the input).
    private(set) var rowEndPosition = TextPosition(line: 1, column: 1)
    /// The first syntax error of the row.
    private(set) var rowError: RowError?

    /// - Parameters:
    ///   - offset: the absolute offset scanning starts at, a line start (after any BOM).
    ///   - line: that line's number.
    init(delimiter: UInt8, maximumRecordBytes: Int, offset: Int, line: Int) {
        self.delimiter = delimiter
        self.maximumRecordBytes = maximumRecordBytes
        self.offset = offset
        self.line = line
        self.lineStart = offset
        self.columnCountedTo = offset
        self.cellCapacity = 32
        self.cells = UnsafeMutablePointer<CSVCell>.allocate(capacity: 32)
    }

    /// Frees the cell storage; the scanner is not used after.
    func deallocate() { cells.deallocate() }

    /// The first absolute offset the caller must still hold: the row's start inside a row.
    var keepFrom: Int { inRow ? rowStart : offset }

    /// Moves the scan point to `offset`, the start of line `line`, between rows (after a batch
    /// was cut there).
    mutating func restart(at offset: Int, line: Int) {
        self.offset = offset
        self.line = line
        lineStart = offset
        columnCountedTo = offset
        columnCount = 0
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
        var i = offset - base
        if !inRow {
            rowError = nil
            if pendingLF {
                if i == count {
                    return atEnd ? .end : .needMore
                }
                pendingLF = false
                if p[i] == CSVReader.lf {
                    i += 1
                    offset = base + i
                    lineStart = offset
                    columnCountedTo = lineStart
                    columnCount = 0
                }
            }
            if i == count {
                return atEnd ? .end : .needMore
            }
            inRow = true
            rowStart = base + i
            rowLine = line
            state = .fieldStart
            cellCount = 0
            escaped = false
        }
        let delimiter = self.delimiter
        let quote = CSVReader.quote, cr = CSVReader.cr, lf = CSVReader.lf
        var state = self.state
        var cellStart = self.cellStart
        defer {
            self.state = state
            self.cellStart = cellStart
        }
        while true {
            if i == count {
                if base + count - rowStart > maximumRecordBytes && state != .quotedQuote {
                    if state == .quoted { break }
                    offset = base + i
                    inRow = false
                    return .tooLarge
                }
                if !atEnd {
                    offset = base + i
                    return .needMore
                }
                break
            }
            let b = p[i]
            switch state {
            case .fieldStart:
                if b == quote {
                    startCell(p, base, i)
                    openPosition = TextPosition(line: cellLine, column: cellColumn)
                    resync = nil
                    escaped = false
                    cellStart = base + i + 1
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    startCell(p, base, i)
                    addCell(base + i, base + i, 0)
                    i += 1
                } else if b == lf || b == cr {
                    startCell(p, base, i)
                    addCell(base + i, base + i, 0)
                    return endRow(p, base, i, b)
                } else {
                    startCell(p, base, i)
                    cellStart = base + i
                    state = .unquoted
                    i += 1
                }
            case .unquoted, .garbage:
                i = CSVByteSearch.first(in: p, from: i, to: count, delimiter, lf, cr, quote)
                if i == count { continue }
                let c = p[i]
                if c == quote {
                    if state == .unquoted {
                        fail(.malformedCSV, "a quote inside an unquoted field (RFC 4180 section 2.5: quote the whole field and double the quote)", p, base, i)
                        state = .garbage
                    }
                    i += 1
                } else {
                    addCell(cellStart, base + i, 0)
                    if c == delimiter {
                        state = .fieldStart
                        i += 1
                    } else {
                        return endRow(p, base, i, c)
                    }
                }
            case .quoted:
                i = CSVByteSearch.first(in: p, from: i, to: count, quote, lf, cr)
                if i == count { continue }
                let c = p[i]
                if c == quote {
                    state = .quotedQuote
                } else {
                    newline(p, base, i, c)
                    // The first line break inside the quote, or the LF completing its CRLF.
                    if resync == nil || (c == lf && i > 0 && p[i - 1] == cr && resync?.offset == base + i) {
                        resync = (base + i + 1, line)
                    }
                }
                i += 1
            case .quotedQuote:
                if b == quote {
                    escaped = true
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    addCell(cellStart, base + i - 1, quotedFlags)
                    state = .fieldStart
                    i += 1
                } else if b == lf || b == cr {
                    addCell(cellStart, base + i - 1, quotedFlags)
                    return endRow(p, base, i, b)
                } else {
                    fail(.malformedCSV, "text after the closing quote of a field (RFC 4180 section 2.7: double a quote inside a quoted field)", p, base, i)
                    state = .garbage
                }
            }
        }
        // The end of the input (or a row past the size limit inside quotes).
        inRow = false
        switch state {
        case .fieldStart:
            startCell(p, base, i)
            addCell(base + i, base + i, 0)
        case .unquoted, .garbage:
            addCell(cellStart, base + i, 0)
        case .quotedQuote:
            addCell(cellStart, base + i - 1, quotedFlags)
        case .quoted:
            rowError = RowError(
                code: .unterminatedQuote,
                message: "a quoted field never closes; reading resumes on line \(openPosition.line + 1), after the line of its opening quote",
                position: openPosition)
            if let resync {
                i = resync.offset - base
                line = resync.line
                lineStart = resync.offset
                columnCountedTo = lineStart
                columnCount = 0
                if i > 0 && p[i - 1] == cr { pendingLF = true }
            } else if !atEnd {
                offset = base + i
                return .tooLarge
            }
            offset = base + i
            return .row
        }
        rowEndPosition = TextPosition(line: line, column: column(p, base, base + i))
        offset = base + i
        return .row
    }

    /// Where the cell being scanned starts (its opening quote when quoted).
    private var cellLine = 1
    private var cellColumn = 1

    private var quotedFlags: UInt8 { CSVCell.quoted | (escaped ? CSVCell.escaped : 0) }

    /// Notes where a cell starts: buffer index `i`.
    @inline(__always)
    private mutating func startCell(_ p: UnsafePointer<UInt8>, _ base: Int, _ i: Int) {
        cellLine = line
        cellColumn = column(p, base, base + i)
    }

    /// Adds the cell started last, with its content's absolute range.
    @inline(__always)
    private mutating func addCell(_ start: Int, _ end: Int, _ flags: UInt8) {
        if cellCount == cellCapacity { growCells() }
        (cells + cellCount).initialize(to: CSVCell(start: start, end: end, line: cellLine, column: cellColumn, flags: flags))
        cellCount += 1
    }

    private mutating func growCells() {
        let grown = UnsafeMutablePointer<CSVCell>.allocate(capacity: cellCapacity * 2)
        grown.moveInitialize(from: cells, count: cellCount)
        cells.deallocate()
        cells = grown
        cellCapacity *= 2
    }

    /// Records the row's first syntax error, at buffer index `i`.
    private mutating func fail(_ code: Diagnostic.Code, _ message: String, _ p: UnsafePointer<UInt8>, _ base: Int, _ i: Int) {
        guard rowError == nil else { return }
        rowError = RowError(code: code, message: message, position: TextPosition(line: line, column: column(p, base, base + i)))
    }

    /// Ends the row at the line break `byte` at buffer index `i`.
    private mutating func endRow(_ p: UnsafePointer<UInt8>, _ base: Int, _ i: Int, _ byte: UInt8) -> Step {
        rowEndPosition = TextPosition(line: line, column: column(p, base, base + i))
        newline(p, base, i, byte)
        pendingLF = byte == CSVReader.cr
        offset = base + i + 1
        inRow = false
        return .row
    }

    // MARK: - Positions

    /// The 1-based column (in Unicode scalars) of the absolute offset `at` on the current line.
    @inline(__always)
    private mutating func column(_ p: UnsafePointer<UInt8>, _ base: Int, _ at: Int) -> Int {
        if at < columnCountedTo {
            columnCountedTo = lineStart
            columnCount = 0
        }
        columnCount += CSVByteSearch.scalarCount(in: p, from: columnCountedTo - base, to: at - base)
        columnCountedTo = at
        return columnCount + 1
    }

    /// Moves the line count past a line break whose byte is at buffer index `i`.
    @inline(__always)
    private mutating func newline(_ p: UnsafePointer<UInt8>, _ base: Int, _ i: Int, _ byte: UInt8) {
        let at = base + i
        if byte == CSVReader.lf && lineStart == at && i > 0 && p[i - 1] == CSVReader.cr && at > 0 {
            // The LF of a CRLF: the line already moved at the CR.
        } else {
            line += 1
        }
        lineStart = at + 1
        columnCountedTo = lineStart
        columnCount = 0
    }
}
