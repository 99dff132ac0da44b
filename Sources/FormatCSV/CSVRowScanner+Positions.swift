import FerryCore

/// Lines and columns, counted from the row's bytes when one is wanted.
extension CSVRowScanner {
    /// Where `cell` of the row just scanned starts (its opening quote when quoted). `p[0]` is at
    /// absolute offset `base` and holds the row.
    func position(of cell: CSVCell, in p: UnsafePointer<UInt8>, base: Int) -> TextPosition {
        position(ofOffset: rowStart + cell.origin, in: p, base: base)
    }

    /// The number of cells of the row just scanned that start on its first line (before the first
    /// line break inside its quotes).
    var firstLineCells: Int {
        guard breakCount > 0 else { return cellCount }
        var k = 0
        while k < cellCount && rowStart + cells[k].origin < breaks[0].start { k += 1 }
        return k
    }

    /// Where the row just scanned ends (its line break, or the end of the input). `p[0]` is at
    /// absolute offset `base` and holds the row.
    func rowEndPosition(in p: UnsafePointer<UInt8>, base: Int) -> TextPosition {
        position(ofOffset: rowEnd, in: p, base: base)
    }

    /// The line and column of absolute offset `at` in the row being (or just) scanned: the line
    /// from the row's line breaks before it, the column from the Unicode scalars before it on
    /// that line, from 1.
    func position(ofOffset at: Int, in p: UnsafePointer<UInt8>, base: Int) -> TextPosition {
        // The last line started at or before `at` (binary search: a row may hold many lines).
        var low = 0, high = breakCount
        while low < high {
            let middle = (low + high) / 2
            if breaks[middle].start <= at { low = middle + 1 } else { high = middle }
        }
        let (start, line) = low == 0 ? (rowStart, rowLine) : breaks[low - 1]
        return TextPosition(line: line, column: CSVByteSearch.scalarCount(in: p, from: start - base, to: at - base) + 1)
    }

    /// `[line0, column0, line1, column1, ...]`: where each cell of the row just scanned starts
    /// (`CSVFieldLocator.cellPositions`). `p[0]` is at absolute offset `base` and holds the row.
    func cellPositions(in p: UnsafePointer<UInt8>, base: Int) -> [Int] {
        let fields = cellCount
        let cells = self.cells
        return [Int](unsafeUninitializedCapacity: 2 * fields) { buffer, initialized in
            // Cells and line breaks both come in order; each column is counted on from the cell
            // before when it is on the same line.
            var next = 0, line = rowLine, counted = rowStart, column = 1
            for k in 0..<fields {
                let origin = rowStart + cells[k].origin
                while next < breakCount && breaks[next].start <= origin {
                    (counted, line) = breaks[next]
                    next += 1
                    column = 1
                }
                column += CSVByteSearch.scalarCount(in: p, from: counted - base, to: origin - base)
                counted = origin
                buffer[2 * k] = line
                buffer[2 * k + 1] = column
            }
            initialized = 2 * fields
        }
    }
}
