import FerryTestSupport
import Foundation
import Testing

/// Where `truncated-archive` stands among a run's diagnostics: first, before the errors of the
/// records read before the cut, although its position (the end of the cut member's data) is after
/// theirs. The archive scan finds the cut before any record is read and says it there, with the
/// archive's other problems, whatever reads the records after it; `--max-errors 1` shows the
/// reason for exit 3 (Docs/diagnostics.md "Order"). Every domain, each data format of a bundle,
/// one job or two.
@Suite struct CutArchiveOrderCLITests {
    static let collections = ["notes": "wineTastingNotes", "pet-story": "members", "vocabulary": "words"]

    /// `EmptyRequiredStringCLITests`'s dataset of `domain` with a second record after the invalid
    /// one: a copy of it with the id `zz-2` and the empty string filled in.
    static func twoRecords(_ domain: String) -> String {
        let text = EmptyRequiredStringCLITests.inputs[domain]!
        let open = "\"\(collections[domain]!)\": [\n"
        let start = text.range(of: open)!.upperBound
        let end = text.range(of: "\n  ]", range: start..<text.endIndex)!.lowerBound
        let record = String(text[start..<end])
        let (field, filled) = ["notes": ("\"title\": \"\"", "\"title\": \"T\""), "pet-story": ("\"sex\": \"\"", "\"sex\": \"male\""),
                               "vocabulary": ("\"wordBookID\": \"\"", "\"wordBookID\": \"b1\"")][domain]!
        let id = record.range(of: #""id": "[^"]*""#, options: .regularExpression)!
        var copy = record
        copy.replaceSubrange(id, with: "\"id\": \"zz-2\"")
        copy = copy.replacingOccurrences(of: field, with: filled)
        return String(text[..<end]) + ",\n" + copy + String(text[end...])
    }

    @Test(arguments: GeneratedDocuments.domains, ["json", "jsonl", "csv", "xml"])
    func theCutComesBeforeTheRecordsReadBeforeIt(_ domain: String, _ dataFormat: String) throws {
        let box = try Sandbox()
        try box.write("in.json", Self.twoRecords(domain))
        let made = try box.ferry(["convert", "in.json", "--data-format", dataFormat, "-o", "whole.tar", "--schema-free", "-q"])
        try #require(made.status == 0, "\(made.stderr)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        let path = "data/\(Self.collections[domain]!).\(dataFormat)"
        let member = try #require(tar.member(path))
        let data = try #require(tar.data(of: path))
        // Inside the second record: three bytes into its id.
        let id = Array("zz-2".utf8)
        let at = try #require((0...(data.count - id.count)).first { Array(data[$0..<($0 + id.count)]) == id })
        let kept = at + 3
        let cut = member.dataOffset + kept
        try box.write("cut.tar", bytes: Array(tar.bytes[..<cut]))
        let (line, column) = CutShortWordingCLITests.end(of: Array(data[..<kept]))
        for jobs in ["1", "2"] {
            // The first record's one error, where it stands in the member.
            let whole = try box.ferry(["validate", "whole.tar", "--jobs", jobs])
            #expect(whole.errors.count == 1 && whole.status == 1, "\(domain) \(dataFormat): \(whole.stderr)")
            let cutLine = "cut.tar:\(path):\(line):\(column): error: truncated tar archive at byte offset \(cut), in member "
                + "\"\(path)\": the member's data ends here; its records before the cut are read [truncated-archive]"
            let run = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
            #expect(run.errors == [cutLine] + whole.errors.map { "cut.tar" + $0.dropFirst("whole.tar".count) },
                    "\(domain) \(dataFormat) --jobs \(jobs)")
            #expect(run.status == 3)
            let first = try box.ferry(["validate", "cut.tar", "--jobs", jobs, "--max-errors", "1"])
            #expect(first.errors == [cutLine], "\(domain) \(dataFormat) --jobs \(jobs)")
            #expect(first.status == 3)
        }
    }
}
