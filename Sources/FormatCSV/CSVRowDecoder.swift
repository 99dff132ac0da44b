import FerryCore

/// What one data row gave, before the reader numbers it (`recordIndex` is set in input order).
/// A problem and a record are boxed (`indirect`): an outcome is the size of a `TakenItem`, which
/// the typed path's rows are, not of a `Record`.
enum CSVRowOutcome: @unchecked Sendable {
    // @unchecked: `failure` holds an error made by this module (`FerryError`), which is Sendable.
    /// A blank line, skipped (no record index).
    case blank
    /// A bad row, reported and skipped (it takes a record index).
    indirect case problem(Diagnostic)
    /// A record, its `recordIndex` still unset.
    indirect case record(Record)
    /// A record a `RawRecordTaker` took (`--jobs` batches only), its `recordIndex` still unset.
    case taken(TakenItem)
    /// What stops reading: bytes that are not UTF-8, a row past the size limit.
    case failure(any Error)
}

/// Everything a row's decoding needs once the header is read: fixed, shared by the reader and
/// the `--jobs` workers.
final class CSVRowContext: Sendable {
    let layout: CSVFlattening.Layout
    let headerFields: [String]
    /// The cells a row must have; nil with no header and no first row.
    let expectedFields: Int?
    let nullToken: [UInt8]?
    let inferTypes: Bool
    let collection: String?
    /// True when the first column is `$collection` (`CSVWriter.collectionColumn`): each row names
    /// its collection there, and that cell is not part of the record.
    let namesCollections: Bool
    /// The input's location with the collection set; positions are filled in per diagnostic.
    let inputLocation: SourceLocation

    init(layout: CSVFlattening.Layout, headerFields: [String], expectedFields: Int?, options: ReadOptions) {
        self.layout = layout
        self.headerFields = headerFields
        self.expectedFields = expectedFields
        self.nullToken = options.nullToken.map { Array($0.utf8) }
        self.inferTypes = options.inferTypes
        self.collection = options.collection
        self.namesCollections = options.hasHeader && headerFields.first == CSVWriter.collectionColumn
        var location = options.inputLocation
        location.collection = options.collection
        self.inputLocation = location
    }

    func location(_ position: TextPosition) -> SourceLocation { inputLocation.at(position) }
}

extension SourceLocation {
    /// This location at `position`.
    func at(_ position: TextPosition) -> SourceLocation {
        var location = self
        location.position = position
        return location
    }
}

/// Turns the scanned cells of one row into a record (or a problem), as `CSVReader.next()` defines:
/// blank lines, syntax errors, ragged rows, absent cells, type inference, unflattening.
///
/// Holds scratch storage reused row after row; `deallocate()` frees it.
struct CSVRowDecoder {
    let context: CSVRowContext
    private var values: UnsafeMutablePointer<Value?>
    private var valueCapacity: Int
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity: Int
    /// The cells of a row offered to a `RawRecordTaker`, and the text of its escaped cells.
    private var rawCells: UnsafeMutablePointer<RawCSVCell>
    private var rawCellCapacity: Int
    private var rawText: UnsafeMutablePointer<UInt8>
    private var rawTextCapacity: Int

