#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Reads RFC 4180 CSV one row at a time (SCHEMAS.md "Formats: CSV"; `Docs/csv.md`).
///
/// Streaming: bytes are scanned in place in one reusable buffer that holds the current row and
/// the chunk being read, so memory stays flat for any file size. A single row may grow up to
/// `maximumRecordBytes` (a quoted cell with many lines); past that, an open quote is treated as
/// unterminated and anything else throws `too-large`.
///
/// - Dialect: `,` `;` or tab (`options.delimiter`, else the most frequent of the three outside
///   quotes on the header line, `,` on ties); records end with CRLF, LF or a bare CR; CR, LF and CRLF
///   inside quotes are kept as written; a missing final newline is fine.
/// - Encodings: a UTF-8 BOM is skipped; a UTF-16 BOM is honoured even with no `--encoding`;
///   `options.encoding` names the others (`CSVEncoding`). Undeclared invalid UTF-8 throws
///   `invalid-encoding` with the line, the column and the byte offset.
/// - Cells: an unquoted empty cell (or one equal to `options.nullToken`) is absent; a quoted `""` is
///   `.string("")`; with `options.inferTypes`, unquoted JSON numbers are `.number` and `true` /
///   `false` are `.bool`. Header names are unflattened by `CSVFlattening.Layout`.
/// - Errors (reported to the log; the bad row is skipped and reading resumes at the next row, never
///   shifting later rows): `ragged-row`, `malformed-csv` (a quote inside an unquoted cell, text after
///   a closing quote), `unterminated-quote` (reading resumes on the line after the opening quote's).
public final class CSVReader: RecordReader {
    public private(set) var header: DatasetHeader
    /// The header names after BOM removal, empty-name numbering and duplicate renaming (`name_2`);
    /// `1`, `2`, ... with `hasHeader == false`.
    public private(set) var headerFields: [String] = []
    /// The names that appeared more than once in the header, once each in first-seen order (the
    /// renamed copies are `name_2`, `name_3`, ... in `headerFields`). The domain layer turns them
    /// into `duplicate-header` errors; the reader reports them only with `rejectsDuplicateHeaders`.
    public private(set) var duplicateHeaders: [String] = []
    /// The header cells as read: each column's name (after renaming) and where its cell stands,
    /// so callers can point at a column (an unmapped one, a repeated one).
    public private(set) var headerCells: [(name: String, position: TextPosition)] = []
    /// Where each repeated header cell stands (the second and later cells of a name).
    public private(set) var duplicateHeaderCells: [(name: String, position: TextPosition)] = []
    /// The delimiter in use (given or detected).
    public private(set) var delimiter: UInt8 = CSVReader.comma
    /// The input's encoding (given, detected from a BOM, or UTF-8).
    public private(set) var encoding: CSVEncoding = .utf8
    /// The compiled header layout every record is built with.
    public private(set) var layout = CSVFlattening.Layout(names: [])

    /// The largest row held in memory, in bytes (64 MiB).
    public static let maximumRecordBytes = 64 << 20

    static let comma = UInt8(ascii: ","), semicolon = UInt8(ascii: ";"), tab = UInt8(ascii: "\t")
    static let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    private var input: any ByteSource
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let nullToken: [UInt8]?
    private let unflattens: Bool
    private let rejectsDuplicateHeaders: Bool
    private let expectedHeader: [String]?
    private let maximumRecordBytes: Int

    // The buffer: `buffer[0..<count]` holds input bytes; `base` is the absolute offset (in the UTF-8
    // stream) of `buffer[0]`; bytes before `recordStart` may be dropped on refill.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var base = 0
    private var atEnd = false
    private var recordStart = 0
    /// Where the next row starts (buffer index).
    private var pos = 0
    /// The previous row ended with CR: an LF right after it belongs to that row end.
    private var pendingLF = false

    // Position tracking for the scan point: physical line, its start, and the scalar count on it up
    // to `columnCountedTo` (absolute offsets).
    private var line = 1
    private var lineStart = 0
    private var columnCountedTo = 0
    private var columnCount = 0

    // The row just scanned: per cell, absolute content start and end and flags; positions.
    private var cellStarts: [Int] = []
    private var cellEnds: [Int] = []
    private var cellFlags: [UInt8] = []
    private var cellPositions: [Int] = []
    private var rowLine = 1
    private var rowEndPosition = TextPosition(line: 1, column: 1)
    private var rowError: Diagnostic?
    private var scratch: [UInt8] = []

