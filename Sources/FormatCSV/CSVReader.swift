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
public final class CSVReader: ColumnRecordReader {
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

    /// True when the first header cell is `$collection` (`CSVWriter.collectionColumn`): the file
    /// holds several collections and each row names its own there (`Record.collection`); that
    /// cell is not part of the record, and a row's absent cells are the fields its collection lacks.
    public var recordsNameCollections: Bool { decoder?.context.namesCollections ?? false }

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
    let maximumRecordBytes: Int

    // (Internal members are shared with CSVReader+Batches.swift.)
    // The buffer: `buffer[0..<count]` holds input bytes; `base` is the absolute offset (in the UTF-8
    // stream) of `buffer[0]`; bytes before `recordStart` may be dropped on refill.
    var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var count = 0
    var base = 0
    var atEnd = false
    var recordStart = 0
    /// Where the header row starts (buffer index): after any BOM.
    private var pos = 0

    /// Splits rows into cells; owns its cell storage (freed in `deinit`).
    var scanner: CSVRowScanner
    /// Turns rows into records once the header is read.
    var decoder: CSVRowDecoder?
    /// The record index of the next data row (blank rows take none). With `--jobs` batches, the
    /// index predicted when the rows were cut; `indexShift` corrects it.
    var dataIndex = 0
    /// `--jobs`: how far the record indices predicted for the batches cut so far are behind the
    /// rows' real ones (the batches' own counts; see `items(from:)`).
    var indexShift = 0
    /// In a `$collection` file, the next record index of each collection: a record's index counts
    /// the records of its own collection, as in JSON Lines (its pointer is `/<collection>/<index>`).
    var collectionIndexes: [String: Int] = [:]
    /// The first data row, scanned early in no-header mode to count the columns.
    var heldRow = false
    /// `--jobs`: the row at the scan point is read on its own (see `nextBatch(limit:)`).
    var nextRowAlone = false
    /// `--jobs`: a row read on its own stopped reading (no more batches).
    var batchesFailed = false

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
        self.scanner = CSVRowScanner(delimiter: CSVReader.comma, maximumRecordBytes: self.maximumRecordBytes, offset: 0, line: 1)
        try startInput()
        try detectDelimiter()
        scanner.deallocate()
        scanner = CSVRowScanner(delimiter: delimiter, maximumRecordBytes: self.maximumRecordBytes, offset: base + pos, line: 1)
        scanner.endsAtCut = inputEndsAtCut
        let expectedFields: Int?
        if options.hasHeader {
            try readHeader()
            expectedFields = headerFields.count
        } else {
            heldRow = try scanRow()
            let columns = heldRow ? scanner.cellCount : 0
            expectedFields = heldRow ? columns : nil
            headerFields = (0..<columns).map { String($0 + 1) }
            layout = CSVFlattening.Layout(names: headerFields, unflattens: false)
        }
        decoder = CSVRowDecoder(context: CSVRowContext(
            layout: layout, headerFields: headerFields, expectedFields: expectedFields, options: options))
    }

    deinit {
        buffer.deallocate()
        scanner.deallocate()
        decoder?.deallocate()
    }

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
            } else if declared == nil, !hasUTF8BOM, let order = CSVFormat.utf16ByteOrder(of: Array(b.prefix(512))[...]) {
                // UTF-16 without a mark, as some Windows tools write it: a NUL beside each ASCII
                // character, which no UTF-8 text holds. Read as `--encoding utf-16` reads it.
                encoding = .utf16
                littleEndian = order
                bomLength = 0
            } else {
                encoding = .utf8
                bomLength = hasUTF8BOM ? 3 : 0
            }
        case .utf16?:
            encoding = .utf16
            bomLength = hasLE || hasBE ? 2 : 0
            // No mark: the order the text shows (a NUL after each ASCII character is little
            // endian, as Windows writes it), else big endian (RFC 2781 section 4.3).
            littleEndian = hasLE || (bomLength == 0 && CSVFormat.utf16ByteOrder(of: Array(b.prefix(512))[...]) == true)
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
    func refill() throws -> Int {
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
        // Never more than one byte past the record limit from the row's start: the scanner then
        // runs out of bytes there and applies the limit (a bigger read would hand it the whole
        // row, which it would take).
        let beyond = maximumRecordBytes + 1 - (count - recordStart)
        let room = beyond > 0 ? min(capacity - count, beyond) : capacity - count
        let n = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer + count, count: room))
        if n == 0 {
            atEnd = true
            // Known only at the end: a compressed file whose stream stops early.
            scanner.endsAtCut = inputEndsAtCut
        } else {
            count += n
        }
        return shift
    }

    /// True when the input ends where it was cut: said by the options (a tar cut inside this
    /// member), or by the source once it has ended (`ByteSource.endsAtCut`).
    private var inputEndsAtCut: Bool { options.endsAtCut || (atEnd && input.endsAtCut) }

    // MARK: - Positions

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
            // A bundle's member of a collection with no records is empty (it has no columns to
            // name); the manifest's count says how many records it holds.
            if options.member != nil { return }
            throw FerryError(.malformedCSV, "the input is empty: a header row was expected",
                             at: location(TextPosition(line: 1, column: 1)))
        }
        if let rowError = scanner.rowError {
            throw FerryError(.error(rowError.code, rowError.message, at: location(rowError.position)))
        }
        var originals: [String] = []
        let cellCount = scanner.cellCount
        let cellPositions = scanner.cellPositions(in: buffer, base: base)
        for k in 0..<cellCount {
            let cell = scanner.cells[k]
            let name: String
            switch CSVRowDecoder.text(cell, buffer + (scanner.rowStart - base), nullToken: nullToken) {
            case .absent: name = ""
            case .text(let text): name = text
            case .invalid:
                throw CSVRowDecoder.encodingError(cell, at: scanner.position(of: cell, in: buffer, base: base),
                                                  buffer + (scanner.rowStart - base), rowStart: scanner.rowStart,
                                                  held: count - (scanner.rowStart - base), inputLocation: headerLocation)
            }
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
        layout = CSVFlattening.Layout(names: names, unflattens: unflattens)
        if let expectedHeader, expectedHeader != names {
            let k = (0..<min(expectedHeader.count, names.count)).first { expectedHeader[$0] != names[$0] }
                ?? min(expectedHeader.count, names.count)
            let position = k < cellCount
                ? TextPosition(line: cellPositions[2 * k], column: cellPositions[2 * k + 1]) : scanner.rowEndPosition(in: buffer, base: base)
            log.report(.error(.malformedCSV, "the header is '\(names.joined(separator: ","))', expected '\(expectedHeader.joined(separator: ","))'",
                              at: location(position)))
        }
    }

    // MARK: - Records

    public func next() throws -> Record? {
        while let outcome = try nextOutcome() {
            switch outcome {
            case .blank:
                continue
            case .problem(let diagnostic):
                dataIndex += 1
                log.report(diagnostic)
            case .taken(let item):
                // Never comes here (rows read one by one are not offered to a taker): as a record.
                var record = item.record
                record.location.recordIndex = dataIndex + indexShift
                dataIndex += 1
                if recordsNameCollections { numberInCollection(&record) }
                return record
            case .record(var record):
                record.location.recordIndex = dataIndex + indexShift
                dataIndex += 1
                if recordsNameCollections { numberInCollection(&record) }
                return record
            case .failure(let error):
                dataIndex += 1
                throw error
            }
        }
        return nil
    }

    /// Gives `record` the next index of its collection (a `$collection` file).
    func numberInCollection(_ record: inout Record) {
        record.location.recordIndex = nextIndex(in: record.collection)
    }

    /// The next record index in `collection` (each collection of a `$collection` file counts its own).
    func nextIndex(in collection: String?) -> Int {
        let key = collection ?? ""
        let index = collectionIndexes[key, default: 0]
        collectionIndexes[key] = index + 1
        return index
    }

    /// What the next row gives, nil at the end of the input.
    /// - Throws: `too-large` for a row past the limit; the source's read errors.
    func nextOutcome() throws -> CSVRowOutcome? {
        if heldRow {
            heldRow = false
        } else {
            guard try scanRow() else { return nil }
        }
        guard var decoder else { return nil }
        let outcome = decoder.outcome(scanner, buffer, base: base, count: count)
        self.decoder = decoder
        return outcome
    }

    /// Scans the next row into `scanner`, reading more input as needed. False at the end of the input.
    /// - Throws: `too-large` for a row past the limit; the source's read errors.
    func scanRow() throws -> Bool {
        while true {
            switch scanner.scan(buffer, base: base, count: count, atEnd: atEnd) {
            case .row:
                for position in scanner.strayQuotes {
                    log.report(CSVRowScanner.strayQuoteWarning(at: location(position)))
                }
                return true
            case .end:
                return false
            case .needMore:
                recordStart = scanner.keepFrom - base
                try refill()
            case .tooLarge:
                throw FerryError(.tooLarge, "a row is longer than \(maximumRecordBytes) bytes",
                                 at: location(TextPosition(line: scanner.rowLine, column: 1)))
            }
        }
    }

    /// The location of header problems.
    private var headerLocation: SourceLocation {
        var location = options.inputLocation
        location.collection = options.collection
        return location
    }

    /// True when `bytes` follow the JSON number grammar (RFC 8259 section 6).
    static func isJSONNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func digits() -> Int {
            let start = i
            while i < n, bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }
        if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < n, bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return false }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { return false }
        }
        return i == n
    }
}
