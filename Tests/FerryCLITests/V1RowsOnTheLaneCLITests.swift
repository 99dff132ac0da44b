import FerryTestSupport
import Foundation
import Testing

/// V1 rows of every domain take the typed lane for validation (the V2 migration run for its
/// checks) and for migration to V2, Firestore Timestamps and pet-story instants-or-days included,
/// and give what the general path gave before: the goldens under `Fixtures/v1-rows-lane` were
/// written by the build before the lane took these rows (`bench/v1-rows-lane-goldens.py`), and
/// each input holds rows with errors and warnings of the read and of the migration (a studyState
/// out of range, a missing id, nanoseconds finer than a millisecond, a numeric Timestamp, a
/// Timestamp of each accepted shape, an instant finer than a millisecond, a check across fields,
/// a dangling reference, a duplicate id); migrate runs plain (errors: nothing written) and
/// `--lenient` (the valid records written).
@Suite struct V1RowsOnTheLaneCLITests {
    /// One cell: a domain's V1 input in one format, one command.
    struct Cell: CustomStringConvertible, Sendable {
        let domain: String
        let format: String
        let command: String
        var description: String { "\(domain) \(format) \(command)" }

        /// The input's name in the fixtures and in the sandbox: a JSON Lines file or a CSV folder.
        var input: String { format == "jsonl" ? "\(domain)-v1.jsonl" : "\(domain)-v1-csv" }
        var golden: String { "v1-rows-lane/\(domain)-\(format)-\(command).txt" }

        var arguments: [String] {
            switch command {
            case "validate": return ["validate", input]
            case "migrate": return ["migrate", input, "--to-version", "2", "-o", "out.jsonl"]
            default: return ["migrate", input, "--to-version", "2", "--lenient", "-o", "out.jsonl"]
            }
        }
    }

    static let cells: [Cell] = ["notes", "pet-story", "vocabulary"].flatMap { domain in
        ["jsonl", "csv"].flatMap { format in
            ["validate", "migrate", "migrate-lenient"].map { Cell(domain: domain, format: format, command: $0) }
        }
    }

    /// What a run printed and wrote, as the golden holds it.
    static func transcript(_ run: FerryRun, _ box: Sandbox) throws -> String {
        var text = "status: \(run.status)\n--- stdout\n\(run.stdout)--- stderr\n\(run.stderr)"
        text += box.exists("out.jsonl") ? "--- out.jsonl\n" + (try box.text("out.jsonl")) : "--- no out.jsonl\n"
        return text
    }

    @Test(arguments: cells, ["1", "2"])
    func givesWhatTheGeneralPathGaveBefore(_ cell: Cell, jobs: String) throws {
        let box = try Sandbox()
        let source = Fixtures.url("v1-rows-lane/\(cell.input)")
        try FileManager.default.copyItem(at: source, to: box.url.appendingPathComponent(cell.input))
        let run = try box.ferry(cell.arguments + ["--jobs", jobs])
        #expect(try Self.transcript(run, box) == (try Fixtures.text(cell.golden)), "\(cell) --jobs \(jobs)")
    }
}