    private var expectedFields: Int?
    private var dataIndex = 0
    /// The first data row, scanned early in no-header mode to count the columns.
    private var heldRow = false

    private static let flagQuoted: UInt8 = 1, flagEscaped: UInt8 = 2

    /// Starts reading: decodes the BOM and encoding, detects the delimiter and reads the header row.
    /// - Parameters:
    ///   - options: `delimiter`, `hasHeader`, `nullToken`, `encoding`, `inferTypes`, `collection`,
    ///     `fileName` and `member` are used.
    ///   - unflattens: false keeps dotted header names as flat keys.
    ///   - rejectsDuplicateHeaders: true reports each repeated header cell as a `duplicate-header`
    ///     error at its line and column (domains want this; schema-free reading renames quietly).
    ///   - expectedHeader: names the header must have, in order; any difference is reported as
    ///     `malformed-csv` at the first differing cell.
    /// - Throws: `FerryError` with `usage` for an unknown `--encoding`, `invalid-encoding`,
    ///   `malformed-csv` for an empty input when a header is required or a header row that is not
    ///   well-formed, `unterminated-quote` in the header row, or a read failure of `source`.
    public init(
        _ source: any ByteSource, options: ReadOptions = ReadOptions(), log: DiagnosticLog,
        unflattens: Bool = true, rejectsDuplicateHeaders: Bool = false, expectedHeader: [String]? = nil,
        maximumRecordBytes: Int = CSVReader.maximumRecordBytes
    ) throws {
        self.input = source
        self.options = options
        self.log = log
        self.header = options.header
        self.nullToken = options.nullToken.map { Array($0.utf8) }
        self.unflattens = unflattens
        self.rejectsDuplicateHeaders = rejectsDuplicateHeaders
        self.expectedHeader = expectedHeader
        self.maximumRecordBytes = max(maximumRecordBytes, 1024)
        self.capacity = 64 * 1024
        self.buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        try startInput()
        try detectDelimiter()
        if options.hasHeader {
            try readHeader()
        } else {
            heldRow = try scanRow()
            let columns = heldRow ? cellStarts.count : 0
            expectedFields = heldRow ? columns : nil
            headerFields = (0..<columns).map { String($0 + 1) }
            layout = CSVFlattening.Layout(names: headerFields, unflattens: false)
        }
    }

    deinit { buffer.deallocate() }

    // MARK: - Input and buffer

    private func startInput() throws {
        // Read at least 4 bytes (or all there is) to look for a BOM.
        while count < 4 && !atEnd { try refill() }
        let b = UnsafeBufferPointer(start: buffer, count: count)
        var declared: CSVEncoding?
        if let name = options.encoding {
            guard let e = CSVEncoding(name: name) else {
                throw FerryError(.usage, "unknown encoding '\(name)'; known: " +
                                 CSVEncoding.allCases.map(\.rawValue).joined(separator: ", "), at: options.inputLocation)
            }
            declared = e
        }
        let hasUTF8BOM = count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
        let hasLE = count >= 2 && b[0] == 0xFF && b[1] == 0xFE
        let hasBE = count >= 2 && b[0] == 0xFE && b[1] == 0xFF
        var bomLength = 0
        var littleEndian = false
        switch declared {
        case nil, .utf8?:
            if declared == nil && (hasLE || hasBE) {
                encoding = .utf16
                littleEndian = hasLE
                bomLength = 2
            } else {
                encoding = .utf8
                bomLength = hasUTF8BOM ? 3 : 0
            }
        case .utf16?:
            encoding = .utf16
            littleEndian = hasLE
            bomLength = hasLE || hasBE ? 2 : 0
        case .utf16LE?:
            encoding = .utf16LE
            littleEndian = true
            bomLength = hasLE ? 2 : 0
        case .utf16BE?:
            encoding = .utf16BE
            bomLength = hasBE ? 2 : 0
        case let other?:
            encoding = other
        }
        if encoding == .utf8 {
            pos = bomLength
            recordStart = pos
            lineStart = pos
            columnCountedTo = pos
            return
        }
        let prefix = Array(UnsafeBufferPointer(start: buffer + bomLength, count: count - bomLength))
        input = CSVTranscoder(source: input, encoding: encoding, littleEndian: littleEndian, prefix: prefix,
                              prefixOffset: bomLength, location: options.inputLocation)
        count = 0
        atEnd = false
    }

