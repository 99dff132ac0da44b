import FerryTestSupport
import Foundation
import Testing

/// The duplicate ids and dangling references the commit finds in records the typed lane took
/// (whose record is made only for such a diagnostic) are reported as the general path reports
/// them (the goldens under `Fixtures/TakenRecordDiagnosticsCLITests`): the same code, line,
/// column, pointer, message and code frame, for the three domains in JSON Lines, CSV and JSON
/// documents, with 1, 2 and 3 jobs.
@Suite struct TakenRecordDiagnosticsCLITests {
    struct Case: CustomStringConvertible, Sendable {
        let domain: String
        let format: String
        let jobs: Int
        var description: String { "\(domain) \(format) --jobs \(jobs)" }
    }

    static let cases = GeneratedBackups.domains.flatMap { domain in
        ["jsonl", "csv", "json"].flatMap { format in (1...3).map { Case(domain: domain, format: format, jobs: $0) } }
    }

    /// One diagnostic line of standard error, taken apart.
    struct Found: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var code: String
        var pointer: String
        var message: String
        init(_ file: String, _ line: Int, _ column: Int, _ code: String, _ pointer: String, _ message: String) {
            (self.file, self.line, self.column, self.code, self.pointer, self.message) = (file, line, column, code, pointer, message)
        }
        var description: String { "\(file):\(line):\(column) [\(code)] \(pointer): \(message)" }
    }

    /// The diagnostics of `stderr` with a code (`FILE:LINE:COL: error: POINTER: MESSAGE [code]`), in order.
    static func diagnostics(_ stderr: String) -> [Found] {
        stderr.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: #/(.+?):(\d+):(\d+): (?:error|warning): (/\S*): (.*) \[([a-z-]+)\]/#)
            else { return nil }
            return Found(String(match.1), Int(match.2)!, Int(match.3)!, String(match.6), String(match.4), String(match.5))
        }
    }

    /// The domain's valid dataset in `format` (`data.jsonl`, `data/` of CSV files, `data.json`),
    /// then broken: the second record of the last collection takes the first one's id, and the
    /// records the others name (members, word books) change their ids, so that every reference
    /// to them dangles. Returns the input's path.
    static func dataset(_ domain: String, _ format: String, in box: Sandbox) throws -> String {
        try box.write("valid.json", GeneratedBackups.json(domain: domain, version: 2, count: 4))
        let (duplicated, first, renamed): (String, String, String?) = switch domain {
        case "notes": ("whisky-1", "whisky-0", nil)
        case "pet-story": ("s1", "s0", "m")
        default: ("w1", "w0", "b")
        }
        switch format {
        case "csv":
            _ = try box.ferry(["convert", "valid.json", "--to", "csv", "-o", "data/"])
            for file in try box.files(under: "data") {
                var rows = try box.text("data/" + file).components(separatedBy: "\r\n")
                for k in rows.indices {
                    if rows[k].hasPrefix(duplicated + ",") { rows[k] = first + rows[k].dropFirst(duplicated.count) }
                    if let renamed, file.hasPrefix(renamed == "m" ? "members" : "wordBooks"), rows[k].hasPrefix(renamed) {
                        rows[k] = "gone-" + rows[k]
                    }
                }
                try box.write("data/" + file, rows.joined(separator: "\r\n"))
            }
            return "data/"
        default:
            let name = "data." + format
            _ = try box.ferry(["convert", "valid.json", "--to", format, "-o", name])
            var text = try box.text(name)
            for colon in [":", ": "] {
                text = text.replacingOccurrences(of: #""id"\#(colon)"\#(duplicated)""#, with: #""id"\#(colon)"\#(first)""#)
                if let renamed { text = text.replacingOccurrences(of: #""id"\#(colon)"\#(renamed)"#, with: #""id"\#(colon)"gone-\#(renamed)"#) }
            }
            try box.write(name, text)
            return name
        }
    }

    @Test(arguments: cases)
    func commitDiagnosticsOfTakenRecordsAreTheGeneralPaths(_ test: Case) throws {
        let box = try Sandbox()
        let input = try Self.dataset(test.domain, test.format, in: box)
        // One golden for every number of jobs: they give the same.
        let runs = GoldenRuns(box, golden: "TakenRecordDiagnosticsCLITests/\(test.domain)-\(test.format).txt", jobs: ["\(test.jobs)"])
        let validation = try runs.run(["validate", input])
        #expect(validation.status == 1, "\(test)")
        let found = Self.diagnostics(validation.stderr)
        #expect(found == Self.expected[test.domain + " " + test.format], "\(test)\n\(found.map(\.description).joined(separator: "\n"))")
        // Notes name no other records: a duplicate id only.
        #expect(found.contains { $0.code == "dangling-reference" } == (test.domain != "notes"), "\(test)")
        // The HTML report shows each diagnostic with its code frame, read back at its position.
        try runs.run(["validate", input, "--report", "html", "--report-file", "OUT.html"])
        // Written output too: the lenient run keeps what the general path keeps.
        try runs.run(["convert", input, "--to", "jsonl", "--lenient", "-o", "OUT.jsonl"])
        runs.expectGolden()
    }

    /// What each input gives (the same with every number of jobs, typed or not).
    static let expected: [String: [Found]] = [
        "notes csv": [
            Found("data/whiskeyTastingNotes.csv", 3, 1, "duplicate-id", "/whiskeyTastingNotes/1/id",
                "duplicate id \"whisky-0\" in whiskeyTastingNotes: first at line 2 (/whiskeyTastingNotes/0) (column 'id')"),
        ],
        "notes json": [
            Found("data.json", 145, 13, "duplicate-id", "/whiskeyTastingNotes/1/id",
                "duplicate id \"whisky-0\" in whiskeyTastingNotes: first at line 121 (/whiskeyTastingNotes/0)"),
        ],
        "notes jsonl": [
            Found("data.jsonl", 7, 43, "duplicate-id", "/whiskeyTastingNotes/1/id",
                "duplicate id \"whisky-0\" in whiskeyTastingNotes: first at line 6 (/whiskeyTastingNotes/0)"),
        ],
        "pet-story csv": [
            Found("data/stories.csv", 3, 1, "duplicate-id", "/stories/1/id",
                "duplicate id \"s0\" in stories: first at line 2 (/stories/0) (column 'id')"),
            Found("data/stories.csv", 2, 41, "dangling-reference", "/stories/0/taggedMemberIds/0",
                "taggedMemberIds[0] \"m1\" names no member of the dataset (column 'taggedMemberIds.1') (id \"s0\")"),
            Found("data/stories.csv", 3, 43, "dangling-reference", "/stories/1/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (column 'taggedMemberIds.1') (id \"s0\")"),
            Found("data/stories.csv", 4, 41, "dangling-reference", "/stories/2/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (column 'taggedMemberIds.1') (id \"s2\")"),
            Found("data/stories.csv", 5, 43, "dangling-reference", "/stories/3/taggedMemberIds/0",
                "taggedMemberIds[0] \"m3\" names no member of the dataset (column 'taggedMemberIds.1') (id \"s3\")"),
        ],
        "pet-story json": [
            Found("data.json", 69, 13, "duplicate-id", "/stories/1/id",
                "duplicate id \"s0\" in stories: first at line 56 (/stories/0)"),
            Found("data.json", 65, 9, "dangling-reference", "/stories/0/taggedMemberIds/0",
                "taggedMemberIds[0] \"m1\" names no member of the dataset (id \"s0\")"),
            Found("data.json", 78, 9, "dangling-reference", "/stories/1/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (id \"s0\")"),
            Found("data.json", 91, 9, "dangling-reference", "/stories/2/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (id \"s2\")"),
            Found("data.json", 104, 9, "dangling-reference", "/stories/3/taggedMemberIds/0",
                "taggedMemberIds[0] \"m3\" names no member of the dataset (id \"s3\")"),
        ],
        "pet-story jsonl": [
            Found("data.jsonl", 8, 31, "duplicate-id", "/stories/1/id",
                "duplicate id \"s0\" in stories: first at line 7 (/stories/0)"),
            Found("data.jsonl", 7, 165, "dangling-reference", "/stories/0/taggedMemberIds/0",
                "taggedMemberIds[0] \"m1\" names no member of the dataset (id \"s0\")"),
            Found("data.jsonl", 8, 167, "dangling-reference", "/stories/1/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (id \"s0\")"),
            Found("data.jsonl", 9, 165, "dangling-reference", "/stories/2/taggedMemberIds/0",
                "taggedMemberIds[0] \"m0\" names no member of the dataset (id \"s2\")"),
            Found("data.jsonl", 10, 167, "dangling-reference", "/stories/3/taggedMemberIds/0",
                "taggedMemberIds[0] \"m3\" names no member of the dataset (id \"s3\")"),
        ],
        "vocabulary csv": [
            Found("data/words.csv", 3, 1, "duplicate-id", "/words/1/id",
                "duplicate id \"w0\" in words: first at line 2 (/words/0) (column 'id')"),
            Found("data/words.csv", 2, 4, "dangling-reference", "/words/0/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (column 'wordBookID') (id \"w0\")"),
            Found("data/words.csv", 3, 4, "dangling-reference", "/words/1/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (column 'wordBookID') (id \"w0\")"),
            Found("data/words.csv", 4, 4, "dangling-reference", "/words/2/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (column 'wordBookID') (id \"w2\")"),
            Found("data/words.csv", 5, 4, "dangling-reference", "/words/3/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (column 'wordBookID') (id \"w3\")"),
        ],
        "vocabulary json": [
            Found("data.json", 25, 13, "duplicate-id", "/words/1/id",
                "duplicate id \"w0\" in words: first at line 13 (/words/0)"),
            Found("data.json", 14, 21, "dangling-reference", "/words/0/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w0\")"),
            Found("data.json", 26, 21, "dangling-reference", "/words/1/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w0\")"),
            Found("data.json", 38, 21, "dangling-reference", "/words/2/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w2\")"),
            Found("data.json", 50, 21, "dangling-reference", "/words/3/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w3\")"),
        ],
        "vocabulary jsonl": [
            Found("data.jsonl", 4, 29, "duplicate-id", "/words/1/id",
                "duplicate id \"w0\" in words: first at line 3 (/words/0)"),
            Found("data.jsonl", 3, 47, "dangling-reference", "/words/0/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w0\")"),
            Found("data.jsonl", 4, 47, "dangling-reference", "/words/1/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w0\")"),
            Found("data.jsonl", 5, 47, "dangling-reference", "/words/2/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w2\")"),
            Found("data.jsonl", 6, 47, "dangling-reference", "/words/3/wordBookID",
                "wordBookID \"b0\" names no word book of the dataset (id \"w3\")"),
        ],
    ]
}
