import FerryTestSupport
import Foundation
import Testing

/// The summary line of `validate` says what happened to an input it could not check in full:
/// `unreadable` and `malformed, not read in full` (exit 3), `not checked: unknown version` (exit
/// 4; `unknown format`, `unknown domain`); `valid` and `invalid` (exit 0 and 1) stay as they were.
/// (Every run that did not exit 0 said `invalid`.) Every domain and data format.
@Suite struct RunSummaryWordingCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var format: String
        var testDescription: String { "\(domain) \(format)" }
    }

    static let cells = GeneratedDocuments.domains.flatMap { domain in
        ["json", "jsonl", "csv", "xml"].map { Cell(domain: domain, format: $0) }
    }

    @Test(arguments: cells) func theSummarySaysWhatStoppedTheCheck(_ cell: Cell) throws {
        guard case let (box, _, _)? = try Sandbox.generated(cell.domain, records: 20) else { return }
        let name = "whole.\(cell.format)"
        let made = try box.ferry(["convert", "v1.json", "--to", cell.format, "-o", name, "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let whole = try box.ferry(["validate", name])
        #expect(whole.status == 0 && whole.stderrLines.last?.hasSuffix(", 0 errors, 0 warnings); valid") == true, "\(cell): \(whole.stderr)")
        let bytes = try box.bytes(name)
        try box.write("cut.\(cell.format)", bytes: Array(bytes[..<(bytes.count * 6 / 10)]))
        let cut = try box.ferry(["validate", "cut.\(cell.format)"])
        #expect(cut.status == 3, "\(cell): \(cut.stderr)")
        #expect(cut.stderrLines.last?.hasSuffix(" warnings); malformed, not read in full") == true, "\(cell): \(cut.stderr)")
        let version = try box.ferry(["validate", name, "--domain", cell.domain, "--schema-version", "9"])
        #expect(version.status == 4, "\(cell): \(version.stderr)")
        #expect(version.stderrLines == [
            "\(name): error: \(cell.domain) has no schema version 9 (known: 1, 2) [unknown-version]",
            "\(name): (0 records, 1 error, 0 warnings); not checked: unknown version",
        ], "\(cell)")
        let missing = try box.ferry(["validate", "missing.\(cell.format)"])
        #expect(missing.status == 3)
        #expect(missing.stderrLines == [
            "missing.\(cell.format): error: no such file or folder [unreadable-input]",
            "missing.\(cell.format): (0 records, 1 error, 0 warnings); unreadable",
        ], "\(cell)")
    }

    /// Invalid data keeps its word: `invalid` (exit 1).
    @Test func invalidDataIsStillInvalid() throws {
        let box = try Sandbox()
        try box.write("s.jsonl", #"{"domain":"notes","schemaVersion":2}"# + "\n" + #"{"a":1}"# + "\n")
        let run = try box.ferry(["validate", "s.jsonl"])
        #expect(run.status == 1)
        #expect(run.stderrLines.last == "s.jsonl: notes v2: wineTastingNotes 0, coffeeTastingNotes 0, whiskeyTastingNotes 0, "
            + "cocktailTastingNotes 0 (0 of 1 record valid, 1 error, 0 warnings); invalid")
    }
}
