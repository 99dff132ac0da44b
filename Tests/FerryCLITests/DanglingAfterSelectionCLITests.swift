import FerryTestSupport
import Foundation
import Testing

/// A filter or a record selection that drops a record others name leaves those references
/// dangling in what is written: each is a warning at the referring field of the kept record,
/// saying what dropped the named one, and the kept records are still written (exit 0). Every
/// domain whose records name others, every input format, one and two jobs.
@Suite struct DanglingAfterSelectionCLITests {
    /// Members m1 and m2; story s1 tags both, s2 tags m1.
    static let stories = """
        {"domain": "pet-story", "schemaVersion": 2}
        {"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}
        {"$collection":"members","id":"m2","name":"Pet 2","since":"2010-04-03","birthDate":"2010-01-01","species":"dog","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}
        {"$collection":"stories","id":"s1","caption":"nap","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m1","m2"]}
        {"$collection":"stories","id":"s2","caption":"walk","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m1"]}

        """
    /// Word books b1 and b2, a word in each.
    static let words = """
        {"domain": "vocabulary", "schemaVersion": 2}
        {"$collection":"wordBooks","id":"b1","title":"Book 1","createdAt":"2020-09-13T12:26:40Z"}
        {"$collection":"wordBooks","id":"b2","title":"Book 2","createdAt":"2020-09-14T12:26:40Z"}
        {"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"one","meaningImageURL":"","ganaText":"いち","ganaImageURL":"","kanjiText":"一","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:40.250Z"}
        {"$collection":"words","id":"w2","wordBookID":"b2","meaningText":"two","meaningImageURL":"","ganaText":"に","ganaImageURL":"","kanjiText":"二","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:41.250Z"}

        """
    /// The same two books as a node-firestore export (V1): each word inside its book, its
    /// `wordBookID` the book's key.
    static let firestoreWords = """
        {"__collections__": {"wordBooks": {"b1": {"title": "Book 1", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000000, "_nanoseconds": 0}}, "__collections__": {"words": {"w1": {"meaningText": "one", "meaningImageURL": "", "ganaText": "いち", "ganaImageURL": "", "kanjiText": "一", "kanjiImageURL": "", "studyState": 2, "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000000, "_nanoseconds": 250000000}}, "__collections__": {}}}}},
        "b2": {"title": "Book 2", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000001, "_nanoseconds": 0}}, "__collections__": {"words": {"w2": {"meaningText": "two", "meaningImageURL": "", "ganaText": "に", "ganaImageURL": "", "kanjiText": "二", "kanjiImageURL": "", "studyState": 0, "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000001, "_nanoseconds": 250000000}}, "__collections__": {}}}}}}}}

        """

    /// The warnings' positions in each input format (`line:column:`, and the CSV cell's column),
    /// in the order of `Self.runs`.
    static let positions: [String: [(String, String)]] = [
        "jsonl": [("4:122", ""), ("5:118", ""), ("5:47", "")],
        "json": [("35:9", ""), ("44:9", ""), ("31:21", "")],
        "csv": [("4:46", " (column 'taggedMemberIds.2')"), ("5:44", " (column 'taggedMemberIds.1')"), ("5:12", " (column 'wordBookID')")],
        "xml": [("34:9", ""), ("43:9", ""), ("30:7", "")],
    ]

