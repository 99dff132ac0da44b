import FerryCore
import FerryTestSupport
import Testing

@testable import FormatCSV
import Foundation

/// `CSVRowScanner` against `CSVReferenceScanner`: the same cells (content ranges, flags, positions),
/// row lines, row ends and errors, on hand-written, random and corrupted inputs, whether the bytes
/// come at once or in chunks (the scanner then resumes inside rows, holding only the bytes from
/// `keepFrom`).
@Suite struct CSVRowScannerTests {
    /// The rows `CSVRowScanner` gives for `bytes`, read `chunk` bytes at a time (nil: all at once).
    /// Each call sees only the bytes from `keepFrom`, in a buffer of their own.
    static func scanned(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), chunk: Int? = nil) -> [ScannedRow] {
        var scanner = CSVRowScanner(delimiter: delimiter, maximumRecordBytes: Int.max, offset: 0, line: 1)
        defer { scanner.deallocate() }
        var available = min(chunk ?? bytes.count, bytes.count)
        var rows: [ScannedRow] = []
        while true {
            let keep = scanner.keepFrom
            let count = available - keep
            let held = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
            defer { held.deallocate() }
            for k in 0..<count { held[k] = bytes[keep + k] }
            switch scanner.scan(held, base: keep, count: count, atEnd: available == bytes.count) {
            case .row:
                rows.append(row(scanner, held, base: keep))
            case .needMore:
                available = min(available + (chunk ?? bytes.count), bytes.count)
            case .end, .tooLarge:
                return rows
            }
        }
    }

    private static func row(_ scanner: CSVRowScanner, _ p: UnsafePointer<UInt8>, base: Int) -> ScannedRow {
        let positions = scanner.cellPositions(in: p, base: base)
        var cells: [ScannedRow.Cell] = []
        for k in 0..<scanner.cellCount {
            let cell = scanner.cells[k]
            let position = scanner.position(of: cell, in: p, base: base)
            // The row's positions and each cell's own agree.
            #expect(positions[2 * k] == position.line && positions[2 * k + 1] == position.column)
            cells.append(.init(start: scanner.rowStart + cell.start, end: scanner.rowStart + cell.end, flags: cell.flags,
                               line: position.line, column: position.column))
        }
        let error = scanner.rowError.map { "\($0.code.rawValue)@\($0.position.line):\($0.position.column) \($0.message)" }
        let unterminated = scanner.rowError?.code == .unterminatedQuote
        return ScannedRow(cells: cells, line: scanner.rowLine, end: unterminated ? nil : scanner.rowEndPosition(in: p, base: base),
                          error: error, strays: scanner.strayQuotes.map { "stray-quote@\($0.line):\($0.column)" })
    }

    private func expectSame(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), chunks: [Int?] = [nil, 1, 2, 3, 5, 8, 13],
                            sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var reference = CSVReferenceScanner(bytes, delimiter: delimiter)
        let expected = reference.rows()
        for chunk in chunks {
            let got = Self.scanned(bytes, delimiter: delimiter, chunk: chunk)
            #expect(got == expected, "chunk \(chunk ?? 0) of \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                    sourceLocation: sourceLocation)
            if got != expected { return }
        }
    }

    /// `highBits` turns the high bits of the eight bytes into bits 0 to 7, for every combination.
    @Test func highBitsPacksEveryCombination() {
        for bits in 0..<256 {
            var word: UInt64 = 0
            for k in 0..<8 where bits & (1 << k) != 0 { word |= 0x80 << (8 * UInt64(k)) }
            #expect(CSVByteSearch.highBits(word) == UInt64(bits))
        }
    }

    @Test func plainRowsGiveCellsAndColumns() {
        let text = "id,title,x\n1,\"Cuvée \"\"A\"\"\",\n2,é€,\"\"\n,,\n"
        let rows = Self.scanned(Array(text.utf8))
        #expect(rows.count == 4)
        // `"Cuvée ""A"""`: the content starts after the opening quote, the cell at it (column 3).
        #expect(rows[1].cells[1] == .init(start: 14, end: 26, flags: CSVCell.quoted | CSVCell.opened | CSVCell.escaped, line: 2, column: 3))
        #expect(rows[1].cells[2] == .init(start: 28, end: 28, flags: 0, line: 2, column: 17))
        #expect(rows[1].end == TextPosition(line: 2, column: 17))
        // After `é€` (five bytes, two scalars) the next cell is at column 6.
        #expect(rows[2].cells[2] == .init(start: 38, end: 38, flags: CSVCell.quoted | CSVCell.opened, line: 3, column: 6))
        #expect(rows[3].cells.map(\.column) == [1, 2, 3])
        expectSame(Array(text.utf8))
    }

    @Test func quotedLineBreaksMoveTheLineOfLaterCells() {
        let text = "a,\"x\r\ny\rz\nw\",b\r\n\"\n\",c"
        let rows = Self.scanned(Array(text.utf8))
        #expect(rows.map(\.line) == [1, 5])
        #expect(rows[0].cells.map { "\($0.line):\($0.column)" } == ["1:1", "1:3", "4:4"])
        #expect(rows[1].cells.map { "\($0.line):\($0.column)" } == ["5:1", "6:3"])
        expectSame(Array(text.utf8))
    }

    @Test func syntaxErrorsAndUnterminatedQuotes() {
        for text in [
            "a,b\"c,d\n", "a,\"b\"c,d\n", "\"a\"\"\"x\n", "\"\"\"\n", "a,\"open\nb,c\nd\n", "a,\"open\r\nb\r\n",
            "\"x", "\"x\"", "\"", "a\"", ",\"", "x,\"a\rb\"\"", "\"\"x\"y\n\"\n", "\r\n\r\n\n\r", "\n", "a,b,",
        ] {
            expectSame(Array(text.utf8))
        }
    }

    @Test func otherDelimiters() {
        let text = "a;b\t\"c;d\"\n\"x\"\t;y\n"
        expectSame(Array(text.utf8), delimiter: UInt8(ascii: ";"))
        expectSame(Array(text.utf8), delimiter: UInt8(ascii: "\t"))
        expectSame(Array(text.utf8), delimiter: UInt8(ascii: "|"))
    }

    /// Random bytes from an alphabet heavy in what the scanner stops at.
    @Test func randomInputs() {
        var random = SplitMix(seed: 11)
        let pieces: [[UInt8]] = [
            [0x61], [0x62], [0x2C], [0x2C], [0x22], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x09], [0x20],
            [0x3B], Array("é".utf8), Array("€".utf8), Array("𝄞".utf8), [0xFF], [0x01], Array("abcdefghij".utf8),
        ]
        for _ in 0..<1500 {
            var bytes: [UInt8] = []
            for _ in 0..<random.next(60) { bytes += pieces[random.next(pieces.count)] }
            expectSame(bytes, chunks: [nil, 1, 3, 8, 9])
        }
    }

    /// Well-formed CSV (a random table, quoted where needed) with a few bytes changed.
    @Test func corruptedTables() {
        var random = SplitMix(seed: 5)
        let texts = ["", "x", "é", "a b", "a,b", "q\"q", "l1\nl2", "l1\r\nl2", "long text of some length, 42"]
        let specials: [UInt8] = [0x2C, 0x22, 0x0D, 0x0A, 0x61]
        for _ in 0..<600 {
            var bytes: [UInt8] = []
            let columns = 1 + random.next(5)
            for _ in 0..<(1 + random.next(6)) {
                for column in 0..<columns {
                    if column > 0 { bytes.append(0x2C) }
                    let text = texts[random.next(texts.count)]
                    if text.contains(where: { ",\"\r\n".contains($0) }) || random.next(4) == 0 {
                        bytes += Array(("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"").utf8)
                    } else {
                        bytes += Array(text.utf8)
                    }
                }
                bytes += random.next(3) == 0 ? [0x0D, 0x0A] : [0x0A]
            }
            for _ in 0..<random.next(3) where !bytes.isEmpty {
                bytes[random.next(bytes.count)] = specials[random.next(specials.count)]
            }
            expectSame(bytes, chunks: [nil, 1, 7, 16])
        }
    }

    /// Rows that run across many words, with stops on word boundaries and quotes split from the
    /// byte after them.
    @Test func longRowsAndWordBoundaries() {
        for shift in 0..<9 {
            let pad = String(repeating: "p", count: shift)
            let text = pad + ",\"" + String(repeating: "ab\"\"", count: 9) + "\"," + String(repeating: "z", count: 23)
                + "\n" + pad + "\"" + String(repeating: "x", count: 15) + "\"\"\",\"\r\n\"\r\n"
            expectSame(Array(text.utf8), chunks: [nil, 1, 4, 7, 8, 9, 16])
        }
    }
}
