import FerryTestSupport
import Foundation
import Testing

/// A diagnostic about a document of a Firestore export names it by its key, not by its place
/// among its collection's members: every pointer resolves in the input (RFC 6901), and a
/// duplicate's pointer and its "first at" pointer are those of two documents; in the
/// firestore-backup-restore layout (collections keyed by document id, `subCollection` maps) and
/// the node-firestore one (`__collections__`).
@Suite struct FirestorePointerCLITests {
    struct Layout: CustomStringConvertible, Sendable {
        let name: String
        /// The export: two word books, one with a word whose studyState is wrong, a second word
        /// that repeats its id and a third whose timestamp is out of range (its message names
        /// the field inside the word, not the word's place in the export); then a second book
        /// repeating the first's `id` field.
        let text: String
        let errors: [String]
        var description: String { name }
    }

    static let book = #""title": "t", "timestamp": {"_seconds": 1, "_nanoseconds": 0}"#
    static func word(_ state: Int, id: String? = nil, nanoseconds: Int = 0) -> String {
        (id.map { #""id": "\#($0)", "# } ?? "")
            + #""meaningText": "m", "ganaText": "g", "kanjiText": "k", "studyState": \#(state), "timestamp": {"_seconds": 1, "_nanoseconds": \#(nanoseconds)}"#
    }

    static let layouts = [
        Layout(name: "backup-restore", text: """
            {"wordBooks": {
              "b1": {\(book), "subCollection": {"wordBooks/b1/words": {
                "w1": {\(word(9))},
                "w2": {\(word(0, id: "w1"))},
                "w3": {\(word(0, nanoseconds: 2500000000))}}}},
              "b2": {"id": "b1", \(book)}}}

            """, errors: [
                #"in.json:3:81: error: /wordBooks/b1/subCollection/wordBooks~1b1~1words/w1/studyState: studyState 9 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "w1") [invalid-value]"#,
                #"in.json:4:18: error: /wordBooks/b1/subCollection/wordBooks~1b1~1words/w2/id: duplicate id "w1" in words: first at line 3 (/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1) [duplicate-id]"#,
                #"in.json:5:129: error: /wordBooks/b1/subCollection/wordBooks~1b1~1words/w3/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "w3") [out-of-range]"#,
                #"in.json:6:16: error: /wordBooks/b2/id: duplicate id "b1" in wordBooks: first at line 2 (/wordBooks/b1) [duplicate-id]"#,
            ]),
        Layout(name: "node-firestore", text: """
            {"__collections__": {"wordBooks": {
              "b1": {\(book), "__collections__": {"words": {
                "w1": {\(word(9))},
                "w2": {\(word(0, id: "w1"))},
                "w3": {\(word(0, nanoseconds: 2500000000))}}}},
              "b2": {"id": "b1", \(book)}}}}

            """, errors: [
                #"in.json:3:81: error: /__collections__/wordBooks/b1/__collections__/words/w1/studyState: studyState 9 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id "w1") [invalid-value]"#,
                #"in.json:4:18: error: /__collections__/wordBooks/b1/__collections__/words/w2/id: duplicate id "w1" in words: first at line 3 (/__collections__/wordBooks/b1/__collections__/words/w1) [duplicate-id]"#,
                #"in.json:5:129: error: /__collections__/wordBooks/b1/__collections__/words/w3/timestamp/_nanoseconds: timestamp/_nanoseconds is out of range (nanoseconds 0...999999999, years 0001...9999) (id "w3") [out-of-range]"#,
                #"in.json:6:16: error: /__collections__/wordBooks/b2/id: duplicate id "b1" in wordBooks: first at line 2 (/__collections__/wordBooks/b1) [duplicate-id]"#,
            ]),
    ]

    /// The value at an RFC 6901 pointer, nil when it names none.
    static func resolve(_ pointer: Substring, in document: Any) -> Any? {
        var value: Any? = document
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = value as? [String: Any] {
                value = object[key]
            } else if let array = value as? [Any], let index = Int(key), array.indices.contains(index) {
                value = array[index]
            } else {
                return nil
            }
        }
        return value
    }

    @Test(arguments: layouts)
    func pointersNameDocumentsByKey(_ layout: Layout) throws {
        let box = try Sandbox()
        try box.write("in.json", layout.text)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.json", "--domain", "vocabulary", "--jobs", jobs])
            #expect(run.errors == layout.errors, "\(layout) --jobs \(jobs)")
            #expect(run.status == 1)
        }
        let document = try JSONSerialization.jsonObject(with: Data(layout.text.utf8))
        for error in layout.errors {
            for pointer in error.matches(of: /(?:: |\()(\/[^ :)]+)/).map(\.1) {
                #expect(Self.resolve(pointer, in: document) != nil, "\(pointer) in \(layout)")
            }
        }
    }
    /// A document whose id is only its key, repeated in a second book: the duplicate's pointer
    /// names the second document itself (it has no `id` member to point at), and resolves.
    @Test(arguments: [
        ("backup-restore", """
            {"wordBooks": {
              "b1": {\(book), "subCollection": {"wordBooks/b1/words": {
                "w1": {\(word(0))}}}},
              "b2": {\(book), "subCollection": {"wordBooks/b2/words": {
                "w1": {\(word(0))}}}}}}

            """, #"in.json:5:11: error: /wordBooks/b2/subCollection/wordBooks~1b2~1words/w1: duplicate id "w1" in words: first at line 3 (/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1) [duplicate-id]"#),
        ("node-firestore", """
            {"__collections__": {"wordBooks": {
              "b1": {\(book), "__collections__": {"words": {
                "w1": {\(word(0))}}}},
              "b2": {\(book), "__collections__": {"words": {
                "w1": {\(word(0))}}}}}}}

            """, #"in.json:5:11: error: /__collections__/wordBooks/b2/__collections__/words/w1: duplicate id "w1" in words: first at line 3 (/__collections__/wordBooks/b1/__collections__/words/w1) [duplicate-id]"#),
        // The same key twice in one collection: both documents have the same pointer, so the
        // first is named by its line alone.
        ("backup-restore, one key twice", """
            {"wordBooks": {
              "b1": {\(book)},
              "b1": {\(book)}}}

            """, #"in.json:3:9: error: /wordBooks/b1: duplicate id "b1" in wordBooks: first at line 2 [duplicate-id]"#),
        ("node-firestore, one key twice", """
            {"__collections__": {"wordBooks": {
              "b1": {\(book)},
              "b1": {\(book)}}}}

            """, #"in.json:3:9: error: /__collections__/wordBooks/b1: duplicate id "b1" in wordBooks: first at line 2 [duplicate-id]"#),
    ])
    func aDuplicateKeyNamesTheDocument(_ layout: String, _ text: String, _ error: String) throws {
        let box = try Sandbox()
        try box.write("in.json", text)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.json", "--domain", "vocabulary", "--jobs", jobs])
            #expect(run.errors == [error], "\(layout) --jobs \(jobs)")
            #expect(run.status == 1)
        }
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8))
        for pointer in error.matches(of: /(?:: |\()(\/[^ :)]+)/).map(\.1) {
            #expect(Self.resolve(pointer, in: document) != nil, "\(pointer) in \(layout)")
        }
    }

    /// Documents read whole from their bytes (the typed path takes a word book with its words when
    /// nothing is wrong with any of them) are named as any other: a later duplicate of an id from
    /// a member `id` on a line of its own says that line and the document's pointer, and a word
    /// whose book path names a book that has another id names no book (in node-firestore a word's
    /// book is its parent's id). The same exports read by the general path gave these messages.
    @Test(arguments: [
        ("backup-restore", """
            {"wordBooks": {
              "b1":
                {"title": "t",
                 "id": "b1", "timestamp": {"_seconds": 1, "_nanoseconds": 0},
                 "subCollection": {"wordBooks/b1/words": {"w1": {\(word(0))}}}},
              "b2": {"id": "b1", \(book), "subCollection": {"wordBooks/b2/words": {
                "w2": {\(word(1, id: "w1"))}}}}}}

            """, [
                #"in.json:6:16: error: /wordBooks/b2/id: duplicate id "b1" in wordBooks: first at line 4 (/wordBooks/b1) [duplicate-id]"#,
                #"in.json:7:18: error: /wordBooks/b2/subCollection/wordBooks~1b2~1words/w2/id: duplicate id "w1" in words: first at line 5 (/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1) [duplicate-id]"#,
                #"in.json:7:11: error: /wordBooks/b2/subCollection/wordBooks~1b2~1words/w2: wordBookID "b2" names no word book of the dataset (id "w1") [dangling-reference]"#,
            ]),
        ("node-firestore", """
            {"__collections__": {"wordBooks": {
              "b1":
                {"title": "t",
                 "id": "b1", "timestamp": {"_seconds": 1, "_nanoseconds": 0},
                 "__collections__": {"words": {"w1": {\(word(0))}}}},
              "b2": {"id": "b1", \(book), "__collections__": {"words": {
                "w2": {\(word(1, id: "w1"))}}}}}}}

            """, [
                #"in.json:6:16: error: /__collections__/wordBooks/b2/id: duplicate id "b1" in wordBooks: first at line 4 (/__collections__/wordBooks/b1) [duplicate-id]"#,
                #"in.json:7:18: error: /__collections__/wordBooks/b2/__collections__/words/w2/id: duplicate id "w1" in words: first at line 5 (/__collections__/wordBooks/b1/__collections__/words/w1) [duplicate-id]"#,
            ]),
    ])
    func documentsReadWholeAreNamedAsAnyOther(_ layout: String, _ text: String, _ errors: [String]) throws {
        let box = try Sandbox()
        try box.write("in.json", text)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.json", "--domain", "vocabulary", "--jobs", jobs])
            #expect(run.errors == errors, "\(layout) --jobs \(jobs)")
            #expect(run.status == 1)
        }
    }

