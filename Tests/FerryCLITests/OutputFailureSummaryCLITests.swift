import FerryTestSupport
import Foundation
import Testing

/// An output that cannot be written is said in the summary, not counted as a record's error.
@Suite struct OutputFailureSummaryCLITests {
    /// Every output format and the bundle: `/proc` takes no new file (exit 5).
    @Test(arguments: ["x.json", "x.jsonl", "x.xml", "x.tar", "x/"])
    func anOutputThatCannotBeWrittenIsNoRecordError(_ output: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1.json")
        let run = try box.ferry(["convert", "pet-story-v1.json", "-o", "/proc/\(output)"] + (output == "x/" ? ["--to", "csv"] : []))
        #expect(run.status == 5, "\(output)")
        #expect(run.errors.count == 1 && run.errors.allSatisfy { $0.hasPrefix("/proc/x") && $0.hasSuffix("[output-unwritable]") },
            "\(output): \(run.stderr)")
        let summary = try #require(run.stderrLines.last)
        #expect(summary.hasPrefix("pet-story-v1.json: pet-story v1: profiles 1, "), "\(output)")
        #expect(summary.hasSuffix(" record\(output == "x.tar" ? "s" : ""), 0 errors, 0 warnings); the output could not be written (the error above), nothing written"),
            "\(output): \(summary)")
    }
}
