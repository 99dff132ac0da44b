import FerryTestSupport
import Foundation
import Testing

/// `--lenient` writes the valid records and reports the rest: a record the output's format cannot
/// hold (a control character in XML) is one of the rest, reported at its field and left out,
/// whether XML is the output or a bundle's data format, with any number of jobs.
@Suite struct LeftOutRecordCLITests {
    /// The notes V2 sample as JSON Lines with U+0001 at the start of the second record's title;
    /// returns the diagnostic the writer gives for it.
    private static func input(in box: Sandbox) throws -> String {
        try box.write("in.json", GeneratedBackups.json(domain: "notes", version: 2))
        #expect(try box.ferry(["convert", "in.json", "-o", "plain.jsonl", "--quiet"]).status == 0)
        var lines = String(decoding: try box.bytes("plain.jsonl"), as: UTF8.self).components(separatedBy: "\n")
        let line = lines[2]
        let title = try #require(line.range(of: #""title":""#))
        let id = try #require(line.range(of: #""id":""#).map { line[$0.upperBound...].prefix { $0 != "\"" } })
        // The value's opening quote, counted in Unicode scalars as columns are.
        let column = line[..<title.upperBound].unicodeScalars.count
        lines[2] = line.replacingCharacters(in: title, with: #""title":"\u0001"#)
        try box.write("in.jsonl", lines.joined(separator: "\n"))
        let collection = try #require(line.range(of: #""$collection":""#).map { line[$0.upperBound...].prefix { $0 != "\"" } })
        return "in.jsonl:3:\(column): error: /\(collection)/1/title: U+0001 cannot be written in XML 1.0 (id \"\(id)\") [invalid-value]"
    }

    /// The records of the one file a `validate --report json` checked.
    private static func records(_ report: String) -> Int? {
        let root = try? JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
        return ((root?["files"] as? [[String: Any]])?.first)?["records"] as? Int
    }

    @Test(arguments: [["-o", "out.xml"], ["-o", "out.tar", "--data-format", "xml"]], ["1", "2"])
    func aRecordXMLCannotHoldIsLeftOutAndReported(output: [String], jobs: String) throws {
        let box = try Sandbox()
        let expected = try Self.input(in: box)
        let all = try box.ferry(["validate", "plain.jsonl", "--report", "json"])
        let total = try #require(Self.records(all.stdout))
        let run = try box.ferry(["convert", "in.jsonl"] + output + ["--lenient", "--jobs", jobs])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderrLines.filter { $0.contains("error:") } == [expected], "\(run.stderr)")
        let check = try box.ferry(["validate", output[1], "--report", "json"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(Self.records(check.stdout) == total - 1)
        // Without --lenient the same record stops the run, and nothing is written.
        let strict = try box.ferry(["convert", "in.jsonl", "-o", "strict.xml", "--jobs", jobs])
        #expect(strict.status == 1)
        #expect(strict.stderrLines.first == expected)
        #expect(!FileManager.default.fileExists(atPath: box.path + "/strict.xml"))
    }

    /// A record that names one left out is not written either (the output would not validate):
    /// it is held and dropped with a warning, as a record naming one with errors is.
    @Test(arguments: [
        ("pet-story", #"{"$collection":"members","id":"m1","name":"Pet 1","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"bad \u0001","createdAt":"2023-01-10T10:05:00Z"}"#,
         #"{"$collection":"stories","id":"s1","caption":"nap","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["m1"]}"#,
         #"in.jsonl:2:132: error: /members/0/bio: U+0001 cannot be written in XML 1.0 (id "m1") [invalid-value]"#,
         #"in.jsonl:3:117: warning: /stories/0/taggedMemberIds/0: taggedMemberIds[0] "m1" names a member that is not written (it has errors), so no record naming it is written either (id "s1") [lossy-drop]"#,
         "pet-story v2: profiles 0, members 0, stories 0 (0 of 2 records passed, 1 error, 1 warning)"),
        ("vocabulary", #"{"$collection":"wordBooks","id":"b1","title":"Book \u0001","createdAt":"2020-09-13T12:26:40Z"}"#,
         #"{"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"one","meaningImageURL":"","ganaText":"いち","ganaImageURL":"","kanjiText":"一","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:40.250Z"}"#,
         #"in.jsonl:2:46: error: /wordBooks/0/title: U+0001 cannot be written in XML 1.0 (id "b1") [invalid-value]"#,
         #"in.jsonl:3:47: warning: /words/0/wordBookID: wordBookID "b1" names a word book that is not written (it has errors), so no record naming it is written either (id "w1") [lossy-drop]"#,
         "vocabulary v2: wordBooks 0, words 0 (0 of 2 records passed, 1 error, 1 warning)"),
    ], ["1", "2"])
    func aRecordNamingOneLeftOutIsNotWritten(cell: (domain: String, named: String, naming: String, error: String, warning: String, summary: String),
        jobs: String) throws
    {
        let box = try Sandbox()
        try box.write("in.jsonl", #"{"domain": "\#(cell.domain)", "schemaVersion": 2}"# + "\n" + cell.named + "\n" + cell.naming + "\n")
        for output in [["-o", "out.xml"], ["-o", "out.tar", "--data-format", "xml"]] {
            let run = try box.ferry(["convert", "in.jsonl"] + output + ["--lenient", "--jobs", jobs])
            #expect(run.status == 1)
            #expect(run.stderrLines == [cell.error, cell.warning, "in.jsonl: \(cell.summary) -> \(output[1])"], "\(output)")
            let check = try box.ferry(["validate", output[1]])
            #expect(check.status == 0, "\(output): \(check.stderr)")
        }
    }

    /// In a Firestore export a book and its words are one document, committed together: the
    /// words are dropped with the book all the same.
    @Test(arguments: ["1", "2"])
    func theWordsOfABookLeftOutAreNotWritten(jobs: String) throws {
        let box = try Sandbox()
        try box.write("export.json", DanglingAfterSelectionCLITests.firestoreWords.replacingOccurrences(of: "Book 2", with: #"Book \u0001"#))
        for output in [["-o", "out.xml"], ["-o", "out.tar", "--data-format", "xml", "--to-version", "2"]] {
            let run = try box.ferry(["convert", "export.json"] + output + ["--lenient", "--jobs", jobs])
            #expect(run.status == 1)
            let version = output.count > 2 ? "v1 -> v2" : "v1"
            #expect(run.stderrLines == [
                #"export.json:2:17: error: /wordBooks/1/title: U+0001 cannot be written in XML 1.0 (id "b2") [invalid-value]"#,
                #"export.json:2:166: warning: /words/1/wordBookID: wordBookID "b2" names a word book that is not written (it has errors), "#
                    + #"so no record naming it is written either (id "w2") [lossy-drop]"#,
                "export.json: vocabulary \(version): wordBooks 1, words 1 (2 of 4 records passed, 1 error, 1 warning) -> \(output[1])",
            ], "\(output)")
            #expect(try box.ferry(["validate", output[1]]).status == 0, "\(output)")
        }
    }
}

/// The JSON Lines and CSV writers leave out a record they cannot hold (a schema-free document's
/// scalar member: no object to carry its collection or its columns) under `--lenient`.
@Suite struct LeftOutScalarRecordCLITests {
    static let document = #"{"note": "hello", "things": [{"a": 1}, {"a": 2}], "more": [3]}"# + "\n"

    @Test(arguments: [
        ("out.jsonl", "a record of collection 'note' that is a string, not an object, cannot carry \"$collection\" in JSON Lines",
         "a record of collection 'more' that is a number, not an object, cannot carry \"$collection\" in JSON Lines",
         "{\"$collection\":\"things\",\"a\":1}\n{\"$collection\":\"things\",\"a\":2}\n"),
        ("out.csv", "a CSV row needs an object record, not a string", "a CSV row needs an object record, not a number", "a\r\n1\r\n2\r\n"),
    ])
    func scalarMembersAreLeftOut(output: String, first: String, second: String, written: String) throws {
        let box = try Sandbox()
        try box.write("in.json", Self.document)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["convert", "in.json", "--lenient", "-o", output, "--jobs", jobs])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderrLines == [
                "in.json:1:10: error: \(first) [invalid-value]",
                "in.json:1:60: error: \(second) [invalid-value]",
                "in.json: schema-free json: things 2 (2 of 4 records passed, 2 errors, 0 warnings) -> \(output)",
            ])
            #expect(String(decoding: try box.bytes(output), as: UTF8.self) == written)
        }
        // Without --lenient the first stops the run, and nothing is written.
        let strict = try box.ferry(["convert", "in.json", "-o", "strict-" + output])
        #expect(strict.status == 1)
        #expect(strict.stderrLines.first == "in.json:1:10: error: \(first) [invalid-value]")
        #expect(!box.exists("strict-" + output))
    }
}
