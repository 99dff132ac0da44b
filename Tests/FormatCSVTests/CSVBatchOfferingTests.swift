import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatCSV

/// `RecordBatch.parse(offering:)` for CSV (issue 7's typed path): rows a taker takes come back as
/// `.taken` with exactly the record the reader gives otherwise (collection, location, record
/// index, cell positions) but a null value; the cells it is offered are the cells the decoder
/// reads (quotes removed, doubled quotes made single, absent as the decoder decides).
@Suite struct CSVBatchOfferingTests {
    /// One offered row as the taker saw it: per cell its text (nil when absent) and whether it
    /// was quoted, the columns, the collection and the line.
    private struct OfferedRow: Equatable {
        var cells: [String?]
        var quoted: [Bool]
        var columns: [String]
        var collection: String?
        var line: Int
    }

    /// Takes the rows whose first cell's text ends in an even digit (and records every offer).
    private final class EvenTaker: RawRecordTaker, @unchecked Sendable {
        // @unchecked: `offers` is guarded by `lock`.
        private let lock = NSLock()
        private var offers: [Int: OfferedRow] = [:]

        var offered: [Int: OfferedRow] { lock.withLock { offers } }

        func take(_ record: RawRecord) -> TakenRecord? {
            guard case .csvRow(let row) = record else { return nil }
            let offered = OfferedRow(
                cells: row.cells.map { $0.isAbsent ? nil : String(decoding: $0.text, as: UTF8.self) },
                quoted: row.cells.map(\.isQuoted), columns: row.columns, collection: row.collection, line: row.line)
            lock.withLock { offers[row.line] = offered }
            guard let last = offered.cells.first??.utf8.last, last >= UInt8(ascii: "0"), last <= UInt8(ascii: "9"),
                (last - UInt8(ascii: "0")) % 2 == 0
            else { return nil }
            return TakenRecord(collection: nil, payload: row.line)
        }
    }

    private static func describe(_ record: Record, columns: [String]) -> String {
        var text = "\(record.collection ?? "-") \(record.location.recordIndex ?? -1) \(record.location)"
        for column in columns {
            let pointer = JSONPointer(tokens: column.split(separator: ".").map(String.init))
            text += " \(column)@\(record.locator?.position(of: pointer)?.description ?? "-")"
        }
        return text
    }