    /// What each run drops, the dataset it reads, the warning (its position from `positions`) and the summary.
    static let runs: [(dataset: String, options: [String], warning: String, summary: String)] = [
        ("stories", ["--where", #"id != "m2""#],
         #"warning: /stories/0/taggedMemberIds/1: taggedMemberIds[1] "m2" names no member of the dataset after filtering (--where)%@ (id "s1") [dangling-reference]"#,
         "pet-story v2: profiles 0, members 1, stories 2 (3 of 4 records passed, 0 errors, 1 warning) -> out.jsonl"),
        ("stories", ["--skip", "1"],
         #"warning: /stories/1/taggedMemberIds/0: taggedMemberIds[0] "m1" names no member of the dataset after selecting records (--skip, --limit, --sample)%@ (id "s2") [dangling-reference]"#,
         "pet-story v2: profiles 0, members 1, stories 1 (2 of 4 records passed, 0 errors, 1 warning) -> out.jsonl"),
        ("words", ["--where", #"id != "b2""#],
         #"warning: /words/1/wordBookID: wordBookID "b2" names no word book of the dataset after filtering (--where)%@ (id "w2") [dangling-reference]"#,
         "vocabulary v2: wordBooks 1, words 2 (3 of 4 records passed, 0 errors, 1 warning) -> out.jsonl"),
    ]

    @Test(arguments: ["jsonl", "json", "csv", "xml"], ["1", "2"])
    func eachDanglingReferenceIsAWarningAtItsField(format: String, jobs: String) throws {
        let box = try Sandbox()
        try box.write("stories.jsonl", Self.stories)
        try box.write("words.jsonl", Self.words)
        if format != "jsonl" {
            for dataset in ["stories", "words"] {
                let made = try box.ferry(["convert", dataset + ".jsonl", "-o", dataset + "." + format, "--quiet"])
                #expect(made.status == 0, "\(dataset) \(format): \(made.stderr)")
            }
        }
        let positions = try #require(Self.positions[format])
        for (index, run) in Self.runs.enumerated() {
            let input = run.dataset + "." + format
            let result = try box.ferry(["convert", input] + run.options + ["-o", "out.jsonl", "--jobs", jobs])
            let (position, column) = positions[index]
            let warning = run.warning.replacingOccurrences(of: "%@", with: column)
            #expect(result.status == 0, "\(input) \(run.options)")
            #expect(result.stderrLines == ["\(input):\(position): \(warning)", "\(input): \(run.summary)"],
                "\(input) \(run.options) --jobs \(jobs)")
        }
        // What was kept of the stories when m2 was dropped: m1 and both stories, as read.
        _ = try box.ferry(["convert", "stories." + format, "--where", #"id != "m2""#, "-o", "kept.jsonl", "--jobs", jobs])
        let lines = Self.stories.split(separator: "\n").map(String.init)
        #expect(try box.text("kept.jsonl") == [lines[0], lines[1], lines[3], lines[4]].joined(separator: "\n") + "\n")
    }

    /// The stories and words with a third member (m9) and book (b9), each named by a third story
    /// or word; `danglingInput` renames m9 and b9 in the written input, so that those references
    /// dangle in the input itself.
    static let storiesWithM9 = stories.replacingOccurrences(of: "\n{\"$collection\":\"stories\",\"id\":\"s1\"",
        with: #"\#n{"$collection":"members","id":"m9","name":"Pet 9","since":"2010-04-03","birthDate":"2010-01-01","species":"dog","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
            + #"\#n{"$collection":"stories","id":"s1""#)
        + #"{"$collection":"stories","id":"s3","caption":"run","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m9"]}"# + "\n"
    static let wordsWithB9 = words.replacingOccurrences(of: "\n{\"$collection\":\"words\",\"id\":\"w1\"",
        with: #"\#n{"$collection":"wordBooks","id":"b9","title":"Book 9","createdAt":"2020-09-15T12:26:40Z"}"#
            + #"\#n{"$collection":"words","id":"w1""#)
        + #"{"$collection":"words","id":"w3","wordBookID":"b9","meaningText":"three","meaningImageURL":"","ganaText":"さん","ganaImageURL":"","kanjiText":"三","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:42.250Z"}"# + "\n"

    /// Writes `dataset` (`stories` or `words`) in `format` with its member m9 or book b9 renamed
    /// m8 or b8: the third story's or word's reference dangles in the input.
    static func danglingInput(_ dataset: String, format: String, in box: Sandbox) throws -> String {
        let (text, id, collection) = dataset == "stories" ? (storiesWithM9, "m9", "members") : (wordsWithB9, "b9", "wordBooks")
        try box.write("valid.jsonl", text)
        let input = dataset + "." + format
        if format != "jsonl" {
            #expect(try box.ferry(["convert", "valid.jsonl", "-o", "valid." + format, "--quiet"]).status == 0)
        }
        let renamed = id.replacingOccurrences(of: "9", with: "8")
        let token = ["jsonl": #""id":"\#(id)""#, "json": #""id": "\#(id)""#, "xml": "<id>\(id)</id>", "csv": "\(collection),\(id),"][format]!
        let written = try box.text("valid." + format)
        #expect(written.components(separatedBy: token).count == 2, "\(format): \(token)")
        try box.write(input, written.replacingOccurrences(of: token, with: token.replacingOccurrences(of: id, with: renamed)))
        return input
    }

    /// Where the third story's and word's dangling reference stands in each format, then the
    /// warnings of the runs below (two on the stories, one on the words), each with the CSV
    /// cell's column.
    static let danglingPositions: [String: [(String, String)]] = [
        "jsonl": [("7:117", ""), ("7:47", ""), ("5:122", ""), ("6:118", ""), ("6:47", "")],
        "json": [("63:9", ""), ("48:21", ""), ("45:9", ""), ("54:9", ""), ("36:21", "")],
        "csv": [("7:43", " (column 'taggedMemberIds.1')"), ("7:12", " (column 'wordBookID')"), ("5:46", " (column 'taggedMemberIds.2')"),
                ("6:44", " (column 'taggedMemberIds.1')"), ("6:12", " (column 'wordBookID')")],
        "xml": [("62:9", ""), ("47:7", ""), ("44:9", ""), ("53:9", ""), ("35:7", "")],
    ]

    /// A reference that dangles in the input keeps its error and gets no warning "after filtering"
    /// or "after selecting": only the references the filter or the selection left dangling do.
    @Test(arguments: ["jsonl", "json", "csv", "xml"], ["1", "2"])
    func aReferenceDanglingInTheInputGetsNoWarningAfterDropping(format: String, jobs: String) throws {
        let box = try Sandbox()
        let positions = try #require(Self.danglingPositions[format])
        // The diagnostic at `positions[index]`: its position, then `message` with that CSV column.
        func at(_ index: Int, _ message: String) -> String {
            "\(positions[index].0): " + message.replacingOccurrences(of: "%@", with: positions[index].1)
        }
        let m9 = #"error: /stories/2/taggedMemberIds/0: taggedMemberIds[0] "m9" names no member of the dataset%@ (id "s3") [dangling-reference]"#
        let cases: [(dataset: String, options: [String], lines: [String])] = [
            ("stories", ["--where", #"id != "m2""#], [
                at(0, m9),
                at(2, #"warning: /stories/0/taggedMemberIds/1: taggedMemberIds[1] "m2" names no member of the dataset after filtering (--where)%@ (id "s1") [dangling-reference]"#),
                "pet-story v2: profiles 0, members 2, stories 3 (5 of 6 records passed, 1 error, 1 warning); nothing written",
            ]),
            ("stories", ["--skip", "1"], [
                at(0, m9),
                at(3, #"warning: /stories/1/taggedMemberIds/0: taggedMemberIds[0] "m1" names no member of the dataset after selecting records (--skip, --limit, --sample)%@ (id "s2") [dangling-reference]"#),
                "pet-story v2: profiles 0, members 2, stories 2 (4 of 6 records passed, 1 error, 1 warning); nothing written",
            ]),
            ("words", ["--where", #"id != "b2""#], [
                at(1, #"error: /words/2/wordBookID: wordBookID "b9" names no word book of the dataset%@ (id "w3") [dangling-reference]"#),
                at(4, #"warning: /words/1/wordBookID: wordBookID "b2" names no word book of the dataset after filtering (--where)%@ (id "w2") [dangling-reference]"#),
                "vocabulary v2: wordBooks 2, words 3 (5 of 6 records passed, 1 error, 1 warning); nothing written",
            ]),
        ]
        for run in cases {
            let input = try Self.danglingInput(run.dataset, format: format, in: box)
            let result = try box.ferry(["convert", input] + run.options + ["-o", "out.jsonl", "--jobs", jobs])
            #expect(result.status == 1, "\(input) \(run.options)")
            #expect(result.stderrLines == [
                input + ":" + run.lines[0],
                input + ":" + run.lines[1],
                "\(input): note: nothing was written because of the errors above; --lenient writes the valid records [assumption]",
                "\(input): " + run.lines[2],
            ], "\(input) \(run.options) --jobs \(jobs)")
        }
    }

    /// The stories at V1 (`type`, `mediaContentIds`), migrated as they are filtered.
    static let storiesV1 = """
        {"domain": "pet-story", "schemaVersion": 1}
        {"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01T15:00:00Z","type":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}
        {"$collection":"members","id":"m2","name":"Pet 2","since":"2010-04-03","birthDate":"2010-01-01T15:00:00Z","type":"dog","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}
        {"$collection":"stories","id":"s1","caption":"nap","createdAt":"2024-01-01T08:00:00Z","mediaContentIds":[],"taggedMemberIds":["m1","m2"]}
        {"$collection":"stories","id":"s2","caption":"walk","createdAt":"2024-01-01T08:00:00Z","mediaContentIds":[],"taggedMemberIds":["m1"]}

        """

    /// A filter after the migration: the references of the V2 records written are checked.
    @Test(arguments: [("jsonl", "2:1", "4:132", ""), ("json", "6:5", "35:9", ""), ("csv", "2:1", "4:46", " (column 'taggedMemberIds.2')"),
                      ("xml", "5:5", "34:9", "")], ["1", "2"])
    func theMigratedRecordsAreCheckedAsWritten(cell: (format: String, note: String, warning: String, column: String), jobs: String) throws {
        let box = try Sandbox()
        try box.write("stories.jsonl", Self.storiesV1)
        let input = "stories." + cell.format
        if cell.format != "jsonl" {
            #expect(try box.ferry(["convert", "stories.jsonl", "-o", input, "--quiet"]).status == 0)
        }
        let result = try box.ferry(["convert", input, "--to-version", "2", "--where", #"id != "m2""#, "-o", "out.jsonl", "--jobs", jobs])
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            "\(input):\(cell.note): note: calendar days (birthDate, since) are taken in time zone UTC (--time-zone) [assumption]",
            #"\#(input):\#(cell.warning): warning: /stories/0/taggedMemberIds/1: taggedMemberIds[1] "m2" names no member of the dataset after filtering (--where)\#(cell.column) (id "s1") [dangling-reference]"#,
            "\(input): pet-story v1 -> v2: profiles 0, members 1, stories 2 (3 of 4 records passed, 0 errors, 1 warning) -> out.jsonl",
        ], "\(input) --jobs \(jobs)")
    }

    /// A Firestore export's word names its book by where it stands: dropping the book leaves it
    /// dangling, and the warning names the word's document as the validator would (its
    /// `wordBookID` comes from its parent: the document itself).
    @Test(arguments: ["1", "2"])
    func aFirestoreExportsWordNamesItsDroppedBook(jobs: String) throws {
        let box = try Sandbox()
        try box.write("export.json", Self.firestoreWords)
        let result = try box.ferry(["convert", "export.json", "--where", #"id != "b2""#, "-o", "out.jsonl", "--jobs", jobs])
        #expect(result.status == 0)
        #expect(result.stderrLines == [
            #"export.json:2:161: warning: /__collections__/wordBooks/b2/__collections__/words/w2: wordBookID "b2" names no word book of the dataset after filtering (--where) (id "w2") [dangling-reference]"#,
            "export.json: vocabulary v1: wordBooks 1, words 2 (3 of 4 records passed, 0 errors, 1 warning) -> out.jsonl",
        ])
    }
}
