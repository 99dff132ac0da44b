import FerryCore

/// Maps a field of one CSV record to the line and column where its cell starts (the opening quote
/// for a quoted cell). Holds the row's cell start positions and the header layout it shares with
/// every other row.
///
/// An empty (absent) cell still has a position: the locator returns it, so a `missing-field`
/// diagnostic points at the empty cell rather than at the row.
public struct CSVFieldLocator: FieldLocating {
    /// The header's compiled layout.
    public let layout: CSVFlattening.Layout
    /// `[line0, column0, line1, column1, ...]`, one pair per cell of the row, 1-based.
    public let cellPositions: [Int]

    public init(layout: CSVFlattening.Layout, cellPositions: [Int]) {
        self.layout = layout
        self.cellPositions = cellPositions
    }

    /// The line every cell starts on, when the row's cells all start on one line (a row without
    /// line breaks inside quotes before its last cell): every position this locator gives is then
    /// on that line, so the id check finds a record's line without looking up its column.
    public var singleLine: Int? {
        guard cellPositions.count >= 2, cellPositions[0] == cellPositions[cellPositions.count - 2] else { return nil }
        return cellPositions[0]
    }

    /// The position of the cell of `field` (`/tastes/0/value`), or of the first cell under an
    /// object or list pointer (`/tastes/0`); nil when no column maps there.
    public func position(of field: JSONPointer) -> TextPosition? {
        guard let column = layout.column(of: field), 2 * column + 1 < cellPositions.count else { return nil }
        return TextPosition(line: cellPositions[2 * column], column: cellPositions[2 * column + 1])
    }
}