    /// Drops bytes before `recordStart`, makes room, and reads one more chunk.
    /// - Returns: how far the buffer's content moved left (subtract it from buffer indices).
    @discardableResult
    private func refill() throws -> Int {
        let shift = recordStart
        if shift > 0 {
            memmove(buffer, buffer + shift, count - shift)
            count -= shift
            base += shift
            recordStart = 0
            pos = max(pos - shift, 0)
        }
        if capacity - count < 16 * 1024 {
            let newCapacity = capacity * 2
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = grown
            capacity = newCapacity
        }
        let n = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count))
        if n == 0 { atEnd = true } else { count += n }
        return shift
    }

    /// Reads more bytes when `i` reached the end of the buffer; false at the end of the input.
    @inline(__always)
    private func more(_ i: inout Int) throws -> Bool {
        while i == count {
            if atEnd { return false }
            i -= try refill()
        }
        return true
    }

    // MARK: - Positions

    /// The 1-based column (in Unicode scalars) of the absolute offset `offset` on the current line.
    private func column(at offset: Int) -> Int {
        if offset < columnCountedTo {
            columnCountedTo = lineStart
            columnCount = 0
        }
        var k = columnCountedTo - base
        let end = offset - base
        var n = columnCount
        while k < end {
            if buffer[k] & 0xC0 != 0x80 { n += 1 }
            k += 1
        }
        columnCountedTo = offset
        columnCount = n
        return n + 1
    }

    /// Moves the line count past a line break whose byte is at buffer index `i`.
    @inline(__always)
    private func newline(at i: Int, _ byte: UInt8) {
        let offset = base + i
        if byte == CSVReader.lf && lineStart == offset && i > 0 && buffer[i - 1] == CSVReader.cr && offset > 0 {
            // The LF of a CRLF: the line already moved at the CR.
        } else {
            line += 1
        }
        lineStart = offset + 1
        columnCountedTo = lineStart
        columnCount = 0
    }

    private func location(_ position: TextPosition) -> SourceLocation {
        var location = options.inputLocation
        location.position = position
        location.collection = options.collection
        return location
    }

    // MARK: - Dialect

    private func detectDelimiter() throws {
        if let given = options.delimiter {
            delimiter = given
            return
        }
        while true {
            var commas = 0, semicolons = 0, tabs = 0
            var inQuotes = false
            var i = pos
            var complete = false
            while i < count {
                let b = buffer[i]
                if b == CSVReader.quote {
                    inQuotes.toggle()
                } else if !inQuotes {
                    if b == CSVReader.comma {
                        commas += 1
                    } else if b == CSVReader.semicolon {
                        semicolons += 1
                    } else if b == CSVReader.tab {
                        tabs += 1
                    } else if b == CSVReader.lf || b == CSVReader.cr {
                        complete = true
                        break
                    }
                }
                i += 1
            }
            if complete || atEnd || count - recordStart > maximumRecordBytes {
                delimiter = CSVReader.comma
                if semicolons > commas && semicolons >= tabs { delimiter = CSVReader.semicolon }
                if tabs > commas && tabs > semicolons { delimiter = CSVReader.tab }
                return
            }
            try refill()
        }
    }

    // MARK: - Header

    private func readHeader() throws {
        guard try scanRow() else {
            throw FerryError(.malformedCSV, "the input is empty: a header row was expected",
                             at: location(TextPosition(line: 1, column: 1)))
        }
        if let rowError { throw FerryError(rowError) }
        var originals: [String] = []
        for k in 0..<cellStarts.count {
            let name = try cellText(k) ?? ""
            originals.append(name.isEmpty ? String(k + 1) : name)
        }
        // Miller's renaming: the second `a` is `a_2`, the third `a_3`, skipping names the header
        // already has, so a renamed column never takes another column's name.
        let originalSet = Set(originals)
        var names: [String] = []
        var seen = Set<String>()
        var assigned = Set<String>()
        var duplicated: [String] = []
        var duplicatedSet = Set<String>()
        // The next suffix to try per repeated name, so a header of many equal names stays linear.
        var nextSuffix: [String: Int] = [:]
        for (k, original) in originals.enumerated() {
            var name = original
            if unflattens, case let dots = original.utf8.count(where: { $0 == UInt8(ascii: ".") }),
               dots >= options.maximumDepth {
                throw FerryError(.tooDeep, "the header name nests \(dots + 1) levels, deeper than "
                                 + "\(options.maximumDepth) (the documented limit)",
                                 at: location(TextPosition(line: cellPositions[2 * k], column: cellPositions[2 * k + 1])))
            }
            let cell = TextPosition(line: cellPositions[2 * k], column: cellPositions[2 * k + 1])
            if seen.contains(original) {
                if duplicatedSet.insert(original).inserted { duplicated.append(original) }
                duplicateHeaderCells.append((original, cell))
                if rejectsDuplicateHeaders {
                    log.report(.error(.duplicateHeader, "the header names '\(original)' more than once",
                                      at: location(TextPosition(line: cellPositions[2 * k], column: cellPositions[2 * k + 1]))))
                }
                var n = nextSuffix[original] ?? 2
                while originalSet.contains("\(original)_\(n)") || assigned.contains("\(original)_\(n)") { n += 1 }
                nextSuffix[original] = n + 1
                name = "\(original)_\(n)"
            }
            seen.insert(original)
            assigned.insert(name)
            names.append(name)
            headerCells.append((name, cell))
        }
        headerFields = names
        duplicateHeaders = duplicated
        expectedFields = names.count
        layout = CSVFlattening.Layout(names: names, unflattens: unflattens)
        if let expectedHeader, expectedHeader != names {
            let k = (0..<min(expectedHeader.count, names.count)).first { expectedHeader[$0] != names[$0] }
                ?? min(expectedHeader.count, names.count)
            let position = k < cellStarts.count
                ? TextPosition(line: cellPositions[2 * k], column: cellPositions[2 * k + 1]) : rowEndPosition
            log.report(.error(.malformedCSV, "the header is '\(names.joined(separator: ","))', expected '\(expectedHeader.joined(separator: ","))'",
                              at: location(position)))
        }
    }

    // MARK: - Records

    public func next() throws -> Record? {
        while true {
            if heldRow {
                heldRow = false
            } else {
                guard try scanRow() else { return nil }
            }
            let fields = cellStarts.count
            // A blank line: skipped when the header has two or more columns.
            if fields == 1, cellFlags[0] == 0, cellStarts[0] == cellEnds[0], rowError == nil,
               let expected = expectedFields, expected >= 2 {
                continue
            }
            let index = dataIndex
            dataIndex += 1
            if let rowError {
                log.report(rowError)
                continue
            }
            if let expected = expectedFields, fields != expected {
                reportRagged(fields: fields, expected: expected)
                continue
            }
            var cells: [Value?] = []
            cells.reserveCapacity(fields)
            let row = RowView(buffer: buffer, base: base, starts: cellStarts, ends: cellEnds, flags: cellFlags, nullToken: nullToken)
            let inferTypes = options.inferTypes
            for k in 0..<fields {
                let text: String
                switch row.text(k, scratch: &scratch) {
                case .absent:
                    cells.append(nil)
                    continue
                case .invalid:
                    throw encodingError(cell: k)
                case .text(let found):
                    text = found
                }
                if inferTypes && row.flags[k] & CSVReader.flagQuoted == 0 {
                    if text == "true" {
                        cells.append(.bool(true))
                        continue
                    }
                    if text == "false" {
                        cells.append(.bool(false))
                        continue
                    }
                    if CSVReader.isJSONNumber(text) {
                        cells.append(.number(text))
                        continue
                    }
                }
                cells.append(.string(text))
            }
            var at = location(TextPosition(line: rowLine, column: 1))
            at.recordIndex = index
            return Record(collection: options.collection, value: .object(layout.build(cells)), location: at,
                          locator: CSVFieldLocator(layout: layout, cellPositions: cellPositions))
        }
    }

    private func reportRagged(fields: Int, expected: Int) {
        let message: String
        let position: TextPosition
        if fields > expected {
            message = "row has \(fields) fields, header has \(expected): field \(expected + 1) and after are extra"
            position = TextPosition(line: cellPositions[2 * expected], column: cellPositions[2 * expected + 1])
        } else {
            let name = fields < headerFields.count ? " (\(headerFields[fields]))" : ""
            message = "row has \(fields) fields, header has \(expected): field \(fields + 1)\(name) and after are missing"
            position = rowEndPosition
        }
        log.report(.error(.raggedRow, message, at: location(position)))
    }

    /// Scans one row from `pos` into the cell arrays. Returns false at the end of the input (no row).
    private func scanRow() throws -> Bool {
        // The cell arrays move into locals for the scan (class properties cost an access check
        // on every use) and back at the end.
        var starts = cellStarts, ends = cellEnds, flagList = cellFlags
        cellStarts = []
        cellEnds = []
        cellFlags = []
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        flagList.removeAll(keepingCapacity: true)
        var positions: [Int] = []
        positions.reserveCapacity(2 * max(starts.capacity, 8))
        defer {
            cellStarts = starts
            cellEnds = ends
            cellFlags = flagList
            cellPositions = positions
        }
        rowError = nil
        var i = pos
        recordStart = i
        if pendingLF {
            guard try more(&i) else { return false }
            pendingLF = false
            if buffer[i] == CSVReader.lf {
                i += 1
                lineStart = base + i
                columnCountedTo = lineStart
                columnCount = 0
                recordStart = i
            }
        }
        guard try more(&i) else {
            pos = i
            return false
        }
        rowLine = line
        enum State { case fieldStart, unquoted, quoted, quotedQuote, garbage }
        var state = State.fieldStart
        let delimiter = self.delimiter
        let quote = CSVReader.quote, cr = CSVReader.cr, lf = CSVReader.lf
        var cellStart = 0
        var escaped = false
        // The open quote of the current quoted cell and where to resume if it never closes.
        var openPosition = TextPosition(line: 1, column: 1)
        var resync: (offset: Int, line: Int)?

        func startCell(_ offset: Int) {
            positions.append(line)
            positions.append(column(at: offset))
        }
        func addCell(_ start: Int, _ end: Int, _ flags: UInt8) {
            starts.append(start)
            ends.append(end)
            flagList.append(flags)
        }
        func fail(_ code: Diagnostic.Code, _ message: String, _ offset: Int) {
            guard rowError == nil else { return }
            rowError = .error(code, message, at: location(TextPosition(line: line, column: column(at: offset))))
        }

        // The buffer, its fill and its offset, as locals (class properties cost an access check
        // each); reloaded when a refill moves them.
        var buf = buffer
        var cnt = count
        var bas = base
        scan: while true {
            if i == cnt {
                if cnt - recordStart > maximumRecordBytes && state != .quotedQuote {
                    if state == .quoted { break scan }
                    throw FerryError(.tooLarge, "a row is longer than \(maximumRecordBytes) bytes",
                                     at: location(TextPosition(line: rowLine, column: 1)))
                }
                guard try more(&i) else { break scan }
                buf = buffer
                cnt = count
                bas = base
            }
            let b = buf[i]
            switch state {
            case .fieldStart:
                if b == quote {
                    startCell(bas + i)
                    openPosition = TextPosition(line: line, column: positions[positions.count - 1])
                    resync = nil
                    escaped = false
                    cellStart = bas + i + 1
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    startCell(bas + i)
                    addCell(bas + i, bas + i, 0)
                    i += 1
                } else if b == lf || b == cr {
                    startCell(bas + i)
                    addCell(bas + i, bas + i, 0)
                    return endRow(at: i, b)
                } else {
                    startCell(bas + i)
                    cellStart = bas + i
                    state = .unquoted
                    i += 1
                }
            case .unquoted, .garbage:
                var j = i
                var c = b
                while c != delimiter && c != lf && c != cr && c != quote {
                    j += 1
                    if j == cnt { break }
                    c = buf[j]
                }
                i = j
                if i == cnt { continue scan }
                if c == quote {
                    if state == .unquoted {
                        fail(.malformedCSV, "a quote inside an unquoted field (RFC 4180 section 2.5: quote the whole field and double the quote)", bas + i)
                        state = .garbage
                    }
                    i += 1
                } else {
                    addCell(cellStart, bas + i, 0)
                    if c == delimiter {
                        state = .fieldStart
                        i += 1
                    } else {
                        return endRow(at: i, c)
                    }
                }
            case .quoted:
                var j = i
                var c = b
                while c != quote && c != lf && c != cr {
                    j += 1
                    if j == cnt { break }
                    c = buf[j]
                }
                i = j
                if i == cnt { continue scan }
                if c == quote {
                    state = .quotedQuote
                } else {
                    newline(at: i, c)
                    // The first line break inside the quote, or the LF completing its CRLF.
                    if resync == nil || (c == lf && i > 0 && buf[i - 1] == cr && resync?.offset == bas + i) {
                        resync = (bas + i + 1, line)
                    }
                }
                i += 1
            case .quotedQuote:
                if b == quote {
                    escaped = true
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    addCell(cellStart, bas + i - 1, CSVReader.flagQuoted | (escaped ? CSVReader.flagEscaped : 0))
                    state = .fieldStart
                    i += 1
                } else if b == lf || b == cr {
                    addCell(cellStart, bas + i - 1, CSVReader.flagQuoted | (escaped ? CSVReader.flagEscaped : 0))
                    return endRow(at: i, b)
                } else {
                    fail(.malformedCSV, "text after the closing quote of a field (RFC 4180 section 2.7: double a quote inside a quoted field)", bas + i)
                    state = .garbage
                }
            }
        }
        // The end of the input (or a row past the size limit inside quotes).
        switch state {
        case .fieldStart:
            startCell(base + i)
            addCell(base + i, base + i, 0)
        case .unquoted, .garbage:
            addCell(cellStart, base + i, 0)
        case .quotedQuote:
            addCell(cellStart, base + i - 1, CSVReader.flagQuoted | (escaped ? CSVReader.flagEscaped : 0))
        case .quoted:
            rowError = .error(.unterminatedQuote,
                              "a quoted field never closes; reading resumes on line \(openPosition.line + 1), after the line of its opening quote",
                              at: location(openPosition))
            if let resync {
                i = resync.offset - base
                line = resync.line
                lineStart = resync.offset
                columnCountedTo = lineStart
                columnCount = 0
                if i > 0 && buffer[i - 1] == CSVReader.cr { pendingLF = true }
            } else if !atEnd {
                throw FerryError(.tooLarge, "a row is longer than \(maximumRecordBytes) bytes",
                                 at: location(TextPosition(line: rowLine, column: 1)))
            }
            pos = i
            recordStart = i
            return true
        }
        rowEndPosition = TextPosition(line: line, column: column(at: base + i))
        pos = i
        recordStart = i
        return true
    }

    /// Ends the row at the line break `byte` at buffer index `i`.
    private func endRow(at i: Int, _ byte: UInt8) -> Bool {
        rowEndPosition = TextPosition(line: line, column: column(at: base + i))
        newline(at: i, byte)
        pendingLF = byte == CSVReader.cr
        pos = i + 1
        recordStart = pos
        return true
    }

    // MARK: - Cells

    /// The scanned row's cells as plain values, read without touching the reader's properties
    /// (each use of one costs an exclusivity check on the hot path).
    private struct RowView {
        let buffer: UnsafeMutablePointer<UInt8>
        let base: Int
        let starts: [Int]
        let ends: [Int]
        let flags: [UInt8]
        let nullToken: [UInt8]?

        enum CellText {
            /// Unquoted and empty, or the null token.
            case absent
            /// Not UTF-8.
            case invalid
            case text(String)
        }

        init(buffer: UnsafeMutablePointer<UInt8>, base: Int, starts: [Int], ends: [Int], flags: [UInt8], nullToken: [UInt8]?) {
            self.buffer = buffer
            self.base = base
            self.starts = starts
            self.ends = ends
            self.flags = flags
            self.nullToken = nullToken
        }

        /// What `CSVReader.cellText` gives: the unescaped text, absent, or invalid (the caller throws).
        func text(_ k: Int, scratch: inout [UInt8]) -> CellText {
            let start = starts[k] - base, end = ends[k] - base
            let flags = self.flags[k]
            if flags & CSVReader.flagQuoted == 0 {
                if start == end { return .absent }
                if let nullToken, nullToken.count == end - start,
                   nullToken.elementsEqual(UnsafeBufferPointer(start: buffer + start, count: end - start)) {
                    return .absent
                }
            }
            let text: String?
            if flags & CSVReader.flagEscaped != 0 {
                scratch.removeAll(keepingCapacity: true)
                var j = start
                while j < end {
                    let b = buffer[j]
                    scratch.append(b)
                    j += b == CSVReader.quote ? 2 : 1
                }
                text = scratch.withUnsafeBufferPointer { CSVReader.string(validating: $0) }
            } else {
                text = CSVReader.string(validating: UnsafeBufferPointer(start: buffer + start, count: end - start))
            }
            return text.map { .text($0) } ?? .invalid
        }
    }

    /// The text of cell `k` (unescaped), or nil when it is absent (unquoted and empty, or the null
    /// token). Throws `invalid-encoding` for bytes that are not UTF-8.
    private func cellText(_ k: Int) throws -> String? {
        let start = cellStarts[k] - base, end = cellEnds[k] - base
        let flags = cellFlags[k]
        let quoted = flags & CSVReader.flagQuoted != 0
        if !quoted {
            if start == end { return nil }
            if let nullToken, nullToken.count == end - start,
               nullToken.elementsEqual(UnsafeBufferPointer(start: buffer + start, count: end - start)) {
                return nil
            }
        }
        var text: String?
        if flags & CSVReader.flagEscaped != 0 {
            scratch.removeAll(keepingCapacity: true)
            var j = start
            while j < end {
                let b = buffer[j]
                scratch.append(b)
                j += b == CSVReader.quote ? 2 : 1
            }
            text = scratch.withUnsafeBufferPointer { CSVReader.string(validating: $0) }
        } else {
            text = CSVReader.string(validating: UnsafeBufferPointer(start: buffer + start, count: end - start))
        }
        guard let text else { throw encodingError(cell: k) }
        return text
    }

    /// The `invalid-encoding` error for the first bad byte of cell `k`.
    private func encodingError(cell k: Int) -> FerryError {
        var lineNumber = cellPositions[2 * k]
        var columnNumber = cellPositions[2 * k + 1]
        // Walk from the cell's first byte (its opening quote when quoted) to the bad byte.
        var j = cellStarts[k] - base - (cellFlags[k] & CSVReader.flagQuoted != 0 ? 1 : 0)
        let end = cellEnds[k] - base
        var bad = end
        while j < end {
            let length = CSVReader.validSequenceLength(buffer + j, end - j)
            if length == 0 {
                bad = j
                break
            }
            let b = buffer[j]
            if b == CSVReader.lf && j > 0 && buffer[j - 1] == CSVReader.cr {
                // Second half of a CRLF.
            } else if b == CSVReader.lf || b == CSVReader.cr {
                lineNumber += 1
                columnNumber = 0
            }
            columnNumber += 1
            j += length
        }
        let byte = bad < count ? String(buffer[bad], radix: 16, uppercase: true) : "?"
        return FerryError(.invalidEncoding,
                          "byte 0x\(byte) at byte offset \(base + bad) is not valid UTF-8; name the input's encoding with --encoding (latin1, windows-1252, utf-16)",
                          at: location(TextPosition(line: lineNumber, column: columnNumber)))
    }

    /// The text of `bytes` when they are well-formed UTF-8, else nil: ASCII is checked eight
    /// bytes at a time, anything else sequence by sequence (`validSequenceLength`).
    static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return "" }
        let count = bytes.count
        var i = 0
        while i + 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        while i < count {
            if base[i] < 0x80 {
                i += 1
                continue
            }
            let length = validSequenceLength(base + i, count - i)
            if length == 0 { return nil }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of the valid UTF-8 sequence at `p` (1...4), or 0 when it is not valid
    /// (RFC 3629 section 4: no overlongs, no surrogates, nothing above U+10FFFF).
    static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let b0 = p[0]
        if b0 < 0x80 { return 1 }
        func cont(_ k: Int) -> Bool { k < available && p[k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0...0xEF:
            guard cont(1), cont(2) else { return 0 }
            if b0 == 0xE0 && p[1] < 0xA0 { return 0 }
            if b0 == 0xED && p[1] > 0x9F { return 0 }
            return 3
        case 0xF0...0xF4:
            guard cont(1), cont(2), cont(3) else { return 0 }
            if b0 == 0xF0 && p[1] < 0x90 { return 0 }
            if b0 == 0xF4 && p[1] > 0x8F { return 0 }
            return 4
        default:
            return 0
        }
    }

    /// True when `text` follows the JSON number grammar (RFC 8259 section 6).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                bytes.removeFirst()
                n += 1
            }
            return n
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
