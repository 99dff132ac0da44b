import FerryTestSupport
import Foundation
import Testing

/// Firestore export layouts end to end, on exports written by `bench/gen_vocabulary.py 2 3
/// --indent 2` (Fixtures/firestore: the same 2 books x 3 words as the flat envelope, in both
/// layouts) and on hand-made exports with problems two and three levels deep.
@Suite struct FirestoreExportCLITests {
    /// Each layout migrates to the bytes the flat envelope of the same words migrates to.
    @Test(arguments: ["flat.json", "node-firestore.json", "backup-restore.json"])
    func generatedExportMigratesToTheFlatEnvelopesOutput(layout: String) throws {
        let box = try Sandbox()
        try box.write(layout, try Fixtures.text("firestore/\(layout)", testFile: #filePath))
        let run = try box.ferry(["migrate", layout, "--to-version", "2", "-o", "v2.json"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "\(layout): vocabulary v1 -> v2: wordBooks 2, words 6 (8 records, 0 errors, 0 warnings) -> v2.json"
        ])
        expectGolden(try box.text("v2.json"), "firestore/vocabulary-v2.json")
    }

    /// node-firestore-import-export: a word with a sub-collection of its own (depth 3), words as a
    /// list, words under a word; every problem at its line, column and pointer, as before
    /// documents were located one by one.
    @Test func nodeLayoutProblemsAtEveryDepth() throws {
        let name = "node-depth3-errors.json"
        let box = try Sandbox()
        try box.write(name, try Fixtures.text("firestore/\(name)", testFile: #filePath))
        let run = try box.ferry(["validate", name])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            #"\#(name):24:25: error: /__collections__/wordBooks/b1/__collections__/words/w1/__collections__/examples/e1: unknown collection examples for domain vocabulary v1 (its collections: wordBooks, words); its records are skipped (id "e1") [invalid-value]"#,
            #"\#(name):32:29: error: /__collections__/wordBooks/b1/__collections__/words/w2/studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "w2") [invalid-value]"#,
            #"\#(name):41:29: error: /__collections__/wordBooks/b1/__collections__/words/w3/wordBookID: wordBookID "other" differs from its parent word book "b1" (id "w3") [invalid-value]"#,
            #"\#(name):50:32: error: /__collections__/wordBooks/b1/__collections__/words/w4/kanjiImageURL: kanjiImageURL "ftp://x" is not an absolute http(s) URL (or "") (id "w4") [invalid-value]"#,
            #"\#(name):53:19: error: /__collections__/wordBooks/b1/__collections__/words/w5/timestamp: timestamp is missing (required in Word) (id "w5") [missing-field]"#,
            #"\#(name):55:29: error: /__collections__/wordBooks/b1/__collections__/words/w5/studyState: studyState: expected an integer, found "x" (id "w5") [type-error]"#,
            #"\#(name):69:21: error: /__collections__/wordBooks/b2/__collections__/words/0/id: duplicate id "w1" in words: first at line 15 (/__collections__/wordBooks/b1/__collections__/words/w1) [duplicate-id]"#,
            #"\#(name):101:13: error: /__collections__/wordBooks/b3/timestamp: timestamp is missing (required in WordBook) (id "b3") [missing-field]"#,
            #"\#(name):102:18: error: /__collections__/wordBooks/b3/title: title: expected a string, found 5 (id "b3") [type-error]"#,
            // The references the migration checks too: a word book that is not in the export (w3's
            // own wordBookID is reported once, above; the deep word's is filled in from its parent,
            // so the pointer names the word, which is in the input).
            #"\#(name):87:27: error: /__collections__/wordBooks/b2/__collections__/words/1/__collections__/words/deep: wordBookID "w9" names no word book of the dataset (id "deep") [dangling-reference]"#,
            #"\#(name): vocabulary v1: wordBooks 2, words 3 (5 of 12 records valid, 10 errors, 0 warnings); invalid"#,
        ])
        let lenient = try box.ferry(["migrate", name, "--to-version", "2", "--lenient", "--to", "jsonl"])
        #expect(lenient.status == 1)
        #expect(lenient.stdout.split(separator: "\n").map { line in
            line.split(separator: ",").prefix(3).joined(separator: ",")
        } == [
            #"{"domain": "vocabulary", "schemaVersion": 2}"#,
            #"{"$collection":"wordBooks","id":"b1","title":"One""#,
            #"{"$collection":"words","id":"w1","wordBookID":"b1""#,
            #"{"$collection":"words","id":"w2","wordBookID":"b1""#,
            #"{"$collection":"wordBooks","id":"b2","title":"Two""#,
            #"{"$collection":"words","id":"w9","wordBookID":"b2""#,
        ])
        #expect(lenient.stderrLines.filter { !$0.contains(": error: ") } == [
            #"\#(name):18:28: warning: /__collections__/wordBooks/b1/__collections__/words/w1/timestamp: timestamp has 123456789 nanoseconds; cut to milliseconds (2023-11-14T22:13:21.123Z) (id "w1") [lossy-precision]"#,
            #"\#(name):32:29: warning: /__collections__/wordBooks/b1/__collections__/words/w2/studyState: studyState 7 is not 0, 1 or 2; set to "undefined" (id "w2") [lossy-change]"#,
            #"\#(name): vocabulary v1 -> v2: wordBooks 2, words 3 (5 of 12 records passed, 9 errors, 2 warnings) -> standard output"#,
        ])
        #expect(lenient.errors.contains(
            #"\#(name):50:32: error: /__collections__/wordBooks/b1/__collections__/words/w4/kanjiImageURL: kanjiImageURL "ftp://x" is not an absolute http(s) URL (or "") (id "w4") [invalid-value]"#))
    }

    /// firestore-backup-restore: a word with a `subCollection` of its own (depth 3), a top-level
    /// `subCollection`, a duplicate id across books.
    @Test func backupRestoreLayoutProblemsAtEveryDepth() throws {
        let name = "backup-restore-depth3-errors.json"
        let box = try Sandbox()
        try box.write(name, try Fixtures.text("firestore/\(name)", testFile: #filePath))
        let run = try box.ferry(["validate", name])
        #expect(run.status == 1)
        #expect(run.stderrLines == [
            #"\#(name):21:27: error: /wordBooks/k1/subCollection/wordBooks~1k1~1words/b/studyState: studyState 9 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "b") [invalid-value]"#,
            #"\#(name):28:23: error: /wordBooks/k1/subCollection/wordBooks~1k1~1words/b/subCollection/wordBooks~1k1~1words~1b~1notes/n1: unknown collection wordBooks/k1/words/b/notes for domain vocabulary v1 (its collections: wordBooks, words); its records are skipped (id "n1") [invalid-value]"#,
            #"\#(name):34:16: error: /wordBooks/k1/subCollection/wordBooks~1k1~1words/c/timestamp: timestamp is missing (required in Word) (id "c") [missing-field]"#,
            #"\#(name):49:16: error: /wordBooks/k2/subCollection/wordBooks~1k2~1words/a: duplicate id "a" in words: first at line 11 (/wordBooks/k1/subCollection/wordBooks~1k1~1words/a) [duplicate-id]"#,
            #"\#(name):52:27: error: /wordBooks/k2/subCollection/wordBooks~1k2~1words/a/wordBookID: wordBookID "k1" differs from its parent word book "k2" (id "a") [invalid-value]"#,
            #"\#(name): vocabulary v1: wordBooks 2, words 2 (4 of 8 records valid, 5 errors, 0 warnings); invalid"#,
        ])
    }
}
