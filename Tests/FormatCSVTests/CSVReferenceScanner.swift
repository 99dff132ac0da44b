import FerryCore
@testable import FormatCSV

/// What scanning one row gave, in a form both the reference and `CSVRowScanner` produce: each
/// cell's content range, flags and position, where the row starts and ends, its first error, and
/// where the next row starts.
struct ScannedRow: Equatable, CustomStringConvertible {
    struct Cell: Equatable {
        var start: Int
        var end: Int
        var flags: UInt8
        var line: Int
        var column: Int
    }

    var cells: [Cell]
    var line: Int
    /// Where the row ends (nil for an unterminated quote, whose row has no end).
    var end: TextPosition?
    /// `code@line:column message` of the row's first syntax error.
    var error: String?
    /// `stray-quote@line:column` of the first quote of each unquoted cell that holds one.
    var strays: [String] = []

    var description: String {
        let cellText = cells.map { "[\($0.start)..<\($0.end) f\($0.flags) \($0.line):\($0.column)]" }.joined()
        return "row@\(line) \(cellText) end \(end?.description ?? "-") \(error ?? "")\(strays.map { " " + $0 }.joined())"
    }
}

/// A plain byte-at-a-time CSV row scanner, the rules of `Docs/csv.md` written as directly as
/// possible (one state per byte, columns counted as it goes), to check `CSVRowScanner` against.
/// Reads the whole input at once; no size limit.
struct CSVReferenceScanner {
    private enum State { case fieldStart, unquoted, quoted, quotedQuote, garbage }

    let bytes: [UInt8]
    let delimiter: UInt8
    private var i: Int
    private var line = 1
    private var lineStart: Int
    private var pendingLF = false

    init(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), from offset: Int = 0) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.i = offset
        self.lineStart = offset
    }

    private static let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    private func column(_ at: Int) -> Int {
        bytes[lineStart..<at].count(where: { $0 & 0xC0 != 0x80 }) + 1
    }

    /// Moves past the line break at `at`: an LF right after a CR is part of it.
    private mutating func newline(_ at: Int) {
        if !(bytes[at] == Self.lf && at > 0 && bytes[at - 1] == Self.cr && lineStart == at) { line += 1 }
        lineStart = at + 1
    }

    /// Every row from the scan point to the end of the input.
    mutating func rows() -> [ScannedRow] {
        var result: [ScannedRow] = []
        while let row = next() { result.append(row) }
        return result
    }

    /// The next row, nil at the end of the input.
    mutating func next() -> ScannedRow? {
        if pendingLF {
            pendingLF = false
            if i < bytes.count, bytes[i] == Self.lf {
                i += 1
                lineStart = i
            }
        }
        guard i < bytes.count else { return nil }
        var row = ScannedRow(cells: [], line: line, end: nil, error: nil)
        var state = State.fieldStart
        var contentStart = i
        var cellLine = line, cellColumn = 1
        var escaped = false
        var afterQuote = false  // the unquoted rest of a cell after its closing quote (a syntax error)
        var open = TextPosition(line: 1, column: 1)
        var resync: (offset: Int, line: Int)? = nil
        func fail(_ message: String, _ at: Int) {
            if row.error == nil { row.error = "malformed-csv@\(line):\(column(at)) \(message)" }
        }
        func add(_ start: Int, _ end: Int, _ flags: UInt8) {
            row.cells.append(.init(start: start, end: end, flags: flags, line: cellLine, column: cellColumn))
        }
        let after = "text after the closing quote of a field (RFC 4180 section 2.7: double a quote inside a quoted field)"
        while i < bytes.count {
            let b = bytes[i]
            let isBreak = b == Self.lf || b == Self.cr
            switch state {
            case .fieldStart:
                afterQuote = false
                cellLine = line
                cellColumn = column(i)
                if b == Self.quote {
                    state = .quoted
                    open = TextPosition(line: cellLine, column: cellColumn)
                    contentStart = i + 1
                    escaped = false
                    resync = nil
                } else if b == delimiter {
                    add(i, i, 0)
                } else if isBreak {
                    add(i, i, 0)
                    return end(&row, at: i)
                } else {
                    state = .unquoted
                    contentStart = i
                }
            case .unquoted, .garbage:
                if b == Self.quote {
                    if state == .unquoted { row.strays.append("stray-quote@\(line):\(column(i))") }
                    state = .garbage
                } else if b == delimiter {
                    add(contentStart, i, afterQuote ? CSVCell.opened : 0)
                    state = .fieldStart
                } else if isBreak {
                    add(contentStart, i, afterQuote ? CSVCell.opened : 0)
                    return end(&row, at: i)
                }
            case .quoted:
                if b == Self.quote {
                    state = .quotedQuote
                } else if isBreak {
                    newline(i)
                    if resync == nil || (b == Self.lf && bytes[i - 1] == Self.cr && resync?.offset == i) { resync = (i + 1, line) }
                }
            case .quotedQuote:
                let flags = CSVCell.quoted | CSVCell.opened | (escaped ? CSVCell.escaped : 0)
                if b == Self.quote {
                    escaped = true
                    state = .quoted
                } else if b == delimiter {
                    add(contentStart, i - 1, flags)
                    state = .fieldStart
                } else if isBreak {
                    add(contentStart, i - 1, flags)
                    return end(&row, at: i)
                } else {
                    fail(after, i)
                    afterQuote = true
                    state = .garbage
                    continue  // the byte is read again as text of the cell
                }
            }
            i += 1
        }
        // The end of the input.
        switch state {
        case .fieldStart:
            cellLine = line
            cellColumn = column(i)
            add(i, i, 0)
        case .unquoted, .garbage:
            add(contentStart, i, afterQuote ? CSVCell.opened : 0)
        case .quotedQuote:
            add(contentStart, i - 1, CSVCell.quoted | CSVCell.opened | (escaped ? CSVCell.escaped : 0))
        case .quoted:
            guard let resync else {
                // No line follows the opening quote's: the input ends inside the field.
                row.error = "unterminated-quote@\(line):\(column(i)) the input ends inside the quoted field that opens at line "
                    + "\(open.line), column \(open.column), which is not closed (the input is cut short)"
                return row
            }
            row.error = "unterminated-quote@\(open.line):\(open.column) a quoted field never closes; reading resumes on line \(open.line + 1), after the line of its opening quote"
            i = resync.offset
            line = resync.line
            lineStart = i
            pendingLF = bytes[i - 1] == Self.cr
            return row
        }
        row.end = TextPosition(line: line, column: column(i))
        return row
    }

    private mutating func end(_ row: inout ScannedRow, at: Int) -> ScannedRow {
        row.end = TextPosition(line: line, column: column(at))
        newline(at)
        pendingLF = bytes[at] == Self.cr
        i = at + 1
        return row
    }
}