    /// A bundle's JSON member keyed by document id: a key given twice is named as in a plain file
    /// (these records are read the usual way there, not whole from their bytes).
    @Test func aKeyTwiceInABundleMemberIsNamedAsInAPlainFile() throws {
        let box = try Sandbox()
        let data = #"{"wordBooks": {"b1": {"title": "T", "timestamp": {"_seconds": 1, "_nanoseconds": 0}}, "b1": {"title": "U", "timestamp": {"_seconds": 2, "_nanoseconds": 0}}}}"# + "\n"
        try box.write("bundle/data/wordBooks.json", data)
        try box.write("bundle/manifest.json", #"{"bundleVersion": 1, "domain": "vocabulary", "schemaVersion": 1, "createdAt": "2024-01-01T00:00:00Z", "generator": "x", "collections": {"wordBooks": {"path": "data/wordBooks.json", "format": "json", "count": 2}}, "files": [{"path": "data/wordBooks.json", "size": 158, "sha256": "1d9f259b572f9b901a1d67f3a5de74fc5556ed0698492e4506f94a5418475c74"}]}"#)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "bundle", "--jobs", jobs])
            #expect(run.errors == [
                #"bundle:data/wordBooks.json:1:93: error: /wordBooks/b1: duplicate id "b1" in wordBooks: first at line 1 [duplicate-id]"#,
            ], "--jobs \(jobs): \(run.stderr)")
            #expect(run.status == 1)
        }
    }

    /// A word of a Firestore export whose word book a filter (or a selection) left out is named
    /// in the warning as the validator names the document, not by its place among the words
    /// returned (`/words/0`): the document itself when its `wordBookID` comes from its parent, its
    /// `wordBookID` member when it has one; a word keyed by id in a top-level collection by its
    /// key. For both layouts, 1 and 2 jobs, a clean export and one with a word of the same book
    /// left out by `--lenient` (the typed lane hands no nested record on as values: these are
    /// the general path's records).
    @Test(arguments: ["backup-restore", "node-firestore"], [false, true])
    func aWordDanglingAfterAFilterIsNamedAsTheValidatorNamesIt(_ layout: String, _ withProblem: Bool) throws {
        func word(_ id: String, book: String? = nil, state: String = "0") -> String {
            (book.map { #""wordBookID": "\#($0)", "# } ?? "")
                + #""meaningText": "m-\#(id)", "ganaText": "g", "kanjiText": "k", "studyState": \#(state), "timestamp": {"_seconds": 1, "_nanoseconds": 0}"#
        }
        let words = [#""w1": {\#(word("w1"))}"#, #""w2": {\#(word("w2", book: "b1"))}"#]
            + (withProblem ? [#""w9": {\#(word("w9", state: #""x""#))}"#] : [])
        let nested = words.joined(separator: ",\n    ")
        let prefix: String
        let text: String
        if layout == "backup-restore" {
            prefix = "/wordBooks/b1/subCollection/wordBooks~1b1~1words"
            text = """
                {"wordBooks": {
                  "b1": {"title": "t", "timestamp": {"_seconds": 1, "_nanoseconds": 0}, "subCollection": {"wordBooks/b1/words": {
                    \(nested)}}},
                  "b2": {"title": "u", "timestamp": {"_seconds": 2, "_nanoseconds": 0}}},
                 "words": {"w3": {\(word("w3", book: "b1"))}}}

                """
        } else {
            prefix = "/__collections__/wordBooks/b1/__collections__/words"
            text = """
                {"__collections__": {"wordBooks": {
                  "b1": {"title": "t", "timestamp": {"_seconds": 1, "_nanoseconds": 0}, "__collections__": {"words": {
                    \(nested)}}},
                  "b2": {"title": "u", "timestamp": {"_seconds": 2, "_nanoseconds": 0}}},
                 "words": {"w3": {\(word("w3", book: "b1"))}}}}

                """
        }
        let top = layout == "backup-restore" ? "/words" : "/__collections__/words"
        func warning(_ needle: String, _ pointer: String, _ id: String, _ dropping: String) -> String {
            #"in.json:\#(position(of: needle, in: text)): warning: \#(pointer): wordBookID "b1" names no word book of the dataset after \#(dropping) (id "\#(id)") [dangling-reference]"#
        }
        func warnings(_ dropping: String) -> [String] {
            [
                warning(#"{"meaningText": "m-w1""#, "\(prefix)/w1", "w1", dropping),
                warning(#""b1", "meaningText": "m-w2""#, "\(prefix)/w2/wordBookID", "w2", dropping),
                warning(#""b1", "meaningText": "m-w3""#, "\(top)/w3/wordBookID", "w3", dropping),
            ]
        }
        let problem = withProblem
            ? [#"in.json:\#(position(of: #""x""#, in: text)): error: \#(prefix)/w9/studyState: studyState: expected an integer, found "x" (id "w9") [type-error]"#]
            : []
        let box = try Sandbox()
        try box.write("in.json", text)
        let lenient = withProblem ? ["--lenient"] : []
        for jobs in ["1", "2"] {
            let filtered = try box.ferry(["convert", "in.json", "--domain", "vocabulary", "--where", #"wordBooks: title == "u""#,
                                          "--jobs", jobs, "-o", "out.json"] + lenient)
            #expect(filtered.diagnostics == problem + warnings("filtering (--where)"), "\(layout) --jobs \(jobs)")
            #expect(filtered.status == (withProblem ? 1 : 0), "\(layout) --jobs \(jobs)")
            // Skipping the first record of each collection leaves out the word book and the first
            // word: the other words dangle, named as the filter names them.
            let selected = try box.ferry(["convert", "in.json", "--domain", "vocabulary", "--skip", "1",
                                          "--jobs", jobs, "-o", "out.json"] + lenient)
            #expect(selected.diagnostics.filter { $0.contains("[dangling-reference]") }
                == Array(warnings("selecting records (--skip, --limit, --sample)").dropFirst()), "\(layout) --jobs \(jobs)")
        }
        // The validator names the same documents: a field broken in each word is under the
        // pointer the warning gives the word (the word itself, or its `wordBookID`'s parent).
        try box.write("broken.json", text.replacingOccurrences(of: #""studyState": 0"#, with: #""studyState": 7"#))
        let validated = try box.ferry(["validate", "broken.json", "--domain", "vocabulary"])
        let broken = validated.errors.compactMap { $0.firstMatch(of: #/error: (/[^ :]+)/studyState: studyState 7 /#).map { String($0.1) } }
        #expect(broken == ["\(prefix)/w1", "\(prefix)/w2", "\(top)/w3"], "\(validated.stderr)")
        let named = warnings("filtering (--where)").compactMap { $0.firstMatch(of: #/warning: (/[^ :]+): /#).map { String($0.1) } }
            .map { $0.hasSuffix("/wordBookID") ? String($0.dropLast("/wordBookID".count)) : $0 }
        #expect(named == broken)
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8))
        for line in warnings("filtering (--where)") {
            for pointer in line.matches(of: /warning: (\/[^ :]+)/).map(\.1) {
                #expect(Self.resolve(pointer, in: document) != nil, "\(pointer) in \(layout)")
            }
        }
    }
}
