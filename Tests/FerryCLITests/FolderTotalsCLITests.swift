import FerryTestSupport
import Foundation
import Testing

/// The total line of a folder of datasets counts as written every dataset whose output was
/// written: `--lenient` writes the valid records of an invalid one (its summary ends
/// `-> out/b.jsonl`), so it is not counted failed; the JSON report counts them the same way.
@Suite struct FolderTotalsCLITests {
    private func folder() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "fold/a.json")
        let text = try box.text("fold/a.json")
        let range = try #require(text.range(of: "\"rating\": 5,"))
        try box.write("fold/b.json", text.replacingCharacters(in: range, with: "\"rating\": 5, \"x\": 1,"))
        return box
    }

    @Test func lenientCountsAnInvalidDatasetItWroteAsWritten() throws {
        let box = try folder()
        let lenient = try box.ferry(["convert", "fold", "--lenient", "--to", "jsonl", "-o", "out/", "--report", "json", "--report-file", "r.json"])
        #expect(lenient.stderrLines.last == "total: 2 datasets, 2 written, 0 failed (1 error, 0 warnings)")
        #expect(lenient.status == 1)
        #expect(try box.text("r.json").hasPrefix("{\n  \"valid\": false,\n  \"errors\": 1,\n  \"warnings\": 0,\n  \"written\": 2,\n  \"failed\": 0,\n"))
        let strict = try box.ferry(["convert", "fold", "--to", "jsonl", "-o", "out2/", "--report", "json", "--report-file", "r2.json"])
        #expect(strict.stderrLines.last == "total: 2 datasets, 1 written, 1 failed (1 error, 0 warnings)")
        #expect(try box.text("r2.json").hasPrefix("{\n  \"valid\": false,\n  \"errors\": 1,\n  \"warnings\": 0,\n  \"written\": 1,\n  \"failed\": 1,\n"))
        // A validation's report has no such counts.
        let validation = try box.ferry(["validate", "fold", "--report", "json", "--report-file", "r3.json"])
        #expect(validation.stderrLines.last == "total: 2 datasets, 1 valid, 1 invalid (1 error, 0 warnings)")
        #expect(try box.text("r3.json").hasPrefix("{\n  \"valid\": false,\n  \"errors\": 1,\n  \"warnings\": 0,\n  \"files\": [\n"))
    }
}
