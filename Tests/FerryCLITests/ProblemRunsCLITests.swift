import FerryTestSupport
import Foundation
import Testing

/// Runs of records with problems (the typed lane gives each back to the general path, and after a
/// run stops offering it the next ones) give exactly what the general path gives (the goldens under
/// `Fixtures/ProblemRunsCLITests`): the same diagnostics, summary, status and output, for every
/// domain and input format, with 1 and 2 jobs.
@Suite struct ProblemRunsCLITests {
    /// `text` with the RFC 3339 instants of each run of 12 in 40 (by place in the text) made
    /// `yesterday`, which no instant field reads: about 12 records in a row with an error, then
    /// about 28 without.
    static func breakingRuns(_ text: String) -> String {
        let instant = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/#
        var result = ""
        var rest = text[...]
        var index = 0
        while let match = rest.firstMatch(of: instant) {
            result += rest[..<match.range.lowerBound]
            result += index % 40 < 12 ? "yesterday" : String(match.output.0)
            index += 1
            rest = rest[match.range.upperBound...]
        }
        return result + rest
    }

    @Test(arguments: GeneratedBackups.domains, ["jsonl", "json", "csv", "xml"])
    func runsOfProblemsAreReportedAsTheGeneralPathReportsThem(domain: String, format: String) throws {
        let box = try Sandbox()
        try box.write("valid.json", GeneratedBackups.json(domain: domain, version: 2, count: 300))
        let input = format == "csv" ? "in/" : "in." + format
        #expect(try box.ferry(["convert", "valid.json", "--to", format, "-o", input, "--quiet"]).status == 0)
        for file in format == "csv" ? try box.files(under: "in").map { "in/" + $0 } : [input] {
            try box.write(file, Self.breakingRuns(try box.text(file)))
        }
        let runs = GoldenRuns(box, golden: "ProblemRunsCLITests/\(domain)-\(format).txt", jobs: ["1", "2"])
        let run = try runs.run(["convert", input, "--to", "jsonl", "-o", "OUT.jsonl", "--lenient", "--max-errors", "100000"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.errors.count > 40, "\(domain) \(format): \(run.stderr)")
        runs.expectGolden()
    }
}
