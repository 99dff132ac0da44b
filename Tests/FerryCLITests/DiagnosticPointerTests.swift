import FerryTestSupport
import Foundation
import Testing

/// Every diagnostic about a record names it in text output: the field's JSON Pointer from the
/// dataset root after the severity, and the record's id after the message, for every cell of the
/// matrix (three domains, V1 and V2, JSON, JSON Lines, a CSV folder, XML and a folder bundle).
@Suite struct DiagnosticPointerTests {
    struct Cell: Sendable, CustomStringConvertible {
        var domain: String
        var version: Int
        var format: String
        var description: String { "\(domain) v\(version) \(format)" }
    }

    static let formats = ["json", "jsonl", "csv", "xml", "bundle"]
    static let cells: [Cell] = ["notes", "pet-story", "vocabulary"].flatMap { domain in
        [1, 2].flatMap { version in formats.map { Cell(domain: domain, version: version, format: $0) } }
    }

    /// The V1 sample of each domain, with one record's instant set to 2031-07-07T07:07:07Z (a
    /// text found once in every format the dataset is written in).
    static func v1Sample(_ domain: String) throws -> String {
        switch domain {
        case "notes":
            return try String(contentsOf: Fixtures.sample("notes-v1.json"), encoding: .utf8)
                .replacingOccurrences(of: "2024-06-12T20:15:30.250+09:00", with: "2031-07-07T07:07:07Z")
        case "pet-story":
            return try String(contentsOf: Fixtures.sample("pet-story-v1.json"), encoding: .utf8)
                .replacingOccurrences(of: "2024-02-02T14:30:00Z", with: "2031-07-07T07:07:07Z")
        default:
            // A Firestore timestamp: 1941174427 s is 2031-07-07T07:07:07Z.
            return try String(contentsOf: Fixtures.sample("vocabulary-v1-backup-restore.json"), encoding: .utf8)
                .replacingOccurrences(of: "1690000300", with: "1941174427")
        }
    }

    /// The text that breaks the record in every format: second 77, or (vocabulary V1, whose
    /// timestamps are numbers) nanoseconds past 999999999.
    static func breakage(_ cell: Cell) -> (valid: String, broken: String) {
        cell.domain == "vocabulary" && cell.version == 1
            ? ("250000000", "2500000000") : ("2031-07-07T07:07:07", "2031-07-07T07:07:77")
    }

    /// The one error line `ferry validate` prints for the broken record of each cell (the bundle
    /// also says its edited member no longer matches the manifest, which this test ignores).
    static let expected: [String: String] = [
        "notes v1 json": #"in.json:36:20: error: /wineNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v1 jsonl": #"in.jsonl:3:91: error: /wineNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v1 csv": #"in/wineNotes.csv:3:22: error: /wineNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (column 'createdAt') (id "w-002") [invalid-value]"#,
        "notes v1 xml": #"in.xml:35:7: error: /wineNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v1 bundle": #"in:data/wineNotes.json:36:20: error: /wineNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v2 json": #"in.json:45:20: error: /wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v2 jsonl": #"in.jsonl:3:98: error: /wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v2 csv": #"in/wineTastingNotes.csv:3:22: error: /wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (column 'createdAt') (id "w-002") [invalid-value]"#,
        "notes v2 xml": #"in.xml:44:7: error: /wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "notes v2 bundle": #"in:data/wineTastingNotes.json:45:20: error: /wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002") [invalid-value]"#,
        "pet-story v1 json": #"in.json:53:20: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v1 jsonl": #"in.jsonl:6:67: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v1 csv": #"in/stories.csv:3:11: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (column 'createdAt') (id "s2") [invalid-value]"#,
        "pet-story v1 xml": #"in.xml:52:7: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v1 bundle": #"in:data/stories.json:23:20: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v2 json": #"in.json:63:20: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v2 jsonl": #"in.jsonl:6:67: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v2 csv": #"in/stories.csv:3:11: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (column 'createdAt') (id "s2") [invalid-value]"#,
        "pet-story v2 xml": #"in.xml:62:7: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "pet-story v2 bundle": #"in:data/stories.json:33:20: error: /stories/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "s2") [invalid-value]"#,
        "vocabulary v1 json": #"in.json:27:25: error: /words/0/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "k-yama") [out-of-range]"#,
        "vocabulary v1 jsonl": #"in.jsonl:3:241: error: /words/0/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "k-yama") [out-of-range]"#,
        "vocabulary v1 csv": #"in/words.csv:2:52: error: /words/0/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (column 'timestamp._nanoseconds') (id "k-yama") [out-of-range]"#,
        "vocabulary v1 xml": #"in.xml:26:9: error: /words/0/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "k-yama") [out-of-range]"#,
        "vocabulary v1 bundle": #"in:data/words.json:17:25: error: /words/0/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "k-yama") [out-of-range]"#,
        "vocabulary v2 json": #"in.json:22:20: error: /words/0/timestamp: timestamp "2031-07-07T07:07:77.250Z" names a date or time that does not exist (id "k-yama") [invalid-value]"#,
        "vocabulary v2 jsonl": #"in.jsonl:3:211: error: /words/0/timestamp: timestamp "2031-07-07T07:07:77.250Z" names a date or time that does not exist (id "k-yama") [invalid-value]"#,
        "vocabulary v2 csv": #"in/words.csv:2:47: error: /words/0/timestamp: timestamp "2031-07-07T07:07:77.250Z" names a date or time that does not exist (column 'timestamp') (id "k-yama") [invalid-value]"#,
        "vocabulary v2 xml": #"in.xml:21:7: error: /words/0/timestamp: timestamp "2031-07-07T07:07:77.250Z" names a date or time that does not exist (id "k-yama") [invalid-value]"#,
        "vocabulary v2 bundle": #"in:data/words.json:15:20: error: /words/0/timestamp: timestamp "2031-07-07T07:07:77.250Z" names a date or time that does not exist (id "k-yama") [invalid-value]"#,
    ]