    /// What a batched read gives: per item its kind, the record's description and (for records) its value.
    private static func read(_ bytes: [UInt8], options: ReadOptions, limit: Int, taker: (any RawRecordTaker)?)
        -> (items: [String], values: [Int: Value], columns: [String])
    {
        var items: [String] = []
        var values: [Int: Value] = [:]
        var columns: [String] = []
        do {
            let reader = try CSVReader(MemorySource(bytes), options: options, log: DiagnosticLog())
            columns = reader.headerFields
            reading: while let batch = try reader.nextBatch(limit: limit) {
                batch.parse(offering: taker)
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record):
                        items.append("record " + describe(record, columns: columns))
                        values[record.location.line ?? 0] = record.value
                    case .taken(let item):
                        let (record, payload) = (item.record, item.payload)
                        #expect(record.value == .null)
                        items.append("taken " + describe(record, columns: columns) + " taken at \(payload)")
                    case .problem(let diagnostic):
                        items.append("problem \(diagnostic.code.rawValue) \(diagnostic.location)")
                    case .failure(let error):
                        items.append("failure \(error)")
                        break reading
                    }
                }
            }
        } catch {
            items.append("failure \(error)")
        }
        return (items, values, columns)
    }

    /// Reads `text` with and without a taker and checks that they agree row by row.
    private func expectOffered(_ bytes: [UInt8], options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t"),
                               takes: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for limit in [1, 3, 256] {
            let plain = Self.read(bytes, options: options, limit: limit, taker: nil)
            let taker = EvenTaker()
            let offered = Self.read(bytes, options: options, limit: limit, taker: taker)
            #expect(plain.items.count == offered.items.count, sourceLocation: sourceLocation)
            var tookAny = false
            for (p, o) in zip(plain.items, offered.items) {
                if o.hasPrefix("taken ") {
                    tookAny = true
                    let description = o.dropFirst("taken ".count)
                    #expect(p.hasPrefix("record ") && description.hasPrefix(p.dropFirst("record ".count)),
                            "\(p) vs \(o)", sourceLocation: sourceLocation)
                } else {
                    #expect(p == o, sourceLocation: sourceLocation)
                }
            }
            #expect(tookAny == takes, sourceLocation: sourceLocation)
            // Every row offered is a record of the plain read, cell for cell.
            for (line, row) in taker.offered {
                guard case .object(let object)? = plain.values[line] else {
                    // Only the row reading stopped at (not UTF-8) is offered and no record.
                    #expect(plain.items.last?.hasPrefix("failure") == true, "offered line \(line) is not a record",
                            sourceLocation: sourceLocation)
                    continue
                }
                #expect(row.columns == plain.columns, sourceLocation: sourceLocation)
                #expect(row.collection == options.collection, sourceLocation: sourceLocation)
                for (k, column) in row.columns.enumerated() {
                    #expect(object[column]?.stringValue == row.cells[k], "line \(line) \(column)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test func takenRowsKeepTheirLocationsIndexesAndCellPositions() {
        expectOffered(Array("id,look,think\n1,ruby,\"two\nlines\"\n2,\"gold\r\nish\",\"a \"\"b\"\"\rc\"\n3,,x\n4,y,\"\n\n\"\n".utf8))
    }

    /// The locator of a taken row (`CSVRowLocator`, which scans the row again when asked) answers
    /// every question as the plain record's `CSVFieldLocator` does: each column, object and list
    /// pointers (their first cell), pointers no column maps to, and the single line of a row.
    @Test func takenRowsLocateFieldsAsPlainRecordsDo() throws {
        let text = "id,look.tint,look.note,tastes.1.label,tastes.1.value,think\n"
            + "2,ruby,\"a\nb\",x,0.5,ok\n4,\"é\",c,\"\"\"y\"\"\",1,\"two\r\nlines\"\n"
            + "6,\"\n\",,,,\n8,a,b,c,d,e\n"
        let pointers = ["/id", "/look", "/look/tint", "/look/note", "/tastes", "/tastes/0", "/tastes/0/value", "/think",
                        "/nothing", "/tastes/1", ""].map { JSONPointer(tokens: $0.split(separator: "/").map(String.init)) }
        func locators(_ taker: (any RawRecordTaker)?) throws -> [Int: (any FieldLocating, Bool)] {
            let reader = try CSVReader(MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "t.csv", collection: "t"),
                                       log: DiagnosticLog())
            var found: [Int: (any FieldLocating, Bool)] = [:]
            while let batch = try reader.nextBatch(limit: 2) {
                batch.parse(offering: taker)
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record): found[record.location.recordIndex ?? -1] = (try #require(record.locator), false)
                    case .taken(let item): let record = item.record; found[record.location.recordIndex ?? -1] = (try #require(record.locator), true)
                    default: Issue.record("unexpected \(item)")
                    }
                }
            }
            return found
        }
        let plain = try locators(nil), offered = try locators(EvenTaker())
        #expect(plain.count == 4 && offered.values.allSatisfy(\.1))
        for (index, (expected, _)) in plain {
            let (got, _) = try #require(offered[index])
            #expect(got is CSVRowLocator)
            #expect(got.singleLine == expected.singleLine, "record \(index)")
            for pointer in pointers {
                #expect(got.position(of: pointer) == expected.position(of: pointer), "record \(index) \(pointer)")
                #expect(got.line(of: pointer) == expected.position(of: pointer)?.line, "record \(index) \(pointer)")
            }
        }
        // The cells of record 0 start on lines 2 and 3 (its `think` at 3:10); those of record 1 all
        // on line 4, though its last cell runs on to line 5.
        #expect(offered[0]?.0.singleLine == nil)
        #expect(offered[0]?.0.position(of: JSONPointer(tokens: ["think"])) == TextPosition(line: 3, column: 10))
        #expect(offered[1]?.0.singleLine == 4)
        #expect(offered[3]?.0.singleLine == 8)
    }

    @Test func problemsBlankLinesAndQuotedNewlinesBetweenTakenRows() {
        expectOffered(Array("a,b,c\n2,x\"y,3\n\n4,\"q\"\"z\",6\n6,8\n8,10,11,12\n10,\"\"\"\",15\n,,\n12,\"\",\n".utf8))
    }

    @Test func cellsAsTheDecoderReadsThem() {
        let text = "id,a,b,c\n2,\"\",,\"x\"\"\"\"y\"\n4,NULL,\"NULL\",\"é,\n\"\n6, ,q,\n"
        let options = ReadOptions(fileName: "t.csv", collection: "t", nullToken: "NULL")
        expectOffered(Array(text.utf8), options: options)
        let taker = EvenTaker()
        _ = Self.read(Array(text.utf8), options: options, limit: 256, taker: taker)
        let offered = taker.offered
        #expect(offered[2] == OfferedRow(cells: ["2", "", nil, "x\"\"y"], quoted: [false, true, false, true],
                                         columns: ["id", "a", "b", "c"], collection: "t", line: 2))
        #expect(offered[3] == OfferedRow(cells: ["4", nil, "NULL", "é,\n"], quoted: [false, false, true, true],
                                         columns: ["id", "a", "b", "c"], collection: "t", line: 3))
        // The quoted newline puts the third row on line 5; an unquoted space is a value and an
        // empty final cell absent.
        #expect(offered[5] == OfferedRow(cells: ["6", " ", "q", nil], quoted: [false, false, false, false],
                                         columns: ["id", "a", "b", "c"], collection: "t", line: 5))
    }

    @Test func invalidUTF8StillStopsAtTheSameRow() {
        // The taker here never takes the bad row (its first cell ends in an odd digit).
        expectOffered(Array("a,b\n2,ok\n3,x".utf8) + [0xFF] + Array("y\n4,5\n".utf8))
    }

    @Test func inferredTypesAreNeverOffered() {
        let options = ReadOptions(fileName: "t.csv", collection: "t", inferTypes: true)
        expectOffered(Array("a,b\n2,true\n4,5\n".utf8), options: options, takes: false)
        let taker = EvenTaker()
        _ = Self.read(Array("a,b\n2,true\n4,5\n".utf8), options: options, limit: 256, taker: taker)
        #expect(taker.offered.isEmpty)
    }

    @Test func noCollectionAndNoHeader() {
        expectOffered(Array("2,a\n3,b\n4,\"c\nd\"\n".utf8), options: ReadOptions(fileName: "t.csv", hasHeader: false))
    }
}
