import FerryTestSupport
import Foundation
import Testing

/// Detection by content: bundles and compressed files on standard input and in files whose name
/// says nothing read exactly as the same bytes under their proper name; `--from` with a
/// compression ending; V1 recognised from values; syntax errors before domain detection;
/// `--schema-free`.
@Suite struct DetectionCLITests {
    /// One V1 sample per domain.
    static let samples = ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-node-firestore.json"]
    /// The container and compression cells: tar bundles in every compression, single JSON and CSV
    /// files in every compression, JSON Lines and XML in one each, all written by ferry itself
    /// (`-o data.<ending>`).
    static let endings = [
        "tar", "tar.gz", "tar.zst", "tar.xz", "tar.bz2",
        "json.gz", "json.zst", "json.xz", "json.bz2",
        "csv.gz", "csv.zst", "csv.xz", "csv.bz2",
        "jsonl.gz", "xml.zst",
    ]

    static var cells: [(String, String)] { samples.flatMap { sample in endings.map { (sample, $0) } } }

    /// Writes `data.<ending>` from `sample` and returns the flags every read of it takes: a CSV
    /// file holds one collection, named with `--collection` since the bytes carry no name.
    private static func prepare(_ box: Sandbox, sample: String, ending: String) throws -> [String] {
        try box.copySample(sample)
        if ending.hasPrefix("csv") {
            let folder = try box.ferry(["convert", sample, "--to", "csv", "-o", "csv/"])
            try #require(folder.status == 0, "\(folder.stderr)")
            let file = try #require(try box.list("csv").first)
            let collection = String(file.prefix { $0 != "." })
            let run = try box.ferry(["convert", "csv/\(file)", "-o", "data.\(ending)"])
            try #require(run.status == 0, "\(run.stderr)")
            return ["--collection", collection]
        }
        let run = try box.ferry(["convert", sample, "-o", "data.\(ending)"])
        try #require(run.status == 0, "\(run.stderr)")
        return []
    }

