import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

@Suite struct JSONLinesReaderTests {
    static let lines =
        "{\"domain\": \"notes\", \"schemaVersion\": 2}\r\n"
        + "{\"$collection\": \"wineTastingNotes\", \"id\": \"w1\"}\n"
        + "\n"
        + "   \t\n"
        + "{\"$collection\": \"wineTastingNotes\", \"id\": \"w2\", oops}\n"
        + "{\"id\": \"x\"}\n"
        + "{\"$collection\": \"coffeeTastingNotes\", \"id\": \"c1\"}\r\n"
        + "[\"a\"]"

    private func read(_ text: String, step: Int = 1 << 20, options: ReadOptions = ReadOptions(fileName: "n.jsonl"))
        throws -> (JSONLinesReader, [Record], DiagnosticLog)
    {
        let log = DiagnosticLog()
        let reader = JSONLinesReader(source: TrickleSource(text, step: step), options: options, log: log, chunkSize: 16)
        return (reader, try drain(reader), log)
    }

    @Test func headerRecordsAndABadLineInTheMiddle() throws {
        for step in [1, 5, 1 << 20] {
            let (reader, records, log) = try read(Self.lines, step: step)
            #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
            #expect(records.map(\.collection) == ["wineTastingNotes", nil, "coffeeTastingNotes", nil])
            #expect(records.map(\.location.recordIndex) == [0, 0, 0, 1])
            #expect(records.map(\.location.line) == [2, 6, 7, 8])
            #expect(records.map(\.location.column) == [1, 1, 1, 1])
            #expect(records.map(\.location.file) == ["n.jsonl", "n.jsonl", "n.jsonl", "n.jsonl"])
            #expect(records[0].value == ["id": .string("w1")])
            #expect(records[3].value == .array([.string("a")]))
            #expect(log.diagnostics.count == 1)
            let bad = try #require(log.diagnostics.first)
            #expect(bad.code == .malformedJSON)
            #expect(bad.location.description == "n.jsonl:5:49")
            #expect(bad.message == "expected a string key, found 'o'")
        }
    }

    @Test func collectionOptionNamesLinesWithoutOne() throws {
        let (_, records, _) = try read(Self.lines, options: ReadOptions(collection: "things"))
        #expect(records.map(\.collection) == ["wineTastingNotes", "things", "coffeeTastingNotes", "things"])
        #expect(records.map(\.location.recordIndex) == [0, 0, 0, 1])
    }

    @Test func headerOnlyOnTheFirstLineAndOnlyWithHeaderKeys() throws {
        // A first line with other keys is a record.
        let (first, records, _) = try read("{\"domain\": \"notes\", \"$collection\": \"x\"}\n{\"domain\": \"a\"}\n")
        #expect(first.header == DatasetHeader())
        #expect(records.map(\.collection) == ["x", nil])
        #expect(records[0].value == ["domain": .string("notes")])
        // A header-like line after the first is a record too.
        let (second, later, _) = try read("{\"a\": 1}\n{\"schemaVersion\": 1}\n")
        #expect(second.header == DatasetHeader())
        #expect(later.count == 2)
        // A version that is not an integer makes no header.
        let (third, rest, _) = try read("{\"schemaVersion\": 1.5}\n")
        #expect(third.header == DatasetHeader())
        #expect(rest.count == 1)
        // A non-string $collection stays in the value.
        let (_, odd, _) = try read("{\"$collection\": 3, \"a\": 1}")
        #expect(odd[0].collection == nil)
        #expect(odd[0].value == ["$collection": .number("3"), "a": .number("1")])
    }

    @Test func badBytesAndLongLinesAreReportedAndSkipped() throws {
        let bytes: [UInt8] =
            Array("{\"a\": \"x".utf8) + [0xFF] + Array("\"}\n".utf8) + Array("{\"b\": \"".utf8)
            + Array(repeating: UInt8(ascii: "y"), count: 300) + Array("\"}\n{\"c\": 3}\n".utf8)
        let log = DiagnosticLog()
        let reader = JSONLinesReader(
            source: TrickleSource(bytes, step: 7), options: ReadOptions(), log: log, chunkSize: 16, maximumLineSize: 100)
        let records = try drain(reader)
        #expect(records.map(\.value) == [["c": .number("3")]])
        #expect(records.first?.location.line == 3)
        #expect(log.diagnostics.map(\.code) == [.invalidEncoding, .tooLarge])
        #expect(log.diagnostics.map { $0.location.position } == [TextPosition(line: 1, column: 9), TextPosition(line: 2, column: 1)])
    }

    @Test func byteOrderMarkAndUTF16() throws {
        let log = DiagnosticLog()
        let bom = JSONLinesReader(source: MemorySource([0xEF, 0xBB, 0xBF] + Array("{\"a\": [1, }\n".utf8)), log: log)
        #expect(try drain(bom).isEmpty)
        #expect(log.diagnostics.first?.location.position == TextPosition(line: 1, column: 11))
        let wide = JSONLinesReader(source: MemorySource([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]), log: log)
        #expect(ferryError { _ = try drain(wide) }?.diagnostic.code == .invalidEncoding)
    }

    @Test func locatorWorksOnALine() throws {
        let (_, records, _) = try read("\n  {\"$collection\": \"c\", \"tastes\": [{\"value\": 1}, {\"value\": 2}]}\n")
        let record = try #require(records.first)
        #expect(record.location.position == TextPosition(line: 2, column: 1))
        #expect(record.locator?.position(of: "/tastes/1/value") == TextPosition(line: 2, column: 59))
        #expect(record.location(of: "/tastes/1/value").field == "/c/0/tastes/1/value")
    }
}
