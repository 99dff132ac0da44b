import FerryTestSupport
import Foundation
import Testing

/// An input cut short: one diagnostic that says so (exit 3), no follow-on errors that only
/// repeat the cut, and under `--lenient` the records read before the cut written, in every
/// format alike (JSON Lines and CSV did; JSON documents and XML wrote nothing), with one job
/// or two.
@Suite struct CutShortInputCLITests {
    struct Cell: CustomStringConvertible, Sendable {
        let sample: String
        let format: String
        var description: String { "\(sample) as \(format)" }
    }

    static let cells = ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-backup-restore.json"].flatMap { sample in
        ["jsonl", "csv", "json", "xml"].map { Cell(sample: sample, format: $0) }
    }

    /// The whole input in `cell.format` (`whole.EXT`) and its records as JSON Lines lines.
    private func whole(_ cell: Cell, in box: Sandbox) throws -> (name: String, lines: [Substring]) {
        try box.copySample(cell.sample, to: "sample.json")
        let name = "whole.\(cell.format)"
        // A CSV file holds one collection: the first one with records.
        let first = try box.ferry(["convert", "sample.json", "--to", "jsonl", "-o", "-"]).stdout
        let collection = try #require(first.firstMatch(of: /"\$collection":"([^"]*)"/)?.1)
        let only = cell.format == "csv" ? ["--collection", String(collection)] : []
        let written = try box.ferry(["convert", "sample.json", "--to", cell.format, "-o", name] + only)
        #expect(written.status == 0, "\(cell): \(written.stderr)")
        let lines = try box.ferry(["convert", name, "--to", "jsonl", "-o", "-"]).stdout.split(separator: "\n")
        return (name, lines)
    }

    @Test(arguments: cells)
    func lenientKeepsTheRecordsBeforeTheCut(_ cell: Cell) throws {
        let box = try Sandbox()
        let (name, lines) = try whole(cell, in: box)
        let bytes = try box.bytes(name)
        // Cut inside the last record (a JSON document's last record ends a few closing brackets before its end).
        try box.write("cut.\(cell.format)", bytes: Array(bytes[..<(bytes.count - 40)]))
        let (one, two) = try box.ferryByJobs(["convert", "cut.\(cell.format)", "--to", "jsonl", "--lenient", "-o", "OUT"])
        #expect(one.output == two.output, "\(cell)")
        #expect(one.stderr == two.stderr, "\(cell)")
        #expect(one.status == 3, "\(cell): \(one.stderr)")
        let kept = one.output.split(separator: "\n")
        // The header line, then the records before the cut: the first of the whole input's.
        #expect(kept.count >= 1 && kept.count < lines.count, "\(cell): \(one.stderr)")
        #expect(Array(kept) == Array(lines.prefix(kept.count)), "\(cell)")
        #expect(one.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.count == 1, "\(cell): \(one.stderr)")
    }

    /// A JSON document cut inside a record names the record and where it opens, as XML names the
    /// element left open.
    @Test func aCutJSONDocumentNamesTheRecordLeftOpen() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "whole.json")
        try box.write("cut.json", bytes: Array(try box.bytes("whole.json").prefix(1500)))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "cut.json", "--jobs", jobs])
            #expect(run.errors == ["cut.json:63:5: error: unexpected end of input, expected a value: the input ends inside record 2 of "
                + "wineNotes, which opens at line 55, column 5 and is not closed (the input is cut short) [malformed-json]"])
            #expect(run.status == 3)
        }
        try box.copySample("vocabulary-v1-backup-restore.json", to: "book.json")
        try box.write("book-cut.json", bytes: Array(try box.bytes("book.json").prefix(600)))
        #expect(try box.ferry(["validate", "book-cut.json"]).errors == [
            "book-cut.json:23:13: error: unexpected end of input, expected a string key: the input ends inside document \"kanji-1\" "
                + "of wordBooks, which opens at line 3, column 16 and is not closed (the input is cut short) [malformed-json]"])
    }

    /// A bundle cut anywhere: one error, the cut, and none for the members, manifest entries or
    /// record counts it lacks past the cut.
    @Test(arguments: ["tar", "zip"])
    func aCutBundleGivesOneError(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents")
        #expect(try box.ferry(["convert", "pet-story-v1-documents", "-o", "whole.\(format)"]).status == 0)
        let bytes = try box.bytes("whole.\(format)")
        // Cuts before the tar's end-of-archive blocks (its last member ends at about 64%).
        for fraction in [0.1, 0.25, 0.4, 0.55] {
            let name = "cut-\(Int(fraction * 100)).\(format)"
            try box.write(name, bytes: Array(bytes.prefix(Int(Double(bytes.count) * fraction))))
            let run = try box.ferry(["validate", name])
            #expect(run.errors.count == 1, "\(name)\n\(run.stderr)")
            #expect(run.errors.allSatisfy { $0.hasSuffix("[truncated-archive]") }, "\(name)\n\(run.stderr)")
            #expect(run.status == 3, "\(name)")
        }
        if format == "zip" {
            try box.write("half.zip", bytes: Array(bytes.prefix(bytes.count / 2)))
            #expect(try box.ferry(["validate", "half.zip"]).errors == [
                "half.zip: error: the zip is cut short: it starts with a member header but ends before its central directory [truncated-archive]"])
        }
    }
}
