import FerryCore
import FerrySchemas
import FormatCSV

/// Reads CSV rows of one header as models of one type, straight from their cells: `ModelReader`
/// over the row's `CSVCursor`, so every rule of SCHEMAS.md is checked by the one model reader, as
/// for every other format. Built once per (type, header) and shared by threads.
///
/// `decode` gives the model the general path gives (the CSV reader's `Value`, then
/// `T(value:at:diagnostics:)` with `scalarsAsText`: `CSVCursorConformanceTests`), or nil when the
/// reader reports anything (error, warning or note) or a cell is not UTF-8 (the CSV reader stops
/// there); the general path then reads the row and reports its problems with their positions.
public final class CSVRecordReading<T: FieldCodable>: Sendable {
    /// The number of cells a row must have.
    private let columnCount: Int
    /// The header's tree, as the CSV reader unflattens it.
    private let tree: CSVHeaderTree
    /// Where `T`'s fields stand in the tree.
    private let map: CSVFieldMap
    /// The context the reader reports in: no record, no place (its reports only decide that the
    /// row is left to the general path).
    private let context: RecordContext

    /// Reads rows of the header `columns` (the reader's header fields, as `RawCSVRow.columns`
    /// gives them) as `T`. `options` must be the general path's (`--date-strategy`, `--time-zone`)
    /// with `scalarsAsText` set; nil when it is not set.
    public init?(columns: [String], options: DecodingOptions) {
        guard options.scalarsAsText else { return nil }
        columnCount = columns.count
        tree = CSVFlattening.Layout(names: columns).tree
        map = CSVFieldMap(tree, T.recordType)
        context = RecordContext(record: Record(collection: nil, value: .null, location: SourceLocation()), options: options)
    }

    /// The row read as `T`, or nil when the reader reports anything or a cell is not UTF-8. The
    /// row must have this header's columns (nil when its cell count differs).
    ///
    /// The cells' UTF-8 is checked once, for the whole row (`CSVCursor.isUTF8`: a word at a time
    /// for ASCII); the cursor then makes each cell's `String` without checking it again.
    public func decode(_ row: RawCSVRow) -> T? {
        decode(row, on: BatchModelReader())
    }

    /// `decode(_:)` on the reader of a run of rows (a lane batch's), which keeps it from row to row.
    func decode(_ row: RawCSVRow, on rows: BatchModelReader<CSVCursor>) -> T? {
        guard row.cells.count == columnCount, CSVCursor.isUTF8(row.cells) else { return nil }
        return CSVCursor.withCursor(tree: tree, map: map, cells: row.cells, scalarsAsText: true) { cursor -> T? in
            rows.read(T.self, cursor, owner: ObjectIdentifier(self), context: context)
        }
    }
}
