import FerryTestSupport
import Foundation
import Testing

/// A report written inside a folder input is not a dataset of that folder the next time: the same
/// command run again reads the same datasets and replaces its report, as a pipeline's report is
/// left out of its folder inputs.
@Suite struct ReportFileInFolderCLITests {
    @Test(arguments: [
        (["validate", "set", "--report", "json", "--report-file", "set/r.json"], "total: 2 datasets, 2 valid, 0 invalid (0 errors, 0 warnings)"),
        (["convert", "set", "-o", "out/", "--to", "jsonl", "--report", "json", "--report-file", "set/r.json"], "total: 2 datasets, 2 written, 0 failed (0 errors, 0 warnings)"),
        (["stats", "set", "--report", "json", "--report-file", "set/r.json"], nil),
    ] as [([String], String?)])
    func theReportIsNotReadTheNextTime(arguments: [String], total: String?) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "set/a.json")
        try box.copySample("pet-story-v1.json", to: "set/b.json")
        let first = try box.ferry(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let report = try box.text("set/r.json")
        let second = try box.ferry(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr == first.stderr)
        #expect(try box.text("set/r.json") == report)
        #expect(!report.contains("r.json"))
        if let total { #expect(second.stderrLines.last == total) }
    }
}
