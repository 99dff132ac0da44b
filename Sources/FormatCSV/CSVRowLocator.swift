import FerryCore

/// The bytes of a batch of CSV rows (`CSVBatch`), shared by the locators of its records.
final class CSVRowSource: Sendable {
    /// Whole rows; `bytes[0]` is at absolute offset `base`.
    let bytes: [UInt8]
    let base: Int
    let delimiter: UInt8
    /// The header's compiled layout.
    let layout: CSVFlattening.Layout
    /// The cells of every row the typed path takes: the header's.
    let fields: Int

    /// The input's location with the collection set (`CSVRowContext.inputLocation`).
    let location: SourceLocation

    init(bytes: [UInt8], base: Int, delimiter: UInt8, layout: CSVFlattening.Layout, fields: Int, location: SourceLocation) {
        self.bytes = bytes
        self.base = base
        self.delimiter = delimiter
        self.layout = layout
        self.fields = fields
        self.location = location
    }
}

extension CSVRowSource: TakenRecordSource {
    /// The record of a row the typed path took (`CSVRowOutcome.taken`), as `CSVRowDecoder` makes
    /// that of a row it decodes but with a null value and a `CSVRowLocator`.
    func record(of item: TakenItem) -> Record {
        let locator = CSVRowLocator(source: self, start: item.span.lowerBound, line: item.start.line, firstLineCells: item.detail)
        var location = location.at(item.start)
        location.recordIndex = item.recordIndex
        return Record(collection: item.collection, value: .null, location: location, locator: locator)
    }

    /// The line of a cell of the row, from its locator alone.
    func line(of field: JSONPointer, in item: TakenItem) -> Int? {
        CSVRowLocator(source: self, start: item.span.lowerBound, line: item.start.line, firstLineCells: item.detail).line(of: field)
    }
}

/// The `FieldLocating` of a record the typed path took (`CSVRowOutcome.taken`): what
/// `CSVFieldLocator` would say of its row, found only when asked, by scanning the row again in
/// its batch's bytes. The usual questions need no scan: the line of a row without line breaks
/// inside quotes before its last cell (`singleLine`), and the line of a cell before the row's first
/// such line break (`line(of:)`). Three words, so that it is stored inside the record.
struct CSVRowLocator: FieldLocating {
    let source: CSVRowSource
    /// The row's first byte (absolute).
    let start: Int
    /// The row's first line, shifted left 24 bits, and the number of cells that start on it
    /// (`firstLineCap` when there are that many or more).
    private let lineAndCells: Int
    private static let firstLineCap = 1 << 24 - 1

    /// The locator of the row that starts at absolute offset `start` on line `line`, whose first
    /// `firstLineCells` cells start on that line.
    init(source: CSVRowSource, start: Int, line: Int, firstLineCells: Int) {
        self.source = source
        self.start = start
        self.lineAndCells = line << 24 | min(firstLineCells, Self.firstLineCap)
    }

    private var line: Int { lineAndCells >> 24 }
    private var firstLineCells: Int { lineAndCells & Self.firstLineCap }

    /// The line every cell starts on, when they all start on one line (`CSVFieldLocator.singleLine`).
    var singleLine: Int? { firstLineCells >= source.fields && firstLineCells < Self.firstLineCap ? line : nil }

    /// The line of the cell of `field` (`position(of:)?.line`), without a scan when the cell
    /// starts on the row's first line.
    func line(of field: JSONPointer) -> Int? {
        guard let column = source.layout.column(of: field) else { return nil }
        if column < firstLineCells && firstLineCells < Self.firstLineCap { return column < source.fields ? line : nil }
        return position(ofColumn: column)?.line
    }

    /// The position of the cell of `field`, or of the first cell under an object or list pointer;
    /// nil when no column maps there (`CSVFieldLocator.position(of:)`).
    func position(of field: JSONPointer) -> TextPosition? {
        source.layout.column(of: field).flatMap(position(ofColumn:))
    }

    /// Where the cell of column `column` starts, from a scan of the row.
    private func position(ofColumn column: Int) -> TextPosition? {
        source.bytes.withUnsafeBufferPointer { buffer -> TextPosition? in
            guard let p = buffer.baseAddress else { return nil }
            var scanner = CSVRowScanner(delimiter: source.delimiter, maximumRecordBytes: Int.max, offset: start, line: line)
            defer { scanner.deallocate() }
            guard case .row = scanner.scan(p, base: source.base, count: buffer.count, atEnd: true), column < scanner.cellCount
            else { return nil }
            return scanner.position(of: scanner.cells[column], in: p, base: source.base)
        }
    }
}
