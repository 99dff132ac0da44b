import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// Batches (`--jobs`) give exactly what `next()` gives: the same records with the same
/// locations and indexes, and the same problems at the same points.
@Suite struct JSONLinesBatchTests {
    static let lines =
        "{\"domain\": \"notes\", \"schemaVersion\": 2}\r\n"
        + "{\"$collection\": \"wineTastingNotes\", \"id\": \"w1\"}\n"
        + "\n"
        + "   \t\n"
        + "{\"$collection\": \"wineTastingNotes\", \"id\": \"w2\", oops}\n"
        + "{\"id\": \"x\"}\n"
        + "{\"$collection\": \"coffeeTastingNotes\", \"id\": \"c1\"}\r\n"
        + "{\"$collection\": \"wineTastingNotes\", \"id\": \"\\ud800\"}\n"
        + "[\"a\"]"

    /// Records and problems as they come: "record COLLECTION INDEX LINE VALUE ID-POSITION" or
    /// "problem CODE LOCATION".
    private final class Events: @unchecked Sendable {
        // @unchecked: used from one thread at a time in these tests.
        var list: [String] = []
    }

    private func serial(_ text: String) throws -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location)") }
        let reader = JSONLinesReader(source: MemorySource(text), options: ReadOptions(fileName: "n.jsonl"), log: log)
        while let record = try reader.next() { events.list.append(Self.describe(record)) }
        return events.list
    }

    private func batched(_ text: String, firstBySerial: Bool, limit: Int) throws -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location)") }
        let reader = JSONLinesReader(source: MemorySource(text), options: ReadOptions(fileName: "n.jsonl"), log: log)
        if firstBySerial, let record = try reader.next() { events.list.append(Self.describe(record)) }
        while let batch = try reader.nextBatch(limit: limit) {
            batch.parse()
            for item in reader.items(from: batch) {
                switch item {
                case .record(let record): events.list.append(Self.describe(record))
                case .problem(let diagnostic): log.report(diagnostic)
                case .failure(let error): throw error
                case .taken(let item): let record = item.record; events.list.append("taken " + Self.describe(record))
                }
            }
        }
        let rest = try reader.next()
        #expect(rest == nil)
        return events.list
    }

    private static func describe(_ record: Record) -> String {
        "record \(record.collection ?? "-") \(record.location.recordIndex ?? -1) \(record.location.line ?? -1) \(record.value)"
            + " \(record.locator?.position(of: JSONPointer(tokens: ["id"]))?.description ?? "-")"
            + " line \(record.locator?.singleLine ?? -1)"
    }

    @Test func batchesGiveWhatNextGives() throws {
        let expected = try serial(Self.lines)
        #expect(expected.count == 6)
        #expect(expected.filter { $0.hasPrefix("problem") }.count == 2)
        for limit in [1, 2, 3, 100] {
            #expect(try batched(Self.lines, firstBySerial: false, limit: limit) == expected)
            #expect(try batched(Self.lines, firstBySerial: true, limit: limit) == expected)
        }
    }

    @Test func jobsChangeNothingInTheOutputOrTheDiagnostics() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "{\"domain\": \"notes\", \"schemaVersion\": 1}\n"
        for i in 0..<3000 {
            switch i % 500 {
            case 7: text += "{\"$collection\": \"wineNotes\", broken\n"
            case 8: text += "{\"$collection\": \"wineNotes\", \"id\": \"w3\", \"title\": \"dup\"}\n"
            default:
                text += "{\"$collection\":\"wineNotes\",\"id\":\"w\(i)\",\"title\":\"T\(i)\",\"category\":\"red\","
                    + "\"createdAt\":\"2024-01-01T00:00:00Z\",\"alcohol\":12.5,\"look\":\"ruby, deep\",\"smells\":[\"oak\"],"
                    + "\"tastes\":[{\"label\":\"body\",\"value\":0.5}],\"grape\":\"Syrah\",\"think\":\"ok\",\"rating\":\(i % 6),"
                    + "\"isFavorite\":false}\n"
            }
        }
        let input = directory.appendingPathComponent("notes.jsonl")
        try text.write(to: input, atomically: true, encoding: .utf8)
        var outputs: [String] = []
        var logs: [String] = []
        for jobs in ["1", "2", "3"] {
            let output = directory.appendingPathComponent("out-\(jobs).jsonl").path
            let run = try runFerry(["migrate", input.path, "--to-version", "2", "--lenient", "-o", output, "--jobs", jobs])
            #expect(run.status == 3)  // malformed lines: exit 3 (an input malformed) wins over invalid records
            outputs.append(try String(contentsOfFile: output, encoding: .utf8))
            logs.append(run.stderr.replacingOccurrences(of: output, with: "OUT"))
        }
        // 3000 lines: 6 broken, 6 invalid duplicates of w3; the rest plus the header line are written.
        #expect(outputs[0].split(separator: "\n").count == 2989)
        #expect(logs[0].contains("duplicate-id"))
        #expect(logs[0].contains("malformed-json"))
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
        #expect(logs[1] == logs[0])
        #expect(logs[2] == logs[0])
    }

    /// Takes every line that parses (`onlyWithID`: only objects with an `id` member), as a typed
    /// path would: the collection the line names, and the line number as the payload.
    private final class LineTaker: RawRecordTaker {
        let onlyWithID: Bool
        init(onlyWithID: Bool) { self.onlyWithID = onlyWithID }
        func take(_ record: RawRecord) -> TakenRecord? {
            guard case .jsonLine(let bytes, let line, _) = record else { return nil }
            var parser = JSONParser(bytes: bytes, range: 0..<bytes.count, location: SourceLocation(), maximumDepth: 512, takesCollection: true)
            guard let value = try? parser.parseDocument() else { return nil }
            if onlyWithID, value[JSONPointer(tokens: ["id"])] == nil { return nil }
            return TakenRecord(collection: parser.collection, payload: line)
        }
    }

    /// The batched events with `taker`: taken records as "taken record ..." with a null value
    /// and their payload (the line number) checked against the record's line.
    private func batched(_ text: String, taker: LineTaker, limit: Int, collection: String? = nil) throws -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location)") }
        let reader = JSONLinesReader(
            source: MemorySource(text), options: ReadOptions(fileName: "n.jsonl", collection: collection), log: log)
        while let batch = try reader.nextBatch(limit: limit) {
            batch.parse(offering: taker)
            for item in reader.items(from: batch) {
                switch item {
                case .record(let record): events.list.append(Self.describe(record))
                case .problem(let diagnostic): log.report(diagnostic)
                case .failure(let error): throw error
                case .taken(let item):
                    let (record, payload) = (item.record, item.payload)
                    #expect(record.value == .null)
                    #expect(payload == record.location.line)
                    events.list.append("taken " + Self.describe(record))
                }
            }
        }
        #expect(reader.header.domain == "notes")
        return events.list
    }

    /// What `serial` gives, with the records a taker would take marked "taken" and their value null.
    private func expectedTaken(_ text: String, onlyWithID: Bool, collection: String? = nil) throws -> [String] {
        let events = Events()
        let log = DiagnosticLog { events.list.append("problem \($0.code.rawValue) \($0.location)") }
        let reader = JSONLinesReader(
            source: MemorySource(text), options: ReadOptions(fileName: "n.jsonl", collection: collection), log: log)
        while var record = try reader.next() {
            if onlyWithID, record.value[JSONPointer(tokens: ["id"])] == nil {
                events.list.append(Self.describe(record))
                continue
            }
            record.value = .null
            events.list.append("taken " + Self.describe(record))
        }
        return events.list
    }

    @Test func takenLinesKeepTheirLocationsAndIndexes() throws {
        for onlyWithID in [true, false] {
            for collection in [nil, "fallback"] {
                let expected = try expectedTaken(Self.lines, onlyWithID: onlyWithID, collection: collection)
                #expect(expected.filter { $0.hasPrefix("taken") }.count == (onlyWithID ? 3 : 4))
                for limit in [1, 2, 3, 100] {
                    let events = try batched(Self.lines, taker: LineTaker(onlyWithID: onlyWithID), limit: limit, collection: collection)
                    #expect(events == expected)
                }
            }
        }
    }

    /// Blank and too-long lines are never offered; every other line is, with the reader's collection.
    @Test func offersEveryNonBlankLineWithTheDefaultCollection() throws {
        final class Recorder: RawRecordTaker, @unchecked Sendable {
            // @unchecked: one batch parses on one thread here.
            var offered: [String] = []
            func take(_ record: RawRecord) -> TakenRecord? {
                if case .jsonLine(let bytes, let line, let collection) = record {
                    offered.append("\(line) \(collection ?? "-") \(String(decoding: bytes, as: UTF8.self))")
                }
                return nil
            }
        }
        let recorder = Recorder()
        let text = "{\"a\": 1}\n\n  \n" + String(repeating: "x", count: 100) + "\n[1]\r\n"
        let reader = JSONLinesReader(
            source: MemorySource(text), options: ReadOptions(fileName: "n.jsonl", collection: "c"), log: DiagnosticLog(),
            chunkSize: 16, maximumLineSize: 50)
        while let batch = try reader.nextBatch(limit: 100) {
            batch.parse(offering: recorder)
            _ = reader.items(from: batch)
        }
        #expect(recorder.offered == ["1 c {\"a\": 1}", "5 c [1]"])  // without the line break
    }
}
