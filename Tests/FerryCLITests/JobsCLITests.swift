import FerrySchemas
import FerryTestSupport
import Foundation
import Testing

/// `--jobs N` renders JSON Lines output on the worker threads ahead of the commit: the output
/// bytes and the diagnostics must be exactly those of `--jobs 1`, also when the commit drops a
/// record (a duplicate id, a derived id that collides) and around lines that are not JSON.
@Suite struct JobsCLITests {
    static let createdAt = "2024-01-01T00:00:00Z"

    /// V1 wine notes over several batches: ids, missing ids, duplicates, a derived id that an
    /// earlier note already holds, bad lines, a record of an unknown collection.
    static func v1Notes() throws -> String {
        let instant = try Instant.parse(createdAt).get()
        let stolen = DerivedID.forNote(collection: "wineNotes", index: 5, createdAt: instant, title: "T5")
        var text = "{\"domain\": \"notes\", \"schemaVersion\": 1}\n"
        for i in 0..<1500 {
            let id: String
            switch i {
            case 0: id = ",\"id\":\"\(stolen)\""
            case 5, 300, 301, 777: id = ""  // derived: 5 collides with record 0's id
            case 400, 900: id = ",\"id\":\"w3\""  // duplicates
            default: id = ",\"id\":\"w\(i)\""
            }
            switch i {
            case 600: text += "{\"$collection\":\"wineNotes\", nope}\n"
            case 601: text += "\n"
            case 602: text += "{\"$collection\":\"beerNotes\",\"id\":\"b1\"}\n"
            case 603: text += "{\"$collection\":\"wineNotes\"\(id),\"title\":\"bad\",\"rating\":\"high\"}\n"
            default:
                text += "{\"$collection\":\"wineNotes\"\(id),\"title\":\"T\(i)\",\"category\":\"red\","
                    + "\"createdAt\":\"\(createdAt)\",\"alcohol\":12.5,\"look\":\"ruby, deep\",\"smells\":[\"oak\",\"é \\\"q\\\"\"],"
                    + "\"tastes\":[{\"label\":\"body\",\"value\":0.5}],\"grape\":\"Syrah\",\"think\":\"a\\nb\",\"rating\":\(i % 6),"
                    + "\"isFavorite\":\(i % 2 == 0)}\n"
            }
        }
        return text
    }

    /// Runs `arguments` (with `OUT` for the output file) once per job count; returns the
    /// outputs, standard errors and statuses.
    private func runs(_ box: Sandbox, _ arguments: [String]) throws -> [(output: String, stderr: String, status: Int32)] {
        try ["1", "2", "3"].map { jobs in
            let output = "out-\(jobs).jsonl"
            let run = try box.ferry(arguments.map { $0 == "OUT" ? output : $0 } + ["--jobs", jobs])
            let written = (try? box.text(output)) ?? ""
            return (written, run.stderr.replacingOccurrences(of: output, with: "OUT"), run.status)
        }
    }

    @Test func migrationGivesTheSameBytesAndDiagnosticsWithAnyJobs() throws {
        let box = try Sandbox()
        try box.write("v1.jsonl", try Self.v1Notes())
        let results = try runs(box, ["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "-o", "OUT"])
        #expect(results[0].stderr.contains("duplicate-id"))
        #expect(results[0].stderr.contains("malformed-json"))
        #expect(results[0].output.split(separator: "\n").count > 1400)
        for result in results.dropFirst() {
            #expect(result.output == results[0].output)
            #expect(result.stderr == results[0].stderr)
            #expect(result.status == results[0].status)
        }
    }

    @Test func conversionAndValidationOfV2GiveTheSameWithAnyJobs() throws {
        let box = try Sandbox()
        try box.write("v1.jsonl", try Self.v1Notes())
        _ = try box.ferry(["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "-o", "v2.jsonl"])
        // Duplicates and a bad line again, in the V2 file.
        var v2 = try box.text("v2.jsonl")
        let lines = v2.split(separator: "\n", omittingEmptySubsequences: false)
        v2 = lines.prefix(700).joined(separator: "\n") + "\n{broken\n" + lines[10] + "\n" + lines.dropFirst(700).joined(separator: "\n")
        try box.write("v2.jsonl", v2)
        for arguments in [["convert", "v2.jsonl", "--to", "jsonl", "--lenient", "-o", "OUT"],
                          ["convert", "v2.jsonl", "--to", "jsonl", "-o", "OUT"],
                          ["validate", "v2.jsonl"]]
        {
            let results = try runs(box, arguments)
            #expect(results[0].stderr.contains("duplicate-id"))
            for result in results.dropFirst() {
                #expect(result.output == results[0].output, "\(arguments)")
                #expect(result.stderr == results[0].stderr, "\(arguments)")
                #expect(result.status == results[0].status, "\(arguments)")
            }
        }
    }
}
