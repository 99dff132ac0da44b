import FerryTestSupport
import Foundation
import Testing

/// `ferry head` stops reading once every collection that may still come has its N records
/// (Docs/selection.md "Where head stops"): what it writes is what `convert --limit N` writes, a
/// record after the stop is never read (a broken one is not reported), a reference to a record
/// never read is not said dangling while one to a record read and left out is, and no bundle
/// check that needs the whole input runs.
@Suite struct HeadEarlyStopCLITests {
    /// Four word books, then twelve words (word `i` in book `i % 4`); word 7's meaning is
    /// `BREAKME`, which `broken(_:)` turns into a syntax error of the input's format.
    static var words: String {
        var lines = [#"{"domain": "vocabulary", "schemaVersion": 2}"#]
        for book in 0..<4 {
            lines.append(#"{"$collection":"wordBooks","id":"b\#(book)","title":"Book \#(book)","createdAt":"2020-09-13T12:26:40Z"}"#)
        }
        for word in 0..<12 {
            lines.append(Self.word("w\(word)", book: "b\(word % 4)", meaning: word == 7 ? "BREAKME" : "m\(word)"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func word(_ id: String, book: String, meaning: String = "m") -> String {
        #"{"$collection":"words","id":"\#(id)","wordBookID":"\#(book)","meaningText":"\#(meaning)","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:40Z"}"#
    }

    /// What `head -n 2` writes of `words` as JSON Lines: the first two books and words.
    static let firstTwo = """
        {"domain": "vocabulary", "schemaVersion": 2}
        {"$collection":"wordBooks","id":"b0","title":"Book 0","createdAt":"2020-09-13T12:26:40Z"}
        {"$collection":"wordBooks","id":"b1","title":"Book 1","createdAt":"2020-09-13T12:26:40Z"}
        \(word("w0", book: "b0", meaning: "m0"))
        \(word("w1", book: "b1", meaning: "m1"))

        """

    /// `BREAKME` (one place in the input) made a syntax error of the same length: an invalid JSON
    /// escape, an XML tag that never closes, a CSV quote that never closes.
    static func broken(_ bytes: [UInt8], format: String) throws -> [UInt8] {
        let marker = Array("BREAKME".utf8)
        let replacement = Array((format == "xml" ? "<REAKME" : format == "csv" ? "\"REAKME" : "\\qBREAK").utf8)
        let start = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        return Array(bytes[..<start]) + replacement + Array(bytes[(start + marker.count)...])
    }

    /// The inputs of `words` (`v.jsonl`, `v.json`, `v.xml`, the CSV folder `vcsv`, the bundle folder
    /// `vdir`, `v.tar`, `v.zip`), and their copies with word 7 broken (`broken-` in front).
    static let inputs = ["v.jsonl", "v.json", "v.xml", "vcsv", "vdir", "v.tar", "v.zip"]

    static func makeInputs(in box: Sandbox) throws {
        try box.write("v.jsonl", Self.words)
        for (input, options) in [("v.json", [String]()), ("v.xml", []), ("vcsv", ["--to", "csv", "-o", "vcsv/"]),
                                 ("vdir", ["--to", "tar", "-o", "vdir/"]), ("v.tar", [])] {
            let made = try box.ferry(["convert", "v.jsonl"] + (options.isEmpty ? ["-o", input] : options) + ["--quiet"])
            try #require(made.status == 0, "\(input): \(made.stderr)")
        }
        try box.write("broken-v.jsonl", bytes: try broken(box.bytes("v.jsonl"), format: "json"))
        try box.write("broken-v.json", bytes: try broken(box.bytes("v.json"), format: "json"))
        try box.write("broken-v.xml", bytes: try broken(box.bytes("v.xml"), format: "xml"))
        try box.write("broken-vcsv/wordBooks.csv", bytes: try box.bytes("vcsv/wordBooks.csv"))
        try box.write("broken-vcsv/words.csv", bytes: try broken(box.bytes("vcsv/words.csv"), format: "csv"))
        for name in try box.files(under: "vdir") {
            let bytes = try box.bytes("vdir/" + name)
            try box.write("broken-vdir/" + name, bytes: name == "data/words.json" ? try broken(bytes, format: "json") : bytes)
        }
        try box.write("broken-v.tar", bytes: try broken(box.bytes("v.tar"), format: "json"))
        guard ZipArchives.python != nil else { return }
        _ = try ZipArchives.fromTar(box.url.appendingPathComponent("v.tar"), to: box.url.appendingPathComponent("v.zip"))
        _ = try ZipArchives.fromTar(box.url.appendingPathComponent("broken-v.tar"), to: box.url.appendingPathComponent("broken-v.zip"))
    }

    /// A broken record after the Nth of every collection is never read: `head` writes what it
    /// writes of the whole input, says nothing and exits 0, while `convert --limit` (which reads
    /// everything) reports it. Every input format, one job and two.
    @Test(arguments: inputs, ["1", "2"])
    func aBrokenRecordAfterTheStopIsNotRead(input: String, jobs: String) throws {
        let box = try Sandbox()
        try Self.makeInputs(in: box)
        guard box.exists(input) else { return }
        let to = input == "v.jsonl" || input.hasSuffix("tar") || input.hasSuffix("zip") || input == "vdir" ? "jsonl"
            : input == "vcsv" ? "csv" : String(input.dropFirst(2))
        let whole = try box.ferry(["head", input, "-n", "2", "--to", to, "--jobs", jobs])
        let broken = try box.ferry(["head", "broken-" + input, "-n", "2", "--to", to, "--jobs", jobs])
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(input): \(whole.stderr)")
        #expect(broken.status == 0, "\(input) --jobs \(jobs)")
        #expect(broken.stderr.isEmpty, "\(input) --jobs \(jobs): \(broken.stderr)")
        #expect(broken.stdout == whole.stdout, "\(input) --jobs \(jobs)")
        if to == "jsonl" { #expect(broken.stdout == Self.firstTwo, "\(input)") }
        // Today's bytes: those of convert --limit, which reads the whole input.
        let convert = try box.ferry(["convert", input, "--limit", "2", "--to", to, "-o", "-", "--quiet"])
        #expect(broken.stdout == convert.stdout, "\(input)")
        let convertBroken = try box.ferry(["convert", "broken-" + input, "--limit", "2", "--to", to, "-o", "-", "--jobs", jobs])
        #expect(convertBroken.status == 3 && convertBroken.stdout.isEmpty, "\(input): \(convertBroken.stderr)")
    }

    /// A JSON document cut short after the third word: two words and two books are all `head -n 2`
    /// reads, so the cut is never met.
    @Test(arguments: ["1", "2"])
    func aDocumentCutAfterTheStopIsNotMet(jobs: String) throws {
        let box = try Sandbox()
        try box.write("v.jsonl", Self.words)
        #expect(try box.ferry(["convert", "v.jsonl", "-o", "v.json", "--quiet"]).status == 0)
        let text = try box.text("v.json")
        let cut = try #require(text.range(of: "\"w3\""))
        try box.write("cut.json", String(text[..<cut.lowerBound]))
        let run = try box.ferry(["head", "cut.json", "-n", "2", "--to", "jsonl", "--jobs", jobs])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout == Self.firstTwo)
        #expect(try box.ferry(["convert", "cut.json", "--limit", "2", "--to", "jsonl", "-o", "-"]).status == 3)
    }

    /// Words before their books: word w0 names b3, which is never read (head stops after b1), w1
    /// names b0, and w2 names b9, which is not in the input. `head` says nothing of either
    /// reference it cannot settle; `convert --limit 2` reads everything and says both.
    @Test(arguments: ["1", "2"])
    func aReferenceToARecordNotReadIsNotDangling(jobs: String) throws {
        let box = try Sandbox()
        var lines = [#"{"domain": "vocabulary", "schemaVersion": 2}"#, Self.word("w0", book: "b3"), Self.word("w1", book: "b0"),
                     Self.word("w2", book: "b9")]
        for book in 0..<4 {
            lines.append(#"{"$collection":"wordBooks","id":"b\#(book)","title":"Book \#(book)","createdAt":"2020-09-13T12:26:40Z"}"#)
        }
        try box.write("w.jsonl", lines.joined(separator: "\n") + "\n")
        let run = try box.ferry(["head", "w.jsonl", "-n", "2", "--jobs", jobs])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout == ([lines[0], lines[1], lines[2], lines[4], lines[5]].joined(separator: "\n") + "\n"))
        let convert = try box.ferry(["convert", "w.jsonl", "--limit", "2", "-o", "-", "--jobs", jobs])
        #expect(convert.status == 1)
        #expect(convert.stderrLines == [
            #"w.jsonl:4:47: error: /words/2/wordBookID: wordBookID "b9" names no word book of the dataset (id "w2") [dangling-reference]"#,
            #"w.jsonl:2:47: warning: /words/0/wordBookID: wordBookID "b3" names no word book of the dataset after selecting records (--skip, --limit, --sample) (id "w0") [dangling-reference]"#,
            "w.jsonl: note: nothing was written because of the errors above; --lenient writes the valid records [assumption]",
            "w.jsonl: vocabulary v2: wordBooks 2, words 2 (4 of 7 records passed, 1 error, 1 warning); nothing written",
        ])
    }

    /// Books before words: word w0 names b3, read and left out by the selection before the stop:
    /// the warning `convert --limit` gives, as `head` gave it before it stopped early.
    @Test(arguments: ["1", "2"])
    func aReferenceToARecordReadAndLeftOutIsAWarning(jobs: String) throws {
        let box = try Sandbox()
        var lines = [#"{"domain": "vocabulary", "schemaVersion": 2}"#]
        for book in 0..<4 {
            lines.append(#"{"$collection":"wordBooks","id":"b\#(book)","title":"Book \#(book)","createdAt":"2020-09-13T12:26:40Z"}"#)
        }
        lines += [Self.word("w0", book: "b3"), Self.word("w1", book: "b0"), Self.word("w2", book: "b9")]
        try box.write("w.jsonl", lines.joined(separator: "\n") + "\n")
        let run = try box.ferry(["head", "w.jsonl", "-n", "2", "--jobs", jobs])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            #"w.jsonl:6:47: warning: /words/0/wordBookID: wordBookID "b3" names no word book of the dataset after selecting records (--skip, --limit, --sample) (id "w0") [dangling-reference]"#,
        ])
        #expect(run.stdout == ([lines[0], lines[1], lines[2], lines[5], lines[6]].joined(separator: "\n") + "\n"))
    }

    /// A pet-story tar with media: `head -n 1` stops after the first story, and the media of the
    /// stories not read are not said to be orphans (no bundle check runs after the stop); it
    /// warns as before that a plain output leaves the media out. Nothing is left in `$TMPDIR`.
    @Test(arguments: ["1", "2"])
    func aBundleStoppedEarlyIsNotVerified(jobs: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        let made = try box.ferry(["convert", "docs", "--to-version", "2", "-o", "p.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let run = try box.ferry(["head", "p.tar", "-n", "1", "--to", "jsonl", "--jobs", jobs], environment: ["TMPDIR": box.path + "/tmp"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "p.tar: warning: 6 media files (media/MemberImages/m1.JPG, media/MemberImages/m2.png, ...) cannot go into a plain data file "
                + "and are left out; the records keep their paths. Write a bundle (-o NAME.tar, or --to tar -o DIR/) to keep them [lossy-drop]",
        ])
        let records = run.stdout.split(separator: "\n")
        #expect(records.count == 4, "\(run.stdout)")
        #expect(records.last?.hasPrefix(#"{"$collection":"stories","id":"s1""#) == true, "\(run.stdout)")
        #expect(try box.list("tmp") == [])
        let convert = try box.ferry(["convert", "p.tar", "--limit", "1", "--to", "jsonl", "-o", "-", "--quiet"])
        #expect(convert.stdout == run.stdout)
    }

    /// `-n 0` stops at once: the empty dataset, as before, and the broken word is not read.
    @Test func noRecordsReadsNoMore() throws {
        let box = try Sandbox()
        try Self.makeInputs(in: box)
        let run = try box.ferry(["head", "broken-v.jsonl", "-n", "0"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout == #"{"domain": "vocabulary", "schemaVersion": 2}"# + "\n")
    }

    /// An external adapter that prints two records and then hangs: `head -n 0` stops at the
    /// first record and ends the adapter, long before its silence would time out.
    @Test func anAdapterIsNotWaitedForAfterTheStop() throws {
        let box = try Sandbox()
        try box.writeAdapter("hanging", verbs: #"read) cat >/dev/null; echo '{"a":1}'; echo '{"a":2}'; exec sleep 60;;"#)
        try box.write("in.hanging", "anything\n")
        let path = box.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try box.ferry(["head", "in.hanging", "-n", "0", "--to", "jsonl", "--adapter-timeout", "50"], environment: ["PATH": path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty && run.stdout.isEmpty, "\(run.stderr)")
    }

    /// Schema-free records of one collection (a top-level JSON array, a CSV file) stop after N:
    /// a broken element or row later on is not read.
    @Test(arguments: ["json", "csv"], ["1", "2"])
    func schemaFreeRecordsStopAfterN(format: String, jobs: String) throws {
        let box = try Sandbox()
        let rows = (0..<50).map { $0 == 30 ? (format == "json" ? #"{"a": "\q"}"# : "30,\"open") : format == "json" ? #"{"a": \#($0)}"# : "\($0),x" }
        try box.write("t.\(format)", format == "json" ? "[" + rows.joined(separator: ",\n") + "]\n" : "a,b\n" + rows.joined(separator: "\n") + "\n")
        let run = try box.ferry(["head", "t.\(format)", "-n", "2", "--jobs", jobs])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout == (format == "json" ? "[\n  {\n    \"a\": 0\n  },\n  {\n    \"a\": 1\n  }\n]\n" : "a,b\r\n0,x\r\n1,x\r\n"))
    }
}
