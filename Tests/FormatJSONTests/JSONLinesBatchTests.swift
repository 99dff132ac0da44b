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
                case .taken(let record, _): events.list.append("taken " + Self.describe(record))
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
}
