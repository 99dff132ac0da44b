import FerryTestSupport
import Foundation
import Testing

/// V1 data kept at V1 (`convert` without `--to-version`) is held to the rules its migration
/// checks, as `validate` holds it: an unknown `studyState`, a story's `lat` without `lng`. What
/// convert writes is what validate accepts, in every format, with one job or two.
@Suite struct SameRulesEveryCommandCLITests {
    struct Cell: CustomStringConvertible, Sendable {
        let sample: String
        let format: String
        var description: String { "\(sample) as \(format)" }

        /// The text changed, in the sample written in `format`, to break the migration's rule, and
        /// what it becomes: a studyState of 7, a story's `lng` taken away.
        var change: (from: String, to: String) {
            switch (sample.hasPrefix("vocabulary"), format) {
            case (true, "json"): return ("\"studyState\": 1,", "\"studyState\": 7,")
            case (true, "jsonl"): return ("\"studyState\":1,", "\"studyState\":7,")
            case (true, _): return ("<studyState>1</studyState>", "<studyState>7</studyState>")
            case (false, "json"): return (",\n      \"lng\": 139.7454", "")
            case (false, "jsonl"): return (",\"lng\":139.7454", "")
            case (false, _): return ("\n      <lng>139.7454</lng>", "")
            }
        }
    }

    static let cells = ["json", "jsonl", "xml"].flatMap { format in
        ["vocabulary-v1-backup-restore.json", "pet-story-v1.json"].map { Cell(sample: $0, format: format) }
    }

    @Test(arguments: cells)
    func convertReportsWhatValidateReports(_ cell: Cell) throws {
        let box = try Sandbox()
        try box.copySample(cell.sample, to: "sample.json")
        let name = "in.\(cell.format)"
        if cell.format != "json" { #expect(try box.ferry(["convert", "sample.json", "--to", cell.format, "-o", name]).status == 0) }
        let text = try box.text(cell.format == "json" ? "sample.json" : name)
        let broken = text.replacingOccurrences(of: cell.change.from, with: cell.change.to)
        #expect(broken != text, "\(cell)")
        try box.write(name, broken)
        let validated = try box.ferry(["validate", name])
        #expect(validated.status == 1, "\(cell): \(validated.stderr)")
        #expect(validated.errors.count == 1, "\(cell): \(validated.stderr)")
        let rule = cell.sample.hasPrefix("vocabulary")
            ? "studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)"
            : "lat: lat without lng; a location needs both"
        #expect(validated.errors.first?.contains(rule) == true, "\(cell): \(validated.stderr)")
        let (one, two) = try box.ferryByJobs(["convert", name, "--to", "jsonl", "-o", "OUT"])
        #expect(one.stderr == two.stderr && one.status == two.status, "\(cell)")
        #expect(one.status == 1)
        let errors = one.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init)
        #expect(errors == validated.errors, "\(cell)")
        #expect(one.output.isEmpty)
        // --lenient writes the records validate accepts: all but the broken one.
        let lenient = try box.ferry(["convert", name, "--to", "jsonl", "--lenient", "-o", "kept.jsonl"])
        #expect(lenient.errors == validated.errors, "\(cell)")
        #expect(try box.ferry(["validate", "kept.jsonl"]).status == 0, "\(cell)")
    }
}