    @Test(arguments: cells)
    func contentDetectionReadsAsTheNamedFile(sample: String, ending: String) throws {
        let box = try Sandbox()
        let flags = try Self.prepare(box, sample: sample, ending: ending)
        let named = "data.\(ending)"
        try box.write("data", bytes: try box.bytes(named))
        for command in [["validate"], ["convert", "--to", "json"]] {
            let reference = try box.ferry(command + [named] + flags)
            // A V1 pet-story bundle made from the lone JSON holds no media: every command reading
            // V1 applies the migration's media check (missing-media), the same whatever the input
            // is called.
            let missingMedia = sample == "pet-story-v1.json" && ending.hasPrefix("tar")
            #expect(reference.status == (missingMedia ? 1 : 0), "\(reference.stderr)")
            #expect(missingMedia
                ? reference.errors.count == 2 && reference.errors.allSatisfy { $0.hasSuffix("[missing-media]") }
                : reference.errors == [], "\(reference.errors)")
            let extensionless = try box.ferry(command + ["data"] + flags)
            #expect(extensionless.status == reference.status)
            #expect(extensionless.stdout == reference.stdout)
            #expect(extensionless.stderr == reference.stderr.replacingOccurrences(of: named, with: "data"))
            let stdin = try box.ferry(command + ["-"] + flags, stdinFile: named)
            #expect(stdin.status == reference.status)
            #expect(stdin.stdout == reference.stdout)
            #expect(stdin.stderr == reference.stderr.replacingOccurrences(of: named, with: "-"))
        }
    }

    /// An ending that says nothing of the content (`.txt`, `.dat`, `.bin`, `.bak`) is read as an
    /// extensionless file is: by its first bytes.
    @Test(arguments: ["txt", "dat", "bin", "bak"], ["json", "jsonl", "xml", "tar"])
    func aNeutralEndingIsReadByContent(ending: String, format: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "notes.\(format)"]).status == 0)
        try box.write("backup.\(ending)", bytes: try box.bytes("notes.\(format)"))
        let reference = try box.ferry(["validate", "notes.\(format)"])
        let neutral = try box.ferry(["validate", "backup.\(ending)"])
        #expect(reference.status == 0)
        #expect(neutral.status == 0)
        #expect(neutral.stderr == reference.stderr.replacingOccurrences(of: "notes.\(format)", with: "backup.\(ending)"))
    }

    /// Bytes no format recognises and no text holds (a photo, a gzip inside a gzip) are not read
    /// as CSV: the format cannot be told, by path and on standard input.
    @Test(arguments: ["photo", "-"])
    func binaryBytesAreNoFormat(input: String) throws {
        let box = try Sandbox()
        try box.write("photo", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])
        let run = try box.ferry(["validate", input], stdinFile: input == "-" ? "photo" : nil)
        #expect(run.status == 4)
        #expect(run.stderrLines == [
            "\(input): error: cannot tell the format; name it with --from [unknown-format]",
            "\(input): (0 records, 1 error, 0 warnings); not checked: unknown format",
        ])
    }

    /// UTF-16 text without a byte order mark has a NUL in every other byte and is no binary: it
    /// reads as CSV with its encoding named or not, by path and on standard input, in either order.
    @Test(arguments: ["u16", "-"], [["--encoding", "utf-16le"], [], ["--encoding", "utf-16"]])
    func utf16WithoutAByteOrderMarkIsText(input: String, encoding: [String]) throws {
        let box = try Sandbox()
        try box.write("u16", bytes: Array("name,city\nJos\u{E9},M\u{E1}laga\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let run = try box.ferry(["convert", input] + encoding + ["--to", "jsonl", "-q"], stdinFile: input == "-" ? "u16" : nil)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == #"{"name":"José","city":"Málaga"}"# + "\n")
    }

    /// An input that names a domain no definition describes is read as plain records, with a note
    /// saying so (it was read so silently), in a JSON document's envelope and a JSON Lines header
    /// line, wherever the envelope stands; `--schema-free` asks for that, and gets no note.
    @Test(arguments: [
        ("d.json", #"{"domain": "recipes", "schemaVersion": 1, "stories": [{"id": "a"}]}"#),
        ("d.json", #"{"stories": [{"id": "a"}], "schemaVersion": 1, "domain": "recipes"}"#),
        ("d.jsonl", "{\"domain\": \"recipes\", \"schemaVersion\": 1}\n{\"$collection\": \"stories\", \"id\": \"a\"}\n"),
    ])
    func aDomainNoneKnowsIsReadAsPlainRecordsWithANote(name: String, text: String) throws {
        let box = try Sandbox()
        try box.write(name, text)
        let run = try box.ferry(["validate", name])
        #expect(run.status == 0)
        let format = name.hasSuffix("jsonl") ? "jsonl" : "json"
        #expect(run.stderrLines == [
            #"\#(name): note: the input names the domain "recipes", which is none of Ferry's (notes, pet-story, vocabulary): its records are read as plain records, checked for well-formedness only [assumption]"#,
            "\(name): schema-free \(format): stories 1 (1 record, 0 errors, 0 warnings); valid",
        ])
        let free = try box.ferry(["validate", name, "--schema-free"])
        #expect(free.status == 0)
        #expect(free.stderrLines == ["\(name): schema-free \(format): stories 1 (1 record, 0 errors, 0 warnings); valid"])
    }

    @Test func tarOnStandardInputIsABundle() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "b.tar"]).status == 0)
        let run = try box.ferry(["validate", "-"], stdinFile: "b.tar")
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "-: notes v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 0 warnings); valid",
        ])
    }

    /// `--from` takes a compression ending, for standard input and for files of any name.
    @Test(arguments: ["json.gz", "json.zst", "jsonl.xz", "xml.bz2", "tar.gz", "tgz"])
    func fromTakesACompressionEnding(format: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let ending = format == "tgz" ? "tar.gz" : format
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "data.\(ending)"]).status == 0)
        try box.write("data.bin", bytes: try box.bytes("data.\(ending)"))
        let summary = "notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings); valid"
        let stdin = try box.ferry(["validate", "--from", format, "-"], stdinFile: "data.bin")
        #expect(stdin.status == 0)
        #expect(stdin.stderrLines == ["-: \(summary)"])
        let file = try box.ferry(["validate", "--from", format, "data.bin"])
        #expect(file.status == 0)
        #expect(file.stderrLines == ["data.bin: \(summary)"])
    }

    @Test func unknownFromWithACompressionEndingIsUnknownFormat() throws {
        let box = try Sandbox()
        try box.write("x", "{}")
        let run = try box.ferry(["validate", "--from", "toml.gz", "x"])
        #expect(run.status == 4)
        #expect(run.stderrLines == ["ferry validate: error: unknown input format 'toml.gz'; `ferry formats` lists them [unknown-format]"])
    }

    /// A V1 vocabulary CSV says its version only through its values: studyState digits.
    @Test(arguments: [("0", "undefined"), ("1", "success"), ("2", "fail")])
    func vocabularyV1CSVIsRecognisedByStudyStateDigits(digit: String, state: String) throws {
        let box = try Sandbox()
        try box.write("v1/wordBooks.csv", "id,title,timestamp\nkanji-1,Kanji,2023-07-22T04:30:00Z\n")
        try box.write("v1/words.csv", """
            id,wordBookID,meaningText,meaningImageURL,ganaText,ganaImageURL,kanjiText,kanjiImageURL,studyState,timestamp
            k-yama,kanji-1,mountain,,やま,,山,,\(digit),2023-07-22T04:31:40Z

            """)
        // Read alone, the words name a word book that is not there: the migration would stop at
        // it, so V1 validation says so too (and says vocabulary v1).
        let words = try box.ferry(["validate", "v1/words.csv"])
        #expect(words.status == 1)
        #expect(words.stderrLines == [
            #"v1/words.csv:2:8: error: /words/0/wordBookID: wordBookID "kanji-1" names no word book of the dataset (column 'wordBookID') (id "k-yama") [dangling-reference]"#,
            "v1/words.csv: vocabulary v1: wordBooks 0, words 1 (1 record, 1 error, 0 warnings); invalid",
        ])
        let stdin = try box.ferry(["validate", "-", "--collection", "words"], stdinFile: "v1/words.csv")
        #expect(stdin.stderrLines == [
            #"-:2:8: error: /words/0/wordBookID: wordBookID "kanji-1" names no word book of the dataset (column 'wordBookID') (id "k-yama") [dangling-reference]"#,
            "-: vocabulary v1: wordBooks 0, words 1 (1 record, 1 error, 0 warnings); invalid",
        ])
        let run = try box.ferry(["migrate", "v1/", "--to-version", "2", "-o", "v2.jsonl"])
        #expect(run.status == 0)
        #expect(run.stderrLines == ["v1: vocabulary v1 -> v2: wordBooks 1, words 1 (2 records, 0 errors, 0 warnings) -> v2.jsonl"])
        #expect(try box.text("v2.jsonl") == """
            {"domain": "vocabulary", "schemaVersion": 2}
            {"$collection":"wordBooks","id":"kanji-1","title":"Kanji","createdAt":"2023-07-22T04:30:00Z"}
            {"$collection":"words","id":"k-yama","wordBookID":"kanji-1","meaningText":"mountain","meaningImageURL":"","ganaText":"やま","ganaImageURL":"","kanjiText":"山","kanjiImageURL":"","studyState":"\(state)","timestamp":"2023-07-22T04:31:40Z"}

            """)
    }

    @Test func vocabularyV2CSVStaysV2() throws {
        let box = try Sandbox()
        try box.write("words.csv", """
            id,wordBookID,meaningText,meaningImageURL,ganaText,ganaImageURL,kanjiText,kanjiImageURL,studyState,timestamp
            k-yama,kanji-1,mountain,,やま,,山,,success,2023-07-22T04:31:40Z

            """)
        let run = try box.ferry(["validate", "words.csv"])
        #expect(run.stderrLines == [
            #"words.csv:2:8: error: /words/0/wordBookID: wordBookID "kanji-1" names no word book of the dataset (column 'wordBookID') (id "k-yama") [dangling-reference]"#,
            "words.csv: vocabulary v2: wordBooks 0, words 1 (1 record, 1 error, 0 warnings); invalid",
        ])
    }

    /// A malformed input's syntax error is what a version change reports, not `unknown-domain`.
    @Test(arguments: [
        (["migrate", "bad.json", "--to-version", "2", "-o", "x.json"], "bad.json: (0 records, 1 error, 0 warnings); nothing written"),
        (["convert", "bad.json", "--to-version", "2", "-o", "x.json"], "bad.json: (0 records, 1 error, 0 warnings); nothing written"),
        (["migrate", "-", "--to-version", "2", "--dry-run", "--from", "json"], "-: (0 records, 1 error, 0 warnings); dry run, nothing written"),
    ])
    func syntaxErrorComesBeforeDomainDetection(arguments: [String], summary: String) throws {
        let box = try Sandbox()
        try box.write("bad.json", "{\"a\": [1,\n")
        let run = try box.ferry(arguments, stdinFile: "bad.json")
        let file = arguments[1] == "-" ? "-" : "bad.json"
        #expect(run.status == 3)
        #expect(run.stderrLines == [
            "\(file):2:1: error: unexpected end of input, expected a value [malformed-json]",
            summary,
        ])
        #expect(!box.exists("x.json"))
    }

    @Test func schemaFreeReadsADomainLookalikeAsPlainRecords() throws {
        let box = try Sandbox()
        try box.write("root.json", #"{"__collections__": {"people": {"docA": {"name": "john", "__collections__": {}}}}}"#)
        let detected = try box.ferry(["validate", "root.json"])
        #expect(detected.status == 1)
        let run = try box.ferry(["validate", "--schema-free", "root.json"])
        #expect(run.status == 0)
        #expect(run.stderrLines == ["root.json: schema-free json: __collections__ 1 (1 record, 0 errors, 0 warnings); valid"])
        let jsonl = try box.ferry(["convert", "--schema-free", "root.json", "--to", "jsonl"])
        #expect(jsonl.status == 0)
        // A collection keyed by document id: each member is a record (`people`'s value).
        #expect(jsonl.stdout == #"{"$collection":"__collections__","docA":{"name":"john","__collections__":{}}}"# + "\n")
    }

    @Test func schemaFreeReadsTheFirestoreSampleRootData() throws {
        guard let corpus = Fixtures.corpus("domain-firestore-export") else {
            print("skipped: corpus domain-firestore-export absent")
            return
        }
        let input = corpus.appendingPathComponent("jloosli-node-firestore-import-export/sampleRootData.json").path
        let run = try runFerry(["validate", "--schema-free", input])
        #expect(run.status == 0)
        #expect(run.stderr == "\(input): schema-free json: __collections__ 2 (2 records, 0 errors, 0 warnings); valid\n")
    }

    @Test(arguments: [["--domain", "notes"], ["--schema-version", "1"], ["--to-version", "2"], ["--map", "m.json"]])
    func schemaFreeExcludesDomainOptions(other: [String]) throws {
        let box = try Sandbox()
        try box.write("x.json", "[]")
        let run = try box.ferry(["convert", "--schema-free", "x.json", "-o", "y.json"] + other)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--schema-free and \(other[0]) exclude each other: plain records have no domain or version"))
    }

    /// Not in migrate's: a migration needs a domain (CommandHelpTests).
    @Test(arguments: ["convert", "validate", "inspect"])
    func schemaFreeIsInHelp(command: String) throws {
        let run = try runFerry([command, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--schema-free"))
    }
}
