import FerryTestSupport
import Foundation
import Testing

/// Every report that counts records says how many were read when some did not pass, as the
/// summary line does (`7 of 8 records valid`): `inspect` (text and `--json`), `stats --report
/// json|html`, `validate --report html`; and a pipeline that only validates says its inputs are
/// valid or invalid, not converted. The same wine notes in JSON and JSON Lines, one rating out of
/// range: 8 read, 7 passed.
@Suite struct RecordsReadReportsCLITests {
    /// The 8 notes of the fixture with the first rating out of range, as `name` in its format.
    static func brokenNotes(in box: Sandbox, as name: String) throws -> String {
        let good = try Fixtures.text("notes-v2.json")
        let bad = good.replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,")
        #expect(bad != good)
        if name.hasSuffix(".json") {
            try box.write(name, bad)
        } else {
            try box.write("source.json", good)
            let convert = try box.ferry(["convert", "source.json", "-o", name, "--quiet"])
            #expect(convert.status == 0, "\(convert.stderr)")
            let lines = try box.text(name)
            let broken = lines.replacingOccurrences(of: "\"rating\":5,", with: "\"rating\":9,")
            #expect(broken != lines)
            try box.write(name, broken)
        }
        return name
    }

    static let inputs = ["notes.json", "notes.jsonl"]

    @Test(arguments: inputs) func inspectSaysOneErrorAndTheRecordsRead(input: String) throws {
        let box = try Sandbox()
        let name = try Self.brokenNotes(in: box, as: input)
        let text = try box.ferry(["inspect", name])
        #expect(text.stdout.contains("\nrecords:     7 valid of 8 read\nproblems:    1 error, 0 warnings\n"), "\(text.stdout)")
        let json = try box.ferry(["inspect", name, "--json"])
        #expect(json.stdout.hasSuffix("  \"records\": 7,\n  \"recordsRead\": 8,\n  \"errors\": 1,\n  \"warnings\": 0\n}\n"), "\(json.stdout)")
    }

    @Test(arguments: inputs) func statsSaysTheRecordsRead(input: String) throws {
        let box = try Sandbox()
        let name = try Self.brokenNotes(in: box, as: input)
        let json = try box.ferry(["stats", name, "--report", "json"])
        #expect(json.stdout.contains("\n  \"records\": 7,\n  \"recordsRead\": 8,\n  \"errors\": 1,\n"), "\(json.stdout)")
        let text = try box.ferry(["stats", name])
        #expect(text.stdout.hasPrefix("input: \(name) (\(name.hasSuffix("l") ? "jsonl" : "json"), notes v2): 7 records of 8 read (1 error: "), "\(text.stdout)")
        let html = try box.ferry(["stats", name, "--report", "html"])
        #expect(html.stdout.contains(" &#183; 7 records of 8 read &#183; 1 error: invalid records are left out"), "\(html.stdout)")
    }

    @Test(arguments: inputs) func theValidationPageSaysTheRecordsRead(input: String) throws {
        let box = try Sandbox()
        let name = try Self.brokenNotes(in: box, as: input)
        let html = try box.ferry(["validate", name, "--report", "html"])
        #expect(html.status == 1)
        #expect(html.stdout.contains("<td class=\"num\">7 of 8</td><td class=\"num\">1</td>"), "\(html.stdout)")
        #expect(html.stdout.contains(" &#183; 7 records of 8 read"), "\(html.stdout)")
    }

    /// A pipeline with no output: `run: 1 valid, 1 invalid`, as `ferry validate` of a folder says.
    @Test(arguments: inputs) func aValidatingPipelineCountsValidAndInvalidInputs(input: String) throws {
        let box = try Sandbox()
        let name = try Self.brokenNotes(in: box, as: "in/bad." + (input as NSString).pathExtension)
        try box.write("in/good.json", try Fixtures.text("notes-v2.json"))
        try box.write("pipeline.json", #"{"inputs": ["in/*"], "steps": [{"validate": {}}]}"#)
        let run = try box.ferry(["run", "pipeline.json"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderrLines.suffix(3) == [
            "\(name): notes v2: wineTastingNotes 3, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (7 of 8 records valid, 1 error, 0 warnings); invalid",
            "in/good.json: notes v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 0 warnings); valid",
            "run: 1 valid, 1 invalid (1 error, 0 warnings)",
        ])
    }
}
