import FerryTestSupport
import Foundation
import Testing

/// `ferry diff OLD NEW`: a V1 export against an edited V2 bundle (and reversed, and as a JSON
/// Patch that applies), the same small edit found in every domain and format, schema-free
/// pairing, `--ignore`, `--where`, and the usage errors.
@Suite struct DiffCLITests {
    static let oldPhoto = "9b069561a6e1"  // SHA-256 of Samples/pet-story-v1-documents/Stories/s1/photo1.jpg
    static let newPhoto = "8e53d4d0db5c"  // SHA-256 of "replaced photo bytes\n"
    static let bath = "b880a3c66844"  // SHA-256 of Stories/s2/bath1.png

    /// `docs`: the sample Documents folder (V1 JSON export and media); `new.tar`: a V2 bundle of
    /// the same data with three records edited, one photo replaced and one story (with its
    /// photo) removed.
    func petsPair() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        try box.copySample("pet-story-v1-documents", to: "edited")
        var json = try box.text("edited/pet-story.json")
        for (from, to) in [
            ("\"name\": \"하나네 가족\"", "\"name\": \"Hana's family\""),
            ("\"bio\": \"セキセイインコ\"", "\"bio\": \"セキセイインコ (budgie)\""),
            ("\"caption\": \"First snow walk ❄️\"", "\"caption\": \"First snow walk in Tokyo ❄️\""),
        ] {
            #expect(json.contains(from))
            json = json.replacingOccurrences(of: from, with: to)
        }
        let s2 = try #require(json.range(of: ",\n    {\n      \"id\": \"s2\""))
        let end = try #require(json.range(of: "\n    }", range: s2.upperBound..<json.endIndex))
        json.removeSubrange(s2.lowerBound..<end.upperBound)
        try box.write("edited/pet-story.json", json)
        try box.remove("edited/Stories/s2")
        try box.write("edited/Stories/s1/photo1.jpg", "replaced photo bytes\n")
        let convert = try box.ferry(["convert", "edited", "--to-version", "2", "-o", "new.tar", "--quiet"])
        #expect(convert.status == 0, "\(convert.stderr)")
        return box
    }

    @Test func v1ExportAgainstEditedV2BundleShowsExactlyTheEdits() throws {
        let box = try petsPair()
        let run = try box.ferry(["diff", "docs", "new.tar"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            --- docs (app Documents folder, pet-story v1 -> v2)
            +++ new.tar (tar, pet-story v2)
            profiles
            ~ /profiles/0 p1
                /name: "하나네 가족" -> "Hana's family"
            members
            ~ /members/1 m2
                /bio: "セキセイインコ" -> "セキセイインコ (budgie)"
            stories
            - /stories/1 s2
            ~ /stories/0 s1
                /caption: "First snow walk ❄️" -> "First snow walk in Tokyo ❄️"
            media
            ~ media/Stories/s1/photo1.jpg sha256 \(Self.oldPhoto) -> \(Self.newPhoto)
            - media/Stories/s2/bath1.png sha256 \(Self.bath)
            records: 3 changed, 1 removed; media: 1 changed, 1 removed

            """)
    }

    @Test func reversedInputsShowTheOppositeEdits() throws {
        let box = try petsPair()
        let run = try box.ferry(["diff", "new.tar", "docs"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            --- new.tar (tar, pet-story v2)
            +++ docs (app Documents folder, pet-story v1 -> v2)
            profiles
            ~ /profiles/0 p1
                /name: "Hana's family" -> "하나네 가족"
            members
            ~ /members/1 m2
                /bio: "セキセイインコ (budgie)" -> "セキセイインコ"
            stories
            ~ /stories/0 s1
                /caption: "First snow walk in Tokyo ❄️" -> "First snow walk ❄️"
            + /stories/1 s2
            media
            ~ media/Stories/s1/photo1.jpg sha256 \(Self.newPhoto) -> \(Self.oldPhoto)
            + media/Stories/s2/bath1.png sha256 \(Self.bath)
            records: 3 changed, 1 added; media: 1 changed, 1 added

            """)
    }

    @Test func sameDataInAnotherFormatAndVersionIsNoDifference() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        #expect(try box.ferry(["convert", "docs", "--to-version", "2", "-o", "pets.tar", "--quiet"]).status == 0)
        let run = try box.ferry(["diff", "docs", "pets.tar"])
        #expect(run.status == 0)
        #expect(run.stdout == "--- docs (app Documents folder, pet-story v1 -> v2)\n+++ pets.tar (tar, pet-story v2)\nno differences\n")
    }

    @Test func jsonPatchTurnsOldCanonicalJSONIntoNew() throws {
        let box = try petsPair()
        let run = try box.ferry(["diff", "docs", "new.tar", "--as", "json-patch"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            [
              {"op": "replace", "path": "/profiles/0/name", "value": "Hana's family"},
              {"op": "replace", "path": "/members/1/bio", "value": "セキセイインコ (budgie)"},
              {"op": "remove", "path": "/stories/1"},
              {"op": "replace", "path": "/stories/0/caption", "value": "First snow walk in Tokyo ❄️"}
            ]

            """)
        try box.write("patch.json", run.stdout)
        #expect(try box.ferry(["convert", "docs", "--to-version", "2", "--to", "json", "-o", "old.json", "--quiet"]).status == 0)
        #expect(try box.ferry(["convert", "new.tar", "--to", "json", "-o", "new.json", "--quiet"]).status == 0)
        try expectPatchApplies(in: box, old: "old.json", patch: "patch.json", new: "new.json")
        // And back: the reversed patch turns NEW into OLD.
        let back = try box.ferry(["diff", "new.tar", "docs", "--as", "json-patch"])
        try box.write("back.json", back.stdout)
        try expectPatchApplies(in: box, old: "new.json", patch: "back.json", new: "old.json")
    }

    @Test func jsonReportNamesEveryChange() throws {
        let box = try petsPair()
        let run = try box.ferry(["diff", "docs", "new.tar", "--report", "json"])
        #expect(run.status == 1)
        expectGolden(run.stdout, "diff-pets.report.json")
        #expect(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) is [String: Any])
    }

    /// Notes images are `imageData` fields: inline base64 in a lone JSON file, media files in a
    /// bundle. Compared as files by SHA-256 either way: a changed image is a changed file, and a
    /// note whose id changed moves its image (renamed). The lossy step of migrating OLD is
    /// reported as a warning, as `ferry migrate` reports it.
    @Test func notesImagesAreComparedAsMediaFiles() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "sample.json")
        #expect(try box.ferry(["convert", "sample.json", "--to-version", "2", "-o", "v2.jsonl", "--quiet"]).status == 0)
        let edited = try box.text("v2.jsonl").replacingOccurrences(of: "\"id\":\"w-001\"", with: "\"id\":\"w-101\"")
            .replacingOccurrences(of: "IwbiOAAogwtB4", with: "IwbiOAAogwtB5")  // one pixel of c-001's PNG
        try box.write("edited.jsonl", edited)
        #expect(try box.ferry(["convert", "edited.jsonl", "-o", "new.tar", "--quiet"]).status == 0)
        let run = try box.ferry(["diff", "sample.json", "new.tar"])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            "sample.json:126:15: warning: /coffeeNotes/1/look: look \"thick crema, hazel\" has no place in CoffeeTastingNote; dropped (id \"c-002\") [lossy-drop]",
        ])
        // Digests of the decoded images (python3: hashlib.sha256(base64.b64decode(...))).
        #expect(run.stdout == """
            --- sample.json (json, notes v1 -> v2)
            +++ new.tar (tar, notes v2)
            wineTastingNotes
            - /wineTastingNotes/0 w-001
            + /wineTastingNotes/0 w-101
            media
            ~ media/notes/coffeeTastingNotes/c-001.png sha256 c8930f8c1ee1 -> 8011c7287dc5
            ~ media/notes/wineTastingNotes/w-101.png renamed from media/notes/wineTastingNotes/w-001.png (sha256 8753fcd566ca)
            records: 1 added, 1 removed; media: 1 changed, 1 renamed

            """)
        // In the canonical JSON the image is base64 text: its change is a replace of the field.
        let patch = try box.ferry(["diff", "sample.json", "new.tar", "--as", "json-patch", "--quiet"])
        #expect(patch.stdout.contains("{\"op\": \"replace\", \"path\": \"/coffeeTastingNotes/0/imageData\", \"value\": \"iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mOIspGDIwbiOAAogwtB5yFnFAAAAABJRU5ErkJggg==\"}"))
        try box.write("patch.json", patch.stdout)
        #expect(try box.ferry(["convert", "sample.json", "--to-version", "2", "--to", "json", "-o", "old.json", "--quiet"]).status == 0)
        #expect(try box.ferry(["convert", "new.tar", "--to", "json", "-o", "new.json", "--quiet"]).status == 0)
        try expectPatchApplies(in: box, old: "old.json", patch: "patch.json", new: "new.json")
    }

    /// One cell per domain and format: OLD is the V1 sample written in the format, NEW the same
    /// data migrated to V2 with one field edited and one record removed, in the same format.
    struct Cell: CustomTestStringConvertible, Sendable {
        var sample: String
        /// A text of the sample and what it becomes before anything is converted.
        var prepare: (from: String, to: String)?
        var format: String
        /// A text in one record's JSON Lines line, and what it becomes.
        var edit: (from: String, to: String)
        /// A text of the one line removed.
        var removed: String
        /// The diff's lines between the headers and the counts.
        var expected: [String]
        var domain: String
        var testDescription: String { "\(domain) \(format)" }
    }

    /// The pet-story sample names story media that a lone JSON file does not hold: a bundle
    /// written from it would lack them (`missing-media`), so the stories name none here.
    static let petStoryWithoutMedia = ("\"mediaContentIds\": [\n        \"photo1\",\n        \"clip1\"\n      ]", "\"mediaContentIds\": []")

    static let domainEdits: [(sample: String, prepare: (String, String)?, domain: String, edit: (String, String), removed: String, expected: [String])] = [
        ("notes-v1.json", nil, "notes", ("\"title\":\"Pinot Noir Willamette 2019\"", "\"title\":\"Pinot Noir Willamette 2020\""), "\"id\":\"c-002\"", [
            "wineTastingNotes", "~ /wineTastingNotes/0 w-001", "    /title: \"Pinot Noir Willamette 2019\" -> \"Pinot Noir Willamette 2020\"",
            "coffeeTastingNotes", "- /coffeeTastingNotes/1 c-002",
        ]),
        ("pet-story-v1.json", petStoryWithoutMedia, "pet-story", ("\"bio\":\"セキセイインコ\"", "\"bio\":\"セキセイインコ (budgie)\""), "\"id\":\"s2\"", [
            "members", "~ /members/1 m2", "    /bio: \"セキセイインコ\" -> \"セキセイインコ (budgie)\"",
            "stories", "- /stories/1 s2",
        ]),
        ("vocabulary-v1-node-firestore.json", nil, "vocabulary", ("\"meaningText\":\"to eat\"", "\"meaningText\":\"to eat (a meal)\""), "\"id\":\"w-hon\"", [
            "words", "- /words/2 w-hon", "~ /words/0 w-taberu", "    /meaningText: \"to eat\" -> \"to eat (a meal)\"",
        ]),
    ]

    static let cells: [Cell] = domainEdits.flatMap { domain in
        ["json", "jsonl", "csv", "xml", "tar"].map { format in
            Cell(sample: domain.sample, prepare: domain.prepare, format: format, edit: domain.edit, removed: domain.removed, expected: domain.expected, domain: domain.domain)
        }
    }

    @Test(arguments: cells) func oneEditAndOneRemovalInEveryDomainAndFormat(_ cell: Cell) throws {
        let box = try Sandbox()
        try box.copySample(cell.sample, to: "sample.json")
        if let prepare = cell.prepare {
            let text = try box.text("sample.json")
            #expect(text.contains(prepare.from))
            try box.write("sample.json", text.replacingOccurrences(of: prepare.from, with: prepare.to))
        }
        // CSV holds one collection a file: a folder of them (`-o old/`), as Ferry writes it.
        let old = cell.format == "csv" ? "old" : "old." + cell.format
        let new = cell.format == "csv" ? "new" : "new." + cell.format
        let out = { (name: String) in cell.format == "csv" ? [name + "/", "--to", "csv"] : [name] }
        let quiet = ["--quiet"]
        #expect(try box.ferry(["convert", "sample.json", "-o"] + out(old) + quiet).status == 0)
        #expect(try box.ferry(["convert", "sample.json", "--to-version", "2", "-o", "v2.jsonl"] + quiet).status == 0)
        var lines = try box.text("v2.jsonl").split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(cell.edit.from) }, "no line holds \(cell.edit.from)")
        #expect(lines.contains { $0.contains(cell.removed) }, "no line holds \(cell.removed)")
        lines = lines.filter { !$0.contains(cell.removed) }.map { $0.replacingOccurrences(of: cell.edit.from, with: cell.edit.to) }
        try box.write("edited.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(try box.ferry(["convert", "edited.jsonl", "-o"] + out(new) + quiet).status == 0)
        let run = try box.ferry(["diff", old, new, "--quiet"])
        #expect(run.status == 1, "\(run.stderr)")
        let header = ["--- \(old) (\(cell.format), \(cell.domain) v1 -> v2)", "+++ \(new) (\(cell.format), \(cell.domain) v2)"]
        let counts = "records: 1 changed, 1 removed"
        #expect(run.stdout == (header + cell.expected + [counts]).joined(separator: "\n") + "\n")
        // The patch of the same two inputs turns OLD's canonical JSON into NEW's.
        let patch = try box.ferry(["diff", old, new, "--as", "json-patch", "--quiet"])
        #expect(patch.status == 1)
        try box.write("patch.json", patch.stdout)
        #expect(try box.ferry(["convert", old, "--to-version", "2", "--to", "json", "-o", "old-v2.json"] + quiet).status == 0)
        #expect(try box.ferry(["convert", new, "--to", "json", "-o", "new-v2.json"] + quiet).status == 0)
        try expectPatchApplies(in: box, old: "old-v2.json", patch: "patch.json", new: "new-v2.json")
    }

    @Test func ignoreAndWhereNarrowTheComparison() throws {
        let box = try Sandbox()
        try box.write("old.jsonl", """
            {"domain":"vocabulary","schemaVersion":2}
            {"$collection":"wordBooks","id":"b1","title":"N5","createdAt":"2024-01-01T00:00:00Z"}
            {"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"to eat","meaningImageURL":"","ganaText":"たべる","ganaImageURL":"","kanjiText":"食べる","kanjiImageURL":"","studyState":"undefined","timestamp":"2024-01-01T00:00:00Z"}
            {"$collection":"words","id":"w2","wordBookID":"b1","meaningText":"to drink","meaningImageURL":"","ganaText":"のむ","ganaImageURL":"","kanjiText":"飲む","kanjiImageURL":"","studyState":"undefined","timestamp":"2024-01-01T00:00:00Z"}

            """)
        let new = try box.text("old.jsonl").replacingOccurrences(of: "\"studyState\":\"undefined\"", with: "\"studyState\":\"success\"")
            .replacingOccurrences(of: "\"meaningText\":\"to drink\"", with: "\"meaningText\":\"to drink (water)\"")
        try box.write("new.jsonl", new)
        let all = try box.ferry(["diff", "old.jsonl", "new.jsonl"])
        #expect(all.status == 1)
        #expect(all.stdout.hasSuffix("records: 2 changed\n"))
        let ignored = try box.ferry(["diff", "old.jsonl", "new.jsonl", "--ignore", "/words/*/studyState"])
        #expect(ignored.status == 1)
        #expect(ignored.stdout == """
            --- old.jsonl (jsonl, vocabulary v2)
            +++ new.jsonl (jsonl, vocabulary v2)
            words
            ~ /words/1 w2
                /meaningText: "to drink" -> "to drink (water)"
            records: 1 changed

            """)
        let both = try box.ferry(["diff", "old.jsonl", "new.jsonl", "--ignore", "/words/*/studyState", "--ignore", "/words/w2/meaningText"])
        #expect(both.status == 0)
        #expect(both.stdout.hasSuffix("\nno differences\n"))
        let narrowed = try box.ferry(["diff", "old.jsonl", "new.jsonl", "--where", "words: ganaText == 'たべる'"])
        #expect(narrowed.status == 1)
        #expect(narrowed.stdout.hasSuffix("words\n~ /words/0 w1\n    /studyState: \"undefined\" -> \"success\"\nrecords: 1 changed\n"))
    }

    @Test func schemaFreeRecordsPairByIDElseByPosition() throws {
        let box = try Sandbox()
        try box.write("a.json", #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]"#)
        try box.write("b.json", #"[{"id": 3, "name": "c"}, {"id": 1, "name": "A"}, {"id": 4, "name": "d", "tags": ["x"]}]"#)
        let byID = try box.ferry(["diff", "a.json", "b.json"])
        #expect(byID.status == 1)
        #expect(byID.stdout == """
            --- a.json (json, schema-free)
            +++ b.json (json, schema-free)
            records
            - /1 2
            ~ /1 1 (was /0)
                /name: "a" -> "A"
            + /2 4
            records: 1 changed, 1 added, 1 removed

            """)
        // The patch moves record 1 behind record 3, as b.json has them.
        let patch = try box.ferry(["diff", "a.json", "b.json", "--as", "json-patch"])
        try box.write("patch.json", patch.stdout)
        try expectPatchApplies(in: box, old: "a.json", patch: "patch.json", new: "b.json")

        try box.write("c.json", #"[{"name": "a"}, {"name": "b"}]"#)
        try box.write("d.json", #"[{"name": "a"}, {"name": "B"}, {"name": "c"}]"#)
        let byPosition = try box.ferry(["diff", "c.json", "d.json"])
        #expect(byPosition.status == 1)
        #expect(byPosition.stdout == """
            --- c.json (json, schema-free)
            +++ d.json (json, schema-free)
            records (by position)
            ~ /1
                /name: "b" -> "B"
            + /2
            records: 1 changed, 1 added

            """)
    }

    /// A V1 collection where one record has no id (V1 ids are optional) still pairs by id: a
    /// record inserted first is one addition, not every record changed by position.
    @Test func recordsWithoutAnIDDoNotTurnTheCollectionToPositions() throws {
        let box = try Sandbox()
        try box.write("a.json", #"[{"id": "x", "n": 1}, {"n": 2}, {"id": "y", "n": 3}]"#)
        try box.write("b.json", #"[{"id": "new", "n": 0}, {"id": "x", "n": 1}, {"n": 2}, {"id": "y", "n": 4}]"#)
        let run = try box.ferry(["diff", "a.json", "b.json"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            --- a.json (json, schema-free)
            +++ b.json (json, schema-free)
            records
            + /0 new
            ~ /3 y (was /2)
                /n: 3 -> 4
            records: 1 changed, 1 added

            """)
        try box.copySample("notes-v1.json", to: "notes.json")
        let notes = try box.ferry(["diff", "notes.json", "notes.json"])
        #expect(notes.status == 0)
    }

    @Test func usageAndInputErrorsKeepTheirExitCodes() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "notes.json")
        try box.copySample("pet-story-v1.json", to: "pets.json")
        let domains = try box.ferry(["diff", "notes.json", "pets.json"])
        #expect(domains.status == 4)
        #expect(domains.stderrLines == ["pets.json: error: OLD is notes data and NEW is pet-story data: datasets of two domains cannot be compared [unknown-domain]"])
        let missing = try box.ferry(["diff", "notes.json", "nothing.json"])
        #expect(missing.status == 3)
        #expect(missing.stderrLines == ["nothing.json: error: no such file or folder [unreadable-input]"])
        try box.write("broken.json", "{\"domain\": \"notes\", \"schemaVersion\": 1, \"wineNotes\": [\n  {\"id\": }\n]}\n")
        let broken = try box.ferry(["diff", "notes.json", "broken.json"])
        #expect(broken.status == 3)
        #expect(broken.stdout == "")
        let both = try box.ferry(["diff", "--report", "json", "--as", "json-patch", "notes.json", "pets.json"])
        #expect(both.status == 2)
        #expect(both.stderrLines.first == "ferry diff: error: --report and --as exclude each other: a patch is the whole output")
        let one = try box.ferry(["diff", "notes.json"])
        #expect(one.status == 2)
    }

    /// A side that cannot be compared (invalid records, a syntax error) stops the diff with its
    /// own exit status, and a line says that nothing was compared, whichever side it is.
    @Test(arguments: [true, false])
    func aSideThatCannotBeComparedIsSaidSo(badIsOld: Bool) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "notes.json")
        var text = try box.text("notes.json")
        text.replaceSubrange(try #require(text.range(of: "\"rating\": 4.5,")), with: "\"rating\": \"high\",")
        try box.write("bad.json", text)
        try box.write("broken.json", "{\"domain\": \"notes\", \"schemaVersion\": 1, \"wineNotes\": [\n  {\"id\": }\n]}\n")
        for (side, status, lines) in [
            ("bad.json", Int32(1), [
                "bad.json:29:17: error: /wineNotes/0/rating: rating: expected a number, found \"high\" (id \"w-001\") [type-error]",
                "ferry diff: not compared: 'bad.json' holds invalid records (above); --lenient compares the valid ones",
            ]),
            ("broken.json", Int32(3), [
                "broken.json:2:10: error: expected a value, found '}' [malformed-json]",
                "ferry diff: not compared: 'broken.json' could not be read (above)",
            ]),
        ] {
            let run = try box.ferry(["diff"] + (badIsOld ? [side, "notes.json"] : ["notes.json", side]))
            #expect(run.status == status, "\(side)")
            #expect(run.stdout == "")
            #expect(run.stderrLines == lines)
            // `--quiet` keeps the errors only.
            #expect(try box.ferry(["diff", "-q"] + (badIsOld ? [side, "notes.json"] : ["notes.json", side])).stderrLines == Array(lines.prefix(1)))
        }
    }

    /// A JSON Patch holds records only: a side with media files that are not record fields (a
    /// story's photos) gets a line saying a changed file is not in the patch; notes images,
    /// base64 fields in the canonical JSON, are in it, and get none.
    @Test func aJSONPatchSaysWhenMediaFilesAreLeftOut() throws {
        let box = try petsPair()
        let run = try box.ferry(["diff", "docs", "new.tar", "--as", "json-patch"])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            "ferry diff: 'docs' holds media files: the patch has the fields that name them, not the files (a file changed under the same name is not in it); --report json compares them by SHA-256",
        ])
        let report = try box.ferry(["diff", "docs", "new.tar", "--report", "json"])
        #expect(report.stderr == "")
        try box.copySample("notes-v1.json", to: "notes.json")
        #expect(try box.ferry(["convert", "notes.json", "-o", "notes.tar", "--quiet"]).status == 0)
        let notes = try box.ferry(["diff", "notes.json", "notes.tar", "--as", "json-patch"])
        #expect(notes.status == 0)
        #expect(notes.stderr == "")
    }

    @Test func standardInputIsOneSide() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "notes.json")
        let run = try box.ferry(["diff", "-", "notes.json"], stdinFile: "notes.json")
        #expect(run.status == 0)
        #expect(run.stdout == "--- - (json, notes v1)\n+++ notes.json (json, notes v1)\nno differences\n")
    }

    /// Applies the RFC 6902 patch `patch` to `old` with python3's json module and expects the
    /// result to equal `new` (as JSON values); skips with a message without python3.
    private func expectPatchApplies(in box: Sandbox, old: String, patch: String, new: String,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    {
        let script = """
            import json, sys
            def parent(doc, path):
                tokens = [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]
                for t in tokens[:-1]:
                    doc = doc[int(t)] if isinstance(doc, list) else doc[t]
                return doc, tokens[-1]
            def take(doc, path):
                p, t = parent(doc, path)
                return p.pop(int(t)) if isinstance(p, list) else p.pop(t)
            def put(doc, path, value, replace=False):
                p, t = parent(doc, path)
                if isinstance(p, list):
                    i = len(p) if t == "-" else int(t)
                    assert 0 <= i <= len(p), path
                    if replace: p[i] = value
                    else: p.insert(i, value)
                else:
                    assert (t in p) == replace, path
                    p[t] = value
            doc = json.load(open(sys.argv[1]))
            for op in json.load(open(sys.argv[2])):
                if op["op"] == "add": put(doc, op["path"], op["value"])
                elif op["op"] == "remove": take(doc, op["path"])
                elif op["op"] == "replace": put(doc, op["path"], op["value"], replace=True)
                elif op["op"] == "move": put(doc, op["path"], take(doc, op["from"]))
                else: raise SystemExit("unknown op " + op["op"])
            new = json.load(open(sys.argv[3]))
            if doc != new:
                print(json.dumps(doc, ensure_ascii=False, indent=1)); raise SystemExit(1)
            """
        try box.write("apply_patch.py", script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "apply_patch.py", old, patch, new]
        process.currentDirectoryURL = box.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch {
            print("skipped: python3 is needed to apply the JSON Patch")
            return
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            print("skipped: python3 is needed to apply the JSON Patch")
            return
        }
        #expect(process.terminationStatus == 0, "the patch did not turn \(old) into \(new): \(printed)", sourceLocation: sourceLocation)
    }
}
