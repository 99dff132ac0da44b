import Foundation
import Testing
import FerryCore
import FerryTestSupport
@testable import FormatCSV

@Suite struct CSVWriterTests {
    static let notes: [Value] = [
        ["id": "n1", "title": "Pinot, 2019", "look": ["tint": "ruby", "note": "bright"],
         "tastes": [["label": "sweet", "value": 0.5]], "rating": .integer(4), "isFavorite": true],
        ["id": "n2", "title": "He said \"wow\"", "look": ["tint": ""],
         "tastes": [["label": "dry", "value": .number("0.250")], ["label": "long\nfinish", "value": 1e-7]],
         "smells": ["oak"], "rating": .double(4.5), "isFavorite": false, "think": .null],
        ["id": "n3", "title": " spaced ", "smells": ["a", "b", "c"], "alcohol": .number("13.0")],
    ]

    @Test func goldenListsQuotingAndEmptyVersusAbsent() throws {
        let text = try writeCSV(CSVWriterTests.notes)
        #expect(Golden.mismatch(text, golden: "notes.csv") == nil)
        #expect(text.hasPrefix(
            "id,title,look.tint,look.note,tastes.1.label,tastes.1.value,tastes.2.label,tastes.2.value,rating,isFavorite,smells.1,smells.2,smells.3,think,alcohol\r\n"))
    }

    @Test func goldenCSVSafe() throws {
        let values: [Value] = [
            ["a": "=SUM(A1)", "b": "+1", "c": "-x", "d": "@cmd", "e": "\tx", "f": "\rx", "g": .integer(-5), "h": "ok"],
            ["a": "=HYPERLINK(\"http://x\",\"y\")", "b": "", "c": "a,b"],
        ]
        let text = try writeCSV(values, options: WriteOptions(csvSafe: true))
        #expect(Golden.mismatch(text, golden: "csv-safe.csv") == nil)
        #expect(text == "a,b,c,d,e,f,g,h\r\n'=SUM(A1),'+1,'-x,'@cmd,'\tx,\"'\rx\",-5,ok\r\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"\",\"a,b\",,,,,\r\n")
    }

    @Test func tabDelimiterAndTopLevelLists() throws {
        let text = try writeCSV([["a": "x\ty", "b": "1"], ["a": "z"]], options: WriteOptions(delimiter: CSVReader.tab))
        #expect(text == "a\tb\r\n\"x\ty\"\t1\r\nz\t\r\n")
        #expect(try writeCSV([["x", "y"]]) == "1,2\r\nx,y\r\n")
    }

    @Test func noRecordsWritesNothing() throws {
        #expect(try writeCSV([]) == "")
    }

    @Test func scalarRecordsAndNaNAreErrors() throws {
        let sink = MemorySink()
        let writer = try CSVWriter(sink)
        #expect(throws: FerryError.self) { try writer.write(Record(collection: "c", value: "x", location: SourceLocation())) }
        #expect(throws: FerryError.self) { try writeCSV([["a": .double(.nan)]]) }
    }

    @Test func readWriteReadRoundTrip() throws {
        let text = try writeCSV(CSVWriterTests.notes)
        let first = readCSV(text)
        #expect(first.problems.isEmpty)
        // The all-null `think` column reads back absent, so the second write has no such column;
        // from there on, writing is stable.
        let again = try writeCSV(first.records.map(\.value))
        #expect(again == #"""
            id,title,look.tint,look.note,tastes.1.label,tastes.1.value,tastes.2.label,tastes.2.value,rating,isFavorite,smells.1,smells.2,smells.3,alcohol\#r
            n1,"Pinot, 2019",ruby,bright,sweet,0.5,,,4,true,,,,\#r
            n2,"He said ""wow""","",,dry,0.250,"long
            finish",1e-7,4.5,false,oak,,,\#r
            n3, spaced ,,,,,,,,,a,b,c,13.0\#r

            """#)
        #expect(try writeCSV(readCSV(again).records.map(\.value)) == again)
        let second = readCSV(again)
        #expect(second.records.map(\.value) == first.records.map(\.value))
        // Strings come back as written; numbers and booleans as their text; empty vs absent kept.
        #expect(first.objects[1]["look"] == ["tint": ""])
        #expect(first.objects[1]["think"] == nil)
        #expect(first.objects[1]["tastes"] == [["label": "dry", "value": "0.250"], ["label": "long\nfinish", "value": "1e-7"]])
        #expect(first.objects[2]["smells"] == ["a", "b", "c"])
        #expect(first.objects[0]["smells"] == nil)
        let typed = readCSV(text, options: ReadOptions(inferTypes: true))
        #expect(typed.objects[0]["rating"] == .number("4"))
        #expect(typed.objects[1]["isFavorite"] == false)
    }

    @Test func corpusRoundTrips() throws {
        for (suite, path) in [("csv-spectrum", "csvs/quotes_and_newlines.csv"), ("csv-spectrum", "csvs/json.csv"),
                              ("csv-spectrum", "csvs/newlines_crlf.csv"), ("domain-vocabulary-jlpt-anki", "n5.csv")] {
            guard let bytes = corpusFile(suite, path) else {
                print("skipped: corpus absent")
                return
            }
            let first = readCSV(bytes)
            let text = try writeCSV(first.records.map(\.value))
            #expect(readCSV(text).records.map(\.value) == first.records.map(\.value), "\(path)")
        }
    }
}

@Suite struct CSVStreamingTests {
    @Test func sevenBytesAtATimeGiveTheSameRecords() throws {
        var inputs: [[UInt8]] = [Array("a,b\r\n\"x\r\ny\",\"\"\"q\"\"\"\r\n1,2".utf8), CSVReaderDiagnosticsTests.generated(rows: 300, brokenRow: 100)]
        for suite in ["csv-spectrum", "domain-vocabulary-jlpt-anki", "domain-tasting-coffee-cqi"] {
            guard let dir = Fixtures.corpus(suite) else { continue }
            let files = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".csv") }.sorted()
            for file in files { inputs.append(Array(try Data(contentsOf: dir.appendingPathComponent(file)))) }
        }
        for input in inputs {
            let whole = readCSV(input)
            let chunked = readCSV(input, chunk: 7)
            #expect(chunked.records.map(\.value) == whole.records.map(\.value))
            #expect(chunked.records.map(\.location) == whole.records.map(\.location))
            #expect(chunked.problems == whole.problems)
            let cells = { (r: CSVReadResult) in r.records.map { ($0.locator as? CSVFieldLocator)?.cellPositions ?? [] } }
            #expect(cells(chunked) == cells(whole))
        }
    }

    @Test func formatDescriptor() throws {
        #expect(CSVFormat.descriptor.name == "csv")
        #expect(CSVFormat.descriptor.extensions == ["csv", "tsv"])
        #expect(CSVFormat.descriptor.isSingleCollection)
        let reader = try #require(CSVFormat.descriptor.reader)
        let records = try reader.makeReader(MemorySource("a;b\n1;2\n"), options: ReadOptions(fileName: "x.tsv"),
                                            log: DiagnosticLog())
        // .tsv means tab: the semicolons are data.
        #expect(try records.next()?.value == ["a;b": "1;2"])
        let sink = MemorySink()
        let writer = try #require(CSVFormat.descriptor.writer).makeWriter(sink, options: WriteOptions(fileName: "o.tsv"))
        try writer.write(Record(collection: "c", value: ["a": "1", "b": "2"], location: SourceLocation()))
        try writer.finish()
        #expect(sink.text == "a\tb\r\n1\t2\r\n")
    }
}
