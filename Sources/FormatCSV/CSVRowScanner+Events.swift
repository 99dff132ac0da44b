import FerryCore

/// What `scan` does when `walk` stops at something rarer than a cell's end: the bytes held
/// running out, a quote at their end, a CR at their end, room for more cells, syntax errors and
/// stray quotes.
extension CSVRowScanner {
    /// Decides the quote at offset `j` (from the row's start) inside a quoted cell with the byte
    /// after it, when scanning resumes between the two: a doubled quote (still quoted), the cell's
    /// end (then the delimiter or the row's line break), or text after the closing quote (RFC 4180
    /// section 2.7: the rest of the cell is plain text). The step when the row ends there.
    mutating func afterQuote(_ row: UnsafePointer<UInt8>, at j: Int) -> Step? {
        let c = row[j + 1]
        walker.next = j + 2
        if c == CSVReader.quote {
            walker.cellFlags |= CSVCell.escaped
            return nil
        }
        walker.inQuotes = false
        if c == delimiter || c == CSVReader.lf || c == CSVReader.cr {
            addCell(end: j)
            if c == delimiter {
                walker.cellStart = j + 2
                walker.cellFlags = 0
                return nil
            }
            return endRow(at: j + 1, c)
        }
        fail(.malformedCSV, "text after the closing quote of a field (RFC 4180 section 2.7: double a quote inside a quoted field)", row, j + 1)
        walker.cellFlags = CSVCell.opened
        walker.next = j + 1
        return nil
    }

    /// The bytes held end with the CR (at `j` from the row's start) that ends the row, its cells
    /// all added: asks for more, and ends the row with them (`pendingCR`).
    mutating func awaitByteAfterCR(at j: Int, base: Int, count: Int) -> Step {
        pendingCR = j
        offset = base + count
        return .needMore
    }

    /// The bytes held ran out inside the row: asks for more, or ends the row at the end of the
    /// input (or of the size limit inside quotes: an unterminated quote).
    mutating func endOfBytes(_ p: UnsafePointer<UInt8>, base: Int, count: Int, atEnd: Bool) -> Step {
        let end = base + count
        if end - rowStart > maximumRecordBytes && !quoteAtEnd {
            if !walker.inQuotes {
                offset = end
                inRow = false
                return .tooLarge
            }
        } else if !atEnd {
            offset = end
            return .needMore
        }
        inRow = false
        if quoteAtEnd {
            addCell(end: end - 1 - rowStart)
        } else if !walker.inQuotes || (endsAtCut && bytesEndInput) {
            addCell(end: end - rowStart)
        } else {
            // The opening quote is the first byte of the cell being scanned.
            let open = position(ofOffset: rowStart + walker.cellStart - 1, in: p, base: base)
            var resumeAt = end
            if let resync, resync.cell == walker.cellStart {
                rowError = RowError(
                    code: .unterminatedQuote,
                    message: "a quoted field never closes; reading resumes on line \(open.line + 1), after the line of its opening quote",
                    position: open)
                resumeAt = resync.offset
                line = resync.line
                lineStart = resync.offset
                if resumeAt - base > 0 && p[resumeAt - base - 1] == CSVReader.cr { pendingLF = true }
            } else if !atEnd {
                offset = end
                return .tooLarge
            } else {
                // No line follows the opening quote's: the input ends inside the field.
                rowError = RowError(
                    code: .unterminatedQuote,
                    message: "the input ends inside the quoted field that opens at line \(open.line), column \(open.column), "
                        + "which is not closed (the input is cut short)",
                    position: position(ofOffset: end, in: p, base: base))
            }
            offset = resumeAt
            return .row
        }
        rowEnd = end
        // Only the input's end gets here (the size limit outside quotes returned above), inside
        // quotes only at a cut.
        rowEndsInput = true
        offset = end
        return .row
    }

    /// Adds the cell being scanned, its content ending at offset `end` from the row's start.
    private mutating func addCell(end: Int) {
        if walker.cursor == walker.limit { growCells() }
        walker.cursor.initialize(to: CSVCell(start: walker.cellStart, end: end, flags: walker.cellFlags))
        walker.cursor += 1
    }

    /// Makes room for twice as many cells.
    @inline(never)
    mutating func growCells() {
        let count = walker.cursor - cells
        Self.grow(&cells, &cellCapacity, count: count)
        walker.cursor = cells + count
        walker.limit = cells + cellCapacity
    }

    /// Makes room for twice as many elements.
    @inline(never)
    static func grow<T>(_ storage: inout UnsafeMutablePointer<T>, _ capacity: inout Int, count: Int) {
        let grown = UnsafeMutablePointer<T>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity *= 2
    }

    /// Records the row's first syntax error, at offset `i` from the row's start (on the current line).
    @inline(never)
    mutating func fail(_ code: Diagnostic.Code, _ message: String, _ row: UnsafePointer<UInt8>, _ i: Int) {
        guard rowError == nil else { return }
        rowError = RowError(code: code, message: message, position: position(ofOffset: rowStart + i, in: row, base: rowStart))
    }

    /// Notes the quote at offset `i` from the row's start, inside an unquoted cell, unless that
    /// cell has one noted already. The quote stays in the cell's text (Docs/csv.md "Quotes").
    @inline(never)
    mutating func strayQuote(_ row: UnsafePointer<UInt8>, _ i: Int) {
        // Text after a closing quote is an error of its own already (`textAfterQuote`).
        guard cellCount != strayQuoteCell, walker.cellFlags & CSVCell.opened == 0 else { return }
        strayQuoteCell = cellCount
        strayQuotes.append(position(ofOffset: rowStart + i, in: row, base: rowStart))
    }

    /// The warning for a stray quote at `location` (`CSVRowScanner.strayQuotes`).
    static func strayQuoteWarning(at location: SourceLocation) -> Diagnostic {
        .warning(.strayQuote,
            "a quote inside an unquoted field is kept as a character (RFC 4180 section 2.5 would quote the whole field and double the quote)",
            at: location)
    }
}