    /// Writes the cell's valid dataset with ferry itself (migrated for V2, converted to the
    /// format), breaks the one record in the written text, and returns the input's name.
    static func brokenInput(_ cell: Cell, in box: Sandbox) throws -> String {
        try box.write("v1.json", try v1Sample(cell.domain))
        var source = "v1.json"
        if cell.version == 2 {
            #expect(try box.ferry(["migrate", "v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
            source = "v2.json"
        }
        let input: String
        let edited: [String]
        switch cell.format {
        case "json":
            input = "in.json"
            #expect(try box.ferry(["convert", source, "-o", input]).status == 0)
            edited = [input]
        case "csv":
            input = "in"
            #expect(try box.ferry(["convert", source, "--to", "csv", "-o", "in/"]).status == 0)
            edited = try box.list("in").map { "in/" + $0 }
        case "bundle":
            input = "in"
            // Straight from the lone JSON: a V1 pet-story bundle holds no media then, which every
            // command reading it (convert too) reports as missing-media.
            #expect(try box.ferry(["convert", source, "--to", "tar", "-o", "in/"]).status == 0)
            edited = try box.files(under: "in/data").filter { !$0.hasPrefix("media/") }.map { "in/data/" + $0 }
        default:
            input = "in." + cell.format
            #expect(try box.ferry(["convert", source, "-o", input]).status == 0)
            edited = [input]
        }
        let (valid, broken) = breakage(cell)
        var found = 0
        for name in edited {
            let text = try box.text(name)
            guard text.contains(valid) else { continue }
            found += 1
            try box.write(name, text.replacingOccurrences(of: valid, with: broken))
        }
        #expect(found == 1, "the record to break is in exactly one file")
        return input
    }

    @Test(arguments: cells)
    func recordDiagnosticNamesPointerAndID(_ cell: Cell) throws {
        let box = try Sandbox()
        let input = try Self.brokenInput(cell, in: box)
        // One job and two give the same line.
        for options in [[], ["--jobs", "2"]] {
            let run = try box.ferry(["validate", input] + options)
            #expect(run.status == 1, "\(options)")
            // A V1 pet-story bundle made from the lone JSON holds no media: V1 validation applies the
            // migration's media check too (missing-media), which is not this test's point.
            #expect(run.errors.filter { !$0.hasSuffix("[checksum-mismatch]") && !$0.hasSuffix("[missing-media]") }
                    == [Self.expected[cell.description] ?? "?"],
                    "\(options)")
        }
    }

    /// A Firestore export names the document inside its raw record: the pointer runs through the
    /// sub-collection and the id is the document's key, not its parent word book's.
    @Test func firestoreDocumentNamesItself() throws {
        let box = try Sandbox()
        try box.write("v1.json", try Self.v1Sample("vocabulary").replacingOccurrences(of: "250000000", with: "2500000000"))
        let run = try box.ferry(["validate", "v1.json"])
        #expect(run.status == 1)
        #expect(run.errors == [
            #"v1.json:21:31: error: /wordBooks/kanji-1/subCollection/wordBooks~1kanji-1~1words/k-yama/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "k-yama") [out-of-range]"#,
        ])
    }

    /// The GitHub and JUnit reports carry the pointer and the id as the text line does.
    @Test func reportsCarryThePointer() throws {
        let box = try Sandbox()
        let input = try Self.brokenInput(Cell(domain: "notes", version: 2, format: "jsonl"), in: box)
        let github = try box.ferry(["validate", input, "--report", "github", "--quiet"])
        #expect(github.stdout == #"::error file=in.jsonl,line=3,col=98,title=invalid-value::/wineTastingNotes/1/createdAt: createdAt "2031-07-07T07:07:77Z" names a date or time that does not exist (id "w-002")"# + "\n")
        let junit = try box.ferry(["validate", input, "--report", "junit", "--quiet"])
        #expect(junit.stdout.contains(#"in.jsonl:3:98: error: /wineTastingNotes/1/createdAt: createdAt &quot;2031-07-07T07:07:77Z&quot; names a date or time that does not exist (id &quot;w-002&quot;) [invalid-value]</failure>"#))
        let json = try box.ferry(["validate", input, "--report", "json", "--quiet"])
        #expect(json.stdout.contains(#""location": {"file": "in.jsonl", "line": 3, "column": 98, "collection": "wineTastingNotes", "record": 1, "field": "/wineTastingNotes/1/createdAt", "id": "w-002"}"#))
    }
}