    init(context: CSVRowContext) {
        self.context = context
        valueCapacity = max(context.headerFields.count, 8)
        values = UnsafeMutablePointer<Value?>.allocate(capacity: valueCapacity)
        scratchCapacity = 256
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity)
        rawCellCapacity = 0
        rawCells = UnsafeMutablePointer<RawCSVCell>.allocate(capacity: 1)
        rawTextCapacity = 0
        rawText = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    }

    /// Frees the scratch storage; the decoder is not used after.
    func deallocate() {
        values.deallocate()
        scratch.deallocate()
        rawCells.deallocate()
        rawText.deallocate()
    }

    /// The text of a header cell.
    enum CellText {
        /// Unquoted and empty, or the null token.
        case absent
        /// Not UTF-8.
        case invalid
        case text(String)
    }

    /// What the row `scanner` just scanned gives. `p[0]` is at absolute offset `base`; `count` bytes.
    /// A row that makes a record is first offered to `taker` (not with `--infer-types`), whose
    /// bytes `source` holds (a batch's): when it takes the row, its value is not built and its
    /// locator finds positions only when asked (`.taken`, with a `CSVRowLocator`).
    mutating func outcome(_ scanner: CSVRowScanner, _ p: UnsafePointer<UInt8>, base: Int, count: Int,
                          offeringTo taker: (any RawRecordTaker)? = nil, source: CSVRowSource? = nil) -> CSVRowOutcome {
        let fields = scanner.cellCount
        let cells = scanner.cells
        // The row the input's cut runs into: whatever it holds may be cut anywhere (its last
        // cell, or a cell after its last comma). The cut is said where it is found, once.
        // A CR the input ends with may be the first half of the row's CRLF: the row is cut too.
        if scanner.endsAtCut, scanner.rowEndsInput || scanner.rowEndsAtLoneCR { return .blank }
        // A blank line: skipped when the header has two or more columns.
        if fields == 1, cells[0].flags == 0, cells[0].start == cells[0].end, scanner.rowError == nil,
           let expected = context.expectedFields, expected >= 2 {
            return .blank
        }
        if let error = scanner.rowError {
            return .problem(.error(error.code, error.message, at: context.location(error.position)))
        }
        if let expected = context.expectedFields, fields != expected {
            return .problem(ragged(scanner, p, base: base, fields: fields, expected: expected))
        }
        // The row's bytes, from its first one (the cells' offsets count from there).
        let row = p + (scanner.rowStart - base)
        // A row of a `$collection` file is read as a value: its collection comes from a cell.
        if let taker, let source, !context.inferTypes, !context.namesCollections, let taken = offer(scanner, row, to: taker) {
            let locator = CSVRowLocator(source: source, start: scanner.rowStart, line: scanner.rowLine,
                                        firstLineCells: scanner.firstLineCells)
            return .taken(TakenItem(
                payload: taken.payload, collection: context.collection, recordIndex: 0,
                start: TextPosition(line: scanner.rowLine, column: 1), singleLine: locator.singleLine ?? 0,
                span: scanner.rowStart..<scanner.rowStart, detail: scanner.firstLineCells, source: source))
        }
        if fields > valueCapacity { growValues(fields) }
        for k in 0..<fields {
            guard let value = cellValue(cells[k], row) else {
                values.deinitialize(count: k)
                return .failure(Self.encodingError(cells[k], at: scanner.position(of: cells[k], in: p, base: base), row,
                                                   rowStart: scanner.rowStart, held: count - (scanner.rowStart - base),
                                                   inputLocation: context.inputLocation))
            }
            (values + k).initialize(to: value)
        }
        var collection = context.collection
        if context.namesCollections, fields > 0 {
            if case .string(let name)? = values[0] { collection = name }
            values[0] = nil
        }
        let object = context.layout.build(consuming: values, count: fields)
        return .record(record(.object(object), collection: collection, scanner, p, base: base))
    }

    /// The record of the row `scanner` just scanned, holding `value`: its collection, location and
    /// locator (its `recordIndex` is set by the reader).
    private func record(_ value: Value, collection: String?, _ scanner: CSVRowScanner, _ p: UnsafePointer<UInt8>, base: Int)
        -> Record
    {
        let positions = scanner.cellPositions(in: p, base: base)
        var location = context.location(TextPosition(line: scanner.rowLine, column: 1))
        location.collection = collection
        return Record(
            collection: collection, value: value,
            location: location,
            locator: CSVFieldLocator(layout: context.layout, cellPositions: positions))
    }

    /// Offers the row `scanner` just scanned (the header's field count, no syntax error; its bytes
    /// from `row` on) to `taker` as a `RawCSVRow`: cells with their quotes removed and doubled
    /// quotes made single (in `rawText`), absent exactly when `cellValue` makes them absent.
    private mutating func offer(_ scanner: CSVRowScanner, _ row: UnsafePointer<UInt8>, to taker: any RawRecordTaker) -> TakenRecord? {
        let fields = scanner.cellCount
        let cells = scanner.cells
        var escapedBytes = 0
        for k in 0..<fields where cells[k].flags & CSVCell.escaped != 0 { escapedBytes += cells[k].end - cells[k].start }
        reserveRaw(cells: fields, text: escapedBytes)
        var used = 0
        for k in 0..<fields {
            let cell = cells[k]
            let quoted = cell.isQuoted
            var bytes = UnsafeBufferPointer(start: row + cell.start, count: cell.end - cell.start)
            let absent = !quoted && Self.isAbsent(bytes, nullToken: context.nullToken)
            if cell.flags & CSVCell.escaped != 0 {
                let n = Self.unescape(bytes, into: rawText + used)
                bytes = UnsafeBufferPointer(start: rawText + used, count: n)
                used += n
            }
            (rawCells + k).initialize(to: RawCSVCell(text: bytes, isAbsent: absent, isQuoted: quoted))
        }
        let raw = RawCSVRow(columns: context.headerFields, cells: UnsafeBufferPointer(start: rawCells, count: fields),
                            collection: context.collection, line: scanner.rowLine)
        return taker.take(.csvRow(raw))
    }

    /// Makes room for a raw row of `cells` cells whose escaped cells hold `text` bytes.
    private mutating func reserveRaw(cells: Int, text: Int) {
        if cells > rawCellCapacity {
            rawCells.deallocate()
            rawCellCapacity = max(cells, 2 * rawCellCapacity)
            rawCells = UnsafeMutablePointer<RawCSVCell>.allocate(capacity: rawCellCapacity)
        }
        if text > rawTextCapacity {
            rawText.deallocate()
            rawTextCapacity = max(text, 2 * rawTextCapacity, 256)
            rawText = UnsafeMutablePointer<UInt8>.allocate(capacity: rawTextCapacity)
        }
    }

    /// The `ragged-row` error of a row with `fields` cells where the header has `expected`: at
    /// the first extra cell, or where the row ends for one short of cells (said to be the input
    /// cut short when the input ends there with no line break).
    private func ragged(_ scanner: CSVRowScanner, _ p: UnsafePointer<UInt8>, base: Int, fields: Int, expected: Int) -> Diagnostic {
        let message: String
        let position: TextPosition
        if fields > expected {
            // "and after" only when there are fields after it.
            message = "row has \(fields) fields, header has \(expected): field \(expected + 1)"
                + (fields == expected + 1 ? " is extra" : " and after are extra")
            position = scanner.position(of: scanner.cells[expected], in: p, base: base)
        } else {
            let headerFields = context.headerFields
            let name = fields < headerFields.count ? " (\(headerFields[fields]))" : ""
            let missing = "field \(fields + 1)\(name)" + (fields + 1 == expected ? " is missing" : " and after are missing")
            if scanner.rowEndsInput {
                // No line break ends the row: the input stops inside it, as a file cut mid-row
                // does, and is said to be cut short in the words of the other formats.
                message = "row has \(fields) fields, header has \(expected): the input ends inside the row on line "
                    + "\(scanner.rowLine), which is not complete (the input may be cut short): \(missing)"
            } else {
                message = "row has \(fields) fields, header has \(expected): \(missing)"
            }
            position = scanner.rowEndPosition(in: p, base: base)
        }
        return .error(.raggedRow, message, at: context.location(position))
    }

    private mutating func growValues(_ needed: Int) {
        values.deallocate()
        valueCapacity = max(needed, valueCapacity * 2)
        values = UnsafeMutablePointer<Value?>.allocate(capacity: valueCapacity)
    }

    /// The value of a cell of the row whose bytes start at `row`: `.some(nil)` when absent, nil
    /// when its bytes are not UTF-8.
    @inline(__always)
    private mutating func cellValue(_ cell: CSVCell, _ row: UnsafePointer<UInt8>) -> Value?? {
        let quoted = cell.isQuoted
        var bytes = UnsafeBufferPointer(start: row + cell.start, count: cell.end - cell.start)
        if !quoted && Self.isAbsent(bytes, nullToken: context.nullToken) { return .some(nil) }
        if cell.flags & CSVCell.escaped != 0 { bytes = unescape(bytes) }
        if context.inferTypes && !quoted, let typed = Self.inferredValue(bytes) { return typed }
        guard let text = UTF8Text.string(validating: bytes) else { return nil }
        return .string(text)
    }

    /// True for an unquoted cell that is empty or the null token.
    @inline(__always)
    static func isAbsent(_ bytes: UnsafeBufferPointer<UInt8>, nullToken: [UInt8]?) -> Bool {
        if bytes.isEmpty { return true }
        guard let nullToken, nullToken.count == bytes.count else { return false }
        return nullToken.elementsEqual(bytes)
    }

    /// `true`, `false` and JSON numbers of an unquoted cell (`--infer-types`), nil for anything else.
    private static func inferredValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        if bytes.elementsEqual("true".utf8) { return .bool(true) }
        if bytes.elementsEqual("false".utf8) { return .bool(false) }
        if CSVReader.isJSONNumber(bytes) { return .number(String(decoding: bytes, as: UTF8.self)) }
        return nil
    }

    /// The content of a quoted cell with its doubled quotes made single, in the scratch storage.
    private mutating func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if bytes.count > scratchCapacity {
            scratch.deallocate()
            scratchCapacity = max(bytes.count, scratchCapacity * 2)
            scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity)
        }
        return UnsafeBufferPointer(start: scratch, count: Self.unescape(bytes, into: scratch))
    }

    /// Copies the content of a quoted cell to `out` (room for `bytes.count` bytes) with its doubled
    /// quotes made single; returns how many bytes it wrote. (The scanner marks a cell escaped only
    /// when every quote in it is doubled.)
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        var j = 0
        while j < bytes.count {
            let b = bytes[j]
            out[n] = b
            n += 1
            j += b == CSVReader.quote ? 2 : 1
        }
        return n
    }

    /// The text of `cell` of the row whose bytes start at `row`, as the header reads it (before
    /// any decoder exists).
    static func text(_ cell: CSVCell, _ row: UnsafePointer<UInt8>, nullToken: [UInt8]?) -> CellText {
        let bytes = UnsafeBufferPointer(start: row + cell.start, count: cell.end - cell.start)
        if !cell.isQuoted && isAbsent(bytes, nullToken: nullToken) { return .absent }
        var unescaped: [UInt8] = []
        if cell.flags & CSVCell.escaped != 0 {
            var j = 0
            while j < bytes.count {
                unescaped.append(bytes[j])
                j += bytes[j] == CSVReader.quote ? 2 : 1
            }
            return unescaped.withUnsafeBufferPointer { UTF8Text.string(validating: $0) }.map { .text($0) } ?? .invalid
        }
        return UTF8Text.string(validating: bytes).map { .text($0) } ?? .invalid
    }

    /// The `invalid-encoding` error for the first bad byte of `cell`, which starts at `start`, in
    /// the row whose bytes start at `row` (absolute offset `rowStart`; `held` bytes held from there).
    static func encodingError(_ cell: CSVCell, at start: TextPosition, _ row: UnsafePointer<UInt8>, rowStart: Int, held: Int,
                              inputLocation: SourceLocation) -> FerryError {
        let p = row
        var lineNumber = start.line
        var columnNumber = start.column
        // Walk from the cell's first byte (its opening quote when quoted) to the bad byte.
        var j = cell.start - (cell.isQuoted ? 1 : 0)
        let end = cell.end
        var bad = end
        while j < end {
            let length = UTF8Text.validSequenceLength(p + j, end - j)
            if length == 0 {
                bad = j
                break
            }
            let b = p[j]
            if b == CSVReader.lf && j > 0 && p[j - 1] == CSVReader.cr {
                // Second half of a CRLF.
            } else if b == CSVReader.lf || b == CSVReader.cr {
                lineNumber += 1
                columnNumber = 0
            }
            columnNumber += 1
            j += length
        }
        let byte = bad < held ? String(p[bad], radix: 16, uppercase: true) : "?"
        return FerryError(.invalidEncoding,
                          "byte 0x\(byte) at byte offset \(rowStart + bad) is not valid UTF-8; name the input's encoding with --encoding (latin1, windows-1252, utf-16)",
                          at: inputLocation.at(TextPosition(line: lineNumber, column: columnNumber)))
    }
}
