import FerryTestSupport
import Foundation
import Testing

/// Issue 2, "Done when": migrate, validate, inspect, JSON <-> JSON Lines and the command line's
/// rules (`-o`, versions, stdin, help, unknown options, atomic outputs), run through the binary.
@Suite struct MigrateCLITests {
    static let notesSummaryV2 =
        "notes v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1"

    @Test func notesSampleMigratesValidatesAndIsReproducible() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "out.json"])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderrLines == [
            #"notes-v1.json:126:15: warning: /coffeeNotes/1/look: look "thick crema, hazel" has no place in CoffeeTastingNote; dropped (id "c-002") [lossy-drop]"#,
            "notes-v1.json: notes v1 -> v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 1 warning) -> out.json",
        ])
        let first = try box.text("out.json")
        expectGolden(first, "notes-v2.json")
        // The id-less note's derived id: UUID v5 (URL namespace) of
        // "ferry:wineNotes/2/2023-08-20T18:00:00Z/Grüner Veltliner Kamptal", checked with Python's uuid.uuid5.
        #expect(first.contains(#""id": "bb579642-37fb-5451-ba31-77c4d3a8c3e8",\#n      "title": "Grüner Veltliner Kamptal","#))

        let validate = try box.ferry(["validate", "out.json"])
        #expect(validate.status == 0)
        #expect(validate.stderrLines == ["out.json: \(Self.notesSummaryV2) (8 records, 0 errors, 0 warnings); valid"])

        let again = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "again.json"])
        #expect(again.status == 0)
        #expect(try box.bytes("again.json") == Array(first.utf8))
        #expect(try box.list() == ["again.json", "notes-v1.json", "out.json"])
    }

    @Test func dryRunWritesNothing() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "--dry-run"])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderrLines.last == "notes-v1.json: notes v1 -> v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 1 warning); dry run, nothing written")
        #expect(try box.list() == ["notes-v1.json"])
    }

    @Test(arguments: [
        ("vocabulary-v1-node-firestore.json", "vocabulary-node-firestore-v2.json", "wordBooks 2, words 4 (6 records"),
        ("vocabulary-v1-backup-restore.json", "vocabulary-backup-restore-v2.json", "wordBooks 1, words 2 (3 records"),
    ])
    func firestoreShapedSamplesMigrate(sample: String, golden: String, counts: String) throws {
        let box = try Sandbox()
        try box.copySample(sample)
        let run = try box.ferry(["migrate", sample, "--to-version", "2", "-o", "v2.json"])
        #expect(run.status == 0)
        #expect(run.stderrLines == ["\(sample): vocabulary v1 -> v2: \(counts), 0 errors, 0 warnings) -> v2.json"])
        expectGolden(try box.text("v2.json"), golden)
        #expect(try box.ferry(["validate", "v2.json"]).status == 0)
    }

    /// An export laid out like node-firestore-import-export, not one of the samples: a root
    /// `__collections__`, books keyed by document id, words in the book's `__collections__`, and
    /// three Timestamp forms. Ids come from keys, wordBookID from the parent, dates in RFC 3339.
    @Test func generatedNodeFirestoreExportMigrates() throws {
        let box = try Sandbox()
        try box.write("export.json", """
            {"__collections__": {"wordBooks": {
              "kb-1": {"title": "漢字テスト", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1609459200, "_nanoseconds": 0}},
                "__collections__": {"words": {
                  "kw-yama": {"meaningText": "mountain", "ganaText": "やま", "kanjiText": "山", "studyState": 2,
                              "timestamp": {"seconds": 1609459261, "nanoseconds": 250000000}, "__collections__": {}},
                  "kw-kawa": {"meaningText": "river", "ganaText": "かわ", "kanjiText": "川", "kanjiImageURL": "https://example.org/kawa.png",
                              "studyState": 1, "timestamp": "2021-01-01T09:00:00+09:00", "__collections__": {}}
                }}},
              "kb-2": {"title": "Empty book", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 0, "_nanoseconds": 7000000}},
                "__collections__": {}}
            }}}

            """)
        let run = try box.ferry(["migrate", "export.json", "--to-version", "2", "-o", "v2.json"])
        #expect(run.status == 0)
        #expect(run.diagnostics == [])
        #expect(try box.text("v2.json") == """
            {
              "domain": "vocabulary",
              "schemaVersion": 2,
              "wordBooks": [
                {
                  "id": "kb-1",
                  "title": "漢字テスト",
                  "createdAt": "2021-01-01T00:00:00Z"
                },
                {
                  "id": "kb-2",
                  "title": "Empty book",
                  "createdAt": "1970-01-01T00:00:00.007Z"
                }
              ],
              "words": [
                {
                  "id": "kw-yama",
                  "wordBookID": "kb-1",
                  "meaningText": "mountain",
                  "meaningImageURL": "",
                  "ganaText": "やま",
                  "ganaImageURL": "",
                  "kanjiText": "山",
                  "kanjiImageURL": "",
                  "studyState": "fail",
                  "timestamp": "2021-01-01T00:01:01.250Z"
                },
                {
                  "id": "kw-kawa",
                  "wordBookID": "kb-1",
                  "meaningText": "river",
                  "meaningImageURL": "",
                  "ganaText": "かわ",
                  "ganaImageURL": "",
                  "kanjiText": "川",
                  "kanjiImageURL": "https://example.org/kawa.png",
                  "studyState": "success",
                  "timestamp": "2021-01-01T00:00:00Z"
                }
              ]
            }

            """)
    }

    /// An export laid out like firestore-backup-restore: bare `_seconds` / `_nanoseconds`
    /// Timestamps and words under `"subCollection": {"wordBooks/<id>/words": {...}}`.
    @Test func generatedBackupRestoreExportMigrates() throws {
        let box = try Sandbox()
        try box.write("backup.json", """
            {
              "wordBooks": {
                "bk-9": {
                  "title": "Travel",
                  "timestamp": {"_seconds": 1714521600, "_nanoseconds": 999000000},
                  "subCollection": {
                    "wordBooks/bk-9/words": {
                      "tw-1": {"meaningText": "ticket", "meaningImageURL": "", "ganaText": "きっぷ", "ganaImageURL": "",
                               "kanjiText": "切符", "kanjiImageURL": "", "studyState": 0,
                               "timestamp": {"_seconds": 1714521601, "_nanoseconds": 0}}
                    }
                  }
                }
              }
            }

            """)
        let run = try box.ferry(["migrate", "backup.json", "--to-version", "2", "--to", "jsonl"])
        #expect(run.status == 0)
        #expect(run.stdout == """
            {"domain": "vocabulary", "schemaVersion": 2}
            {"$collection":"wordBooks","id":"bk-9","title":"Travel","createdAt":"2024-05-01T00:00:00.999Z"}
            {"$collection":"words","id":"tw-1","wordBookID":"bk-9","meaningText":"ticket","meaningImageURL":"","ganaText":"きっぷ","ganaImageURL":"","kanjiText":"切符","kanjiImageURL":"","studyState":"undefined","timestamp":"2024-05-01T00:00:01Z"}

            """)
    }

    @Test func brokenVocabularySampleNamesRecordAndField() throws {
        let box = try Sandbox()
        try box.copySample("broken/vocabulary-v1-invalid.json")
        let run = try box.ferry(["migrate", "broken/vocabulary-v1-invalid.json", "--to-version", "2", "-o", "out.json"])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            "broken/vocabulary-v1-invalid.json:13:5: error: /words/0/id: id is missing [missing-field]",
            #"broken/vocabulary-v1-invalid.json:30:21: error: /words/1/studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "w2") [invalid-value]"#,
            "broken/vocabulary-v1-invalid.json: note: nothing was written because of the errors above; --lenient writes the valid records [assumption]",
            "broken/vocabulary-v1-invalid.json: vocabulary v1 -> v2: wordBooks 1, words 0 (1 of 3 records passed, 2 errors, 0 warnings); nothing written",
        ])
        #expect(!box.exists("out.json"))
    }

    /// The same two faults in an input of our own, on other lines and columns.
    @Test func generatedBrokenWordsArePositioned() throws {
        let box = try Sandbox()
        let text = """
            {"wordBooks": [{"id": "b", "title": "T", "timestamp": "2024-01-01T00:00:00Z"}],
             "words": [
              {"id": "ok", "wordBookID": "b", "meaningText": "fine", "ganaText": "う", "kanjiText": "宇", "studyState": 1, "timestamp": "2024-01-02T00:00:00Z"},
                {"wordBookID": "b", "meaningText": "a", "ganaText": "あ", "kanjiText": "亜", "studyState": 1, "timestamp": "2024-01-02T00:00:00Z"},
              {"id": "x7", "wordBookID": "b", "meaningText": "ななつ", "ganaText": "い", "kanjiText": "伊", "studyState":   7, "timestamp": "2024-01-03T00:00:00Z"}]}

            """
        try box.write("words.json", text)
        #expect(position(of: "{\"wordBookID\"", in: text) == "4:5")
        #expect(position(of: "7, \"timestamp", in: text) == "5:108")
        let run = try box.ferry(["migrate", "words.json", "--to-version", "2", "-o", "out.json"])
        #expect(run.status == 1)
        #expect(run.errors == [
            "words.json:4:5: error: /words/1/id: id is missing [missing-field]",
            #"words.json:5:108: error: /words/2/studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "x7") [invalid-value]"#,
        ])
        #expect(try box.list() == ["words.json"])

        // --lenient writes the valid records: the word without an id is left out, state 7 becomes undefined.
        let lenient = try box.ferry(["migrate", "words.json", "--to-version", "2", "--lenient", "--to", "jsonl"])
        #expect(lenient.stdout.split(separator: "\n").map { $0.contains("\"id\":\"x7\"") && $0.contains("\"studyState\":\"undefined\"") }
            == [false, false, false, true])
        #expect(lenient.stdout.split(separator: "\n").count == 4)
        #expect(lenient.errors == ["words.json:4:5: error: /words/1/id: id is missing [missing-field]"])
    }

    @Test func validateBrokenNotesSampleReportsEveryError() throws {
        let box = try Sandbox()
        try box.copySample("broken/notes-v2-invalid.json")
        let run = try box.ferry(["validate", "broken/notes-v2-invalid.json"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.errors == [
            #"broken/notes-v2-invalid.json:21:17: error: /wineTastingNotes/0/rating: rating 7 is out of range 0...5 (id "b-1") [out-of-range]"#,
            #"broken/notes-v2-invalid.json:25:13: error: /wineTastingNotes/1/id: duplicate id "b-1" in wineTastingNotes: first at line 6 (/wineTastingNotes/0) [duplicate-id]"#,
            #"broken/notes-v2-invalid.json:38:20: error: /wineTastingNotes/1/tastes/0/value: tastes/0/value 1.4 is out of range 0...1 (id "b-1") [out-of-range]"#,
        ])
    }

    /// `rating: 7` and a duplicate id in a V2 file of our own, written compactly: each error at the
    /// line and column of the offending value.
    @Test func validateGeneratedV2WithRatingSevenAndDuplicateID() throws {
        let box = try Sandbox()
        let text = """
            {"domain": "notes", "schemaVersion": 2, "coffeeTastingNotes": [
            {"id": "k1", "title": "Kenya AA", "category": "filter", "createdAt": "2024-01-01T00:00:00Z", "smells": [], "tastes": [], "think": "", "rating": 7, "isFavorite": false},
            {"id": "k2", "title": "Brazil", "category": "filter", "createdAt": "2024-01-02T00:00:00Z", "smells": [], "tastes": [], "think": "", "rating": 3.5, "isFavorite": false},
               {"id": "k1", "title": "Kenya AB", "category": "filter", "createdAt": "2024-01-03T00:00:00Z", "smells": [], "tastes": [], "think": "", "rating": 2, "isFavorite": true}
            ]}

            """
        try box.write("coffee.json", text)
        let rating = position(of: "7, \"isFavorite", in: text)
        let duplicate = position(of: "\"k1\"", in: text, occurrence: 2)
        #expect(rating == "2:145")
        #expect(duplicate == "4:11")
        let run = try box.ferry(["validate", "coffee.json"])
        #expect(run.status == 1)
        #expect(run.errors == [
            #"coffee.json:\#(rating): error: /coffeeTastingNotes/0/rating: rating 7 is out of range 0...5 (id "k1") [out-of-range]"#,
            #"coffee.json:\#(duplicate): error: /coffeeTastingNotes/2/id: duplicate id "k1" in coffeeTastingNotes: first at line 2 (/coffeeTastingNotes/0) [duplicate-id]"#,
        ])
    }

    @Test func jsonToJSONLinesToJSONIsByteIdentical() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        let toLines = try box.ferry(["convert", "v2.json", "-o", "v2.jsonl"])
        #expect(toLines.status == 0)
        expectGolden(try box.text("v2.jsonl"), "notes-v2.jsonl")
        let back = try box.ferry(["convert", "v2.jsonl", "--to", "json", "-o", "back.json"])
        #expect(back.status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))

        // V1 too: the canonical V1 form survives the same trip.
        #expect(try box.ferry(["convert", "notes-v1.json", "--to", "json", "-o", "v1.json"]).status == 0)
        #expect(try box.ferry(["convert", "v1.json", "--to", "jsonl", "-o", "v1.jsonl"]).status == 0)
        #expect(try box.ferry(["convert", "v1.jsonl", "--to", "json", "-o", "v1-back.json"]).status == 0)
        #expect(try box.bytes("v1-back.json") == (try box.bytes("v1.json")))
    }

    @Test func inspectPrintsDomainVersionCollectionsAndCounts() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let text = try box.ferry(["inspect", "notes-v1.json"])
        #expect(text.status == 0)
        #expect(text.stdout == """
            input:       notes-v1.json
            format:      json
            domain:      notes
            version:     1
            collections:
              wineNotes: 4
              coffeeNotes: 2
              whiskeyNotes: 1
              cocktailNotes: 1
            records:     8
            problems:    0 errors, 0 warnings

            """)
        let json = try box.ferry(["inspect", "--json", "notes-v1.json"])
        #expect(json.status == 0)
        #expect(json.stdout == """
            {
              "input": "notes-v1.json",
              "format": "json",
              "schemaFree": false,
              "domain": "notes",
              "schemaVersion": 1,
              "collections": {
                "wineNotes": 4,
                "coffeeNotes": 2,
                "whiskeyNotes": 1,
                "cocktailNotes": 1
              },
              "media": null,
              "records": 8,
              "recordsRead": 8,
              "errors": 0,
              "warnings": 0
            }

            """)
    }

    @Test(arguments: ["notes-v1.json", "./notes-v1.json", "sub/../notes-v1.json"])
    func outputNamingAnInputIsAUsageError(output: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let before = try box.bytes("notes-v1.json")
        let run = try box.ferry(["convert", "notes-v1.json", "--to-version", "2", "-o", output])
        #expect(run.status == 2)
        #expect(run.errors == ["ferry convert: error: the output '\(output)' is the input 'notes-v1.json'; inputs are never modified [usage]"])
        #expect(try box.bytes("notes-v1.json") == before)
        #expect(try box.list() == ["notes-v1.json", "sub"])
    }

    @Test func downMigrationIsExitFour() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        let run = try box.ferry(["migrate", "v2.json", "--to-version", "1", "-o", "v1.json"])
        #expect(run.status == 4)
        #expect(run.errors == ["v2.json: error: cannot migrate notes down from version 2 to 1 (no down-migration) [unknown-version]"])
        #expect(!box.exists("v1.json"))
    }

    /// A migration to the version the data has already is a conversion, and says so in a note.
    @Test(arguments: ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-node-firestore.json"])
    func migratingToTheInputsOwnVersionSaysSo(sample: String) throws {
        let box = try Sandbox()
        try box.copySample(sample)
        let run = try box.ferry(["migrate", sample, "--to-version", "1", "-o", "same.jsonl"])
        #expect(run.status == 0)
        #expect(run.stderrLines.first == "\(sample): note: the input is at version 1 already: nothing to migrate [assumption]")
        #expect(try box.ferry(["convert", sample, "-o", "converted.jsonl"]).stderrLines.first?.contains("note:") == false)
        #expect(try box.bytes("same.jsonl") == box.bytes("converted.jsonl"))
    }

    @Test func standardInputAndOutput() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        let v2 = try box.text("v2.json")
        let lines = try box.ferry(["convert", "-", "--to", "jsonl"], stdin: v2)
        #expect(lines.status == 0)
        expectGolden(lines.stdout, "notes-v2.jsonl")
        #expect(lines.stderrLines == ["-: \(Self.notesSummaryV2) (8 records, 0 errors, 0 warnings) -> standard output"])

        let migrated = try box.ferry(["migrate", "-", "--to-version", "2", "-o", "-"], stdin: try box.text("notes-v1.json"))
        #expect(migrated.status == 0)
        #expect(migrated.stdout == v2)

        let validate = try box.ferry(["validate", "-"], stdin: v2)
        #expect(validate.status == 0)
        #expect(validate.stderrLines == ["-: \(Self.notesSummaryV2) (8 records, 0 errors, 0 warnings); valid"])

        let brokenText = #"{"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [}"#
        #expect(position(of: "}", in: brokenText) == "1:62")
        let broken = try box.ferry(["validate", "-"], stdin: brokenText)
        #expect(broken.status == 3)
        #expect(broken.errors == ["-:1:62: error: expected a value, found '}' [malformed-json]"])
    }

    /// (`validate` has no `--strict`: its 1 is invalid data only, CommandHelpTests.)
    @Test(arguments: [["--help"], ["convert", "--help"], ["migrate", "--help"], ["run", "--help"]])
    func helpListsTheExitCodes(arguments: [String]) throws {
        let run = try runFerry(arguments)
        #expect(run.status == 0)
        #expect(run.stdout.contains("""
            EXIT CODES (for several inputs the highest wins):
              0   done (warnings allowed)
              1   invalid data, or lossy under --strict
              2   usage: a bad flag, argument or filter
              3   an input unreadable or malformed
              4   unknown format, domain or version (no down-migration)
              5   the output is not writable
              70  internal error

            """))
    }

    @Test func versionIsPrinted() throws {
        let run = try runFerry(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "ferry 0.1.0\n")
    }

    @Test(arguments: [
        ("convert", "--to-verison", "--to-version"),
        ("convert", "--lenint", "--lenient"),
        ("validate", "--reprot", "--report"),
        ("migrate", "--dryrun", "--dry-run"),
    ])
    func unknownOptionSuggestsTheRightOne(command: String, typo: String, suggestion: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry([command, "notes-v1.json", typo, "2"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderrLines == [
            "ferry \(command): error: unknown option '\(typo)'; did you mean '\(suggestion)'?",
            "usage: ferry \(command) INPUT... [options]",
            "See 'ferry \(command) --help'.",
        ])
    }

    @Test(arguments: [("0", "from 1 to 256"), ("257", "from 1 to 256"), ("two", "from 1 to 256")])
    func jobsOutOfRangeNamesBothBounds(jobs: String, bounds: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json", "--jobs", jobs])
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "ferry migrate: error: --jobs expects a whole number \(bounds), not '\(jobs)'")
        #expect(try box.list() == ["notes-v1.json"])
    }

    /// A failed conversion leaves the previous output as it was, and no temporary file behind.
    @Test func previousOutputSurvivesAFailedConversion() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        try box.copySample("broken/vocabulary-v1-invalid.json", to: "broken.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "out.json"]).status == 0)
        let before = try box.bytes("out.json")

        // Invalid data: exit 1.
        let invalid = try box.ferry(["migrate", "broken.json", "--to-version", "2", "-o", "out.json"])
        #expect(invalid.status == 1)
        #expect(try box.bytes("out.json") == before)
        #expect(try box.list() == ["broken.json", "notes-v1.json", "out.json"])

        // Malformed input found after many records were already streamed out: exit 3.
        var big = #"{"domain": "notes", "schemaVersion": 2, "coffeeTastingNotes": ["# + "\n"
        for i in 0..<2000 {
            big += #"{"id": "g\#(i)", "title": "Blend \#(i)", "category": "espresso", "createdAt": "2024-01-01T00:00:00Z", "smells": [], "tastes": [], "think": "", "rating": 4, "isFavorite": false},"# + "\n"
        }
        big += "{\"id\": oops}]}\n"
        try box.write("big.json", big)
        let malformed = try box.ferry(["convert", "big.json", "-o", "out.json"])
        #expect(malformed.status == 3)
        #expect(malformed.errors.count == 1)
        #expect(malformed.errors.first?.hasPrefix("big.json:2002:8: error: ") == true)
        #expect(try box.bytes("out.json") == before)
        #expect(try box.list() == ["big.json", "broken.json", "notes-v1.json", "out.json"])

        // --lenient on invalid data writes the valid records over it.
        let lenient = try box.ferry(["migrate", "broken.json", "--to-version", "2", "--lenient", "-o", "out.json"])
        #expect(lenient.status == 1)
        #expect(try box.bytes("out.json") != before)
        #expect(try box.list() == ["big.json", "broken.json", "notes-v1.json", "out.json"])
    }
}
