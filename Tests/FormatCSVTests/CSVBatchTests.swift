import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatCSV

/// Batches (`--jobs`) give exactly what `next()` gives: the same records with the same locations,
/// indexes and cell positions, and the same problems at the same points, whatever the batch size
/// and however the input arrives in chunks.
@Suite struct CSVBatchTests {
    /// Records and problems as they come.
    private final class Events: @unchecked Sendable {
        // @unchecked: used from one thread at a time in these tests.
        var list: [String] = []
    }

    private static func describe(_ record: Record, columns: [String]) -> String {
        var text = "record \(record.collection ?? "-") \(record.location.recordIndex ?? -1) \(record.location) \(record.value)"
        for column in columns {
            let pointer = JSONPointer(tokens: column.split(separator: ".").map(String.init))
            text += " \(column)@\(record.locator?.position(of: pointer)?.description ?? "-")"
        }
        return text
    }

    private static func source(_ bytes: [UInt8], chunk: Int?) -> any ByteSource {
        chunk.map { ChunkedSource(bytes, size: $0) } ?? MemorySource(bytes)
    }

    private func serial(_ bytes: [UInt8], options: ReadOptions, chunk: Int?) -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location) \($0.message)") }
        do {
            let reader = try CSVReader(Self.source(bytes, chunk: chunk), options: options, log: log)
            while let record = try reader.next() { events.list.append(Self.describe(record, columns: reader.headerFields)) }
        } catch {
            events.list.append("failure \(error)")
        }
        return events.list
    }

    private func batched(_ bytes: [UInt8], options: ReadOptions, chunk: Int?, limit: Int, firstBySerial: Bool) -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location) \($0.message)") }
        do {
            let reader = try CSVReader(Self.source(bytes, chunk: chunk), options: options, log: log)
            if firstBySerial, let record = try reader.next() {
                events.list.append(Self.describe(record, columns: reader.headerFields))
            }
            reading: while let batch = try reader.nextBatch(limit: limit) {
                batch.parse()
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record): events.list.append(Self.describe(record, columns: reader.headerFields))
                    case .problem(let diagnostic): log.report(diagnostic)
                    case .failure(let error):
                        events.list.append("failure \(error)")
                        break reading
                    case .taken(let item):
                        let record = item.record
                        events.list.append("taken " + Self.describe(record, columns: reader.headerFields))
                    }
                }
            }
            if events.list.last?.hasPrefix("failure") != true {
                while let record = try reader.next() { events.list.append(Self.describe(record, columns: reader.headerFields)) }
            }
        } catch {
            events.list.append("failure \(error)")
        }
        return events.list
    }

    /// Checks every batch size, chunk size and start against `next()`.
    private func expectSame(_ bytes: [UInt8], options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t"),
                            chunks: [Int?] = [nil, 1, 3, 7, 64], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for chunk in chunks {
            let expected = serial(bytes, options: options, chunk: chunk)
            for limit in [1, 2, 3, 5, 256] {
                for firstBySerial in [false, true] {
                    let got = batched(bytes, options: options, chunk: chunk, limit: limit, firstBySerial: firstBySerial)
                    #expect(got == expected, "chunk \(chunk ?? 0) limit \(limit) first \(firstBySerial)",
                            sourceLocation: sourceLocation)
                }
            }
        }
    }

    private func expectSame(_ text: String, options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t"),
                            sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        expectSame(Array(text.utf8), options: options, sourceLocation: sourceLocation)
    }

    /// Batches number their records as they are cut (blank rows take no index); after a batch whose
    /// count differs from its cut's, the reader moves the later batches' indices by the difference.
    @Test func batchesNumberTheirRecordsAndTheReaderCorrectsLaterOnes() throws {
        let reader = try CSVReader(MemorySource(Array("a,b\n1,2\n\n3,4\n5,6\n".utf8)), options: ReadOptions(collection: "t"),
                                   log: DiagnosticLog())
        let first = try #require(try reader.nextBatch(limit: 2))
        let second = try #require(try reader.nextBatch(limit: 5))
        first.parse()
        second.parse()
        let indices = { (items: [RecordBatchItem]) in
            items.map { item -> Int in
                if case .record(let record) = item { return record.location.recordIndex ?? -1 }
                return -2
            }
        }
        #expect(indices(reader.items(from: first)) == [0])
        reader.indexShift = 10  // as if a batch before had held ten rows more than predicted
        #expect(indices(reader.items(from: second)) == [11, 12])
        #expect(reader.indexShift == 10)
    }

    /// The cutter skips delimiters and finds quotes by what precedes them: a quote opens a quoted
    /// cell (whose line breaks stay in the row) only at a cell's start.
    @Test func quotesOpenCellsOnlyAtACellsStart() {
        expectSame("a,b,c\n1,x\"y,\"p\nq\"\n2,\"a\"b,\"c\r\nd\"\n\"3\",y\"\"z,\"\"\n\"\",\"\"\"\",\"\n\"\n4,5,6\n")
    }

    @Test func quotedNewlinesAcrossBatches() {
        expectSame("id,look.tint,think\n1,ruby,\"two\nlines\"\n2,\"gold\r\nish\",\"a \"\"b\"\"\rc\"\n3,,x\n4,y,\"\n\n\"\n")
    }

    @Test func lineEndsCRLFAndBareCR() {
        expectSame("a,b\r\n1,2\r\n3,4\r5,6\r\r\n7,8\n\r9,10\r")
        expectSame("a,b\r1,2\r3,\"x\r\ny\"\r")
    }

    @Test func byteOrderMarkAndNoFinalNewline() {
        expectSame([0xEF, 0xBB, 0xBF] + Array("a,b\n1,é\n\"2\",\"ü\"".utf8))
    }

    @Test func unterminatedQuoteResyncs() {
        expectSame("a,b\n1,2\n3,\"open\n4,5\n6,7\n")
        expectSame("a,b\n1,2\n3,\"open\r\n4,5\r\n6,7")
        expectSame("a,b\n1,2\n3,\"xyz")
    }

    @Test func malformedQuotesRaggedRowsAndBlankLines() {
        expectSame("a,b,c\n1,x\"y,3\n\n4,\"q\"z,6\n7,8\n9,10,11,12\n   \n13,\"\"\"\",15\n,,\n")
    }

    @Test func invalidUTF8StopsAtTheSameRow() {
        expectSame(Array("a,b\n1,ok\n2,\"x\ny\"\n3,xé".utf8) + [0xFF] + Array("y\n4,5\n".utf8))
    }

    @Test func typesNullTokenAndNoHeader() {
        let options = ReadOptions(fileName: "t.csv", collection: "t", hasHeader: false, nullToken: "NULL", inferTypes: true)
        expectSame("1,true,NULL,\"2\"\n-3.5e2,false,x,\n", options: options)
        expectSame("", options: options)
    }

    @Test func otherEncodingsReadRowByRow() {
        let latin1: [UInt8] = Array("a,b\n1,caf".utf8) + [0xE9] + Array("\n2,\"x\ny\"\n".utf8)
        expectSame(latin1, options: ReadOptions(fileName: "t.csv", collection: "t", encoding: "latin1"))
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("a,b\n1,2\n3,\"4\n5\"\n".utf8).flatMap { [$0, 0] }
        expectSame(utf16)
    }

    @Test func longRowsAreReadAlone() throws {
        let long = String(repeating: "x", count: CSVReader.batchRowLimit + 10)
        expectSame(Array("a,b\n1,2\n3,\"\(long)\n\"\n4,5\n".utf8), chunks: [nil, 4096])
    }

    @Test func jobsChangeNothingInTheOutputOrTheDiagnostics() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "id,title,category,createdAt,alcoholByVolume,look.tint,look.note,smells.1.label,tastes.1.label,"
            + "tastes.1.value,grape.variety,think,rating,isFavorite\r\n"
        for i in 0..<3000 {
            switch i % 500 {
            case 7: text += "w\(i),\"broken \"quote\",red\r\n"
            case 8: text += "w3,dup,red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,ok,3,false\r\n"
            case 9: text += "w\(i),short\r\n"
            default:
                text += "w\(i),\"T\(i) \"\"Cuvée\"\"\",red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,"
                    + "\"two\r\nlines, \(i)\",\(i % 6),false\r\n"
            }
        }
        text += "w9999,\"never closed,red\r\nw10000,t,red,2024-01-01T00:00:00Z,12.5,ruby,deep,oak,body,0.5,Syrah,ok,3,false\r\n"
        let input = directory.appendingPathComponent("wineTastingNotes.csv")
        try ([0xEF, 0xBB, 0xBF] + Array(text.utf8)).withUnsafeBytes { try Data($0).write(to: input) }
        var outputs: [String] = []
        var logs: [String] = []
        for jobs in ["1", "2", "4"] {
            let output = directory.appendingPathComponent("out-\(jobs).jsonl").path
            let run = try runFerry(["convert", input.path, "--to", "jsonl", "--lenient", "-o", output, "--jobs", jobs])
            #expect(run.status != 0)
            outputs.append(try String(contentsOfFile: output, encoding: .utf8))
            logs.append(run.stderr.replacingOccurrences(of: output, with: "OUT"))
        }
        #expect(outputs[0].split(separator: "\n").count > 2900)
        #expect(logs[0].contains("duplicate-id"))
        #expect(logs[0].contains("malformed-csv"))
        #expect(logs[0].contains("ragged-row"))
        #expect(logs[0].contains("unterminated-quote"))
        for k in 1..<outputs.count {
            #expect(outputs[k] == outputs[0])
            #expect(logs[k] == logs[0])
        }
    }
}
