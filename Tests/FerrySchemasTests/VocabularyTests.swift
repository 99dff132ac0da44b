import FerryCore
import FerrySchemas
import Testing

@Suite struct VocabularyMigrationTests {
    let book: Value = ["id": "b1", "title": "N5", "timestamp": ["_seconds": 1_543_579_505, "_nanoseconds": 120_000_000]]

    func word(_ state: Value = 1, timestamp: Value = ["_seconds": 0, "_nanoseconds": 0]) -> Value {
        [
            "id": "w1", "wordBookID": "b1", "meaningText": "cat", "kanjiText": "猫", "studyState": state,
            "timestamp": timestamp,
        ]
    }

    @Test func migratesBooksAndWords() throws {
        let result = try run(.vocabulary, from: 1, to: 2, [makeRecord("wordBooks", 0, book), makeRecord("words", 0, word())])
        #expect(result.diagnostics == [])
        #expect(result.records.map(\.value) == [
            ["id": "b1", "title": "N5", "createdAt": "2018-11-30T12:05:05.120Z"],
            [
                "id": "w1", "wordBookID": "b1", "meaningText": "cat", "meaningImageURL": "", "ganaText": "", "ganaImageURL": "",
                "kanjiText": "猫", "kanjiImageURL": "", "studyState": "success", "timestamp": "1970-01-01T00:00:00Z",
            ],
        ])
    }

    @Test func v1ToV1KeepsNanoseconds() throws {
        let fine: Value = ["id": "b1", "title": "N5", "timestamp": ["seconds": 5, "nanoseconds": 123_456_789]]
        let result = try run(.vocabulary, from: 1, to: 1, [makeRecord("wordBooks", 0, fine)])
        #expect(result.diagnostics == [])
        #expect(result.records.first?.value == ["id": "b1", "title": "N5", "timestamp": ["_seconds": 5, "_nanoseconds": 123_456_789]])
        let migrated = try run(.vocabulary, from: 1, to: 2, [makeRecord("wordBooks", 0, fine, fields: ["/timestamp": (3, 18)])])
        #expect(migrated.diagnostics == ["warning lossy-precision 3:18 /wordBooks/0/timestamp"])
        #expect(migrated.records.first?.value == ["id": "b1", "title": "N5", "createdAt": "1970-01-01T00:00:05.123Z"])
    }

    @Test func missingIDWordBookIDOrTimestampAreErrors() throws {
        let records = [
            makeRecord("words", 0, ["id": "", "wordBookID": .null, "studyState": 0, "timestamp": "2024-05-01T09:30:00Z"]),
            makeRecord("words", 1, ["id": "w2", "wordBookID": "b1", "studyState": 0, "timestamp": ""]),
            makeRecord("words", 2, ["id": "w3", "wordBookID": "b1", "studyState": 0]),
        ]
        let result = try run(.vocabulary, from: 1, to: 2, records)
        // Invalid records still have their references checked: no word book b1 is in the dataset.
        #expect(result.diagnostics == [
            "error missing-field 2:3 /words/0/id", "error missing-field 2:3 /words/0/wordBookID",
            "error missing-field 2:3 /words/1/timestamp", "error missing-field 2:3 /words/2/timestamp",
            "error dangling-reference 2:3 /words/1/wordBookID", "error dangling-reference 2:3 /words/2/wordBookID",
        ])
        #expect(result.log.diagnostics.map(\.message) == [
            "id is missing", "wordBookID is missing", "timestamp is empty (required in Word)",
            "timestamp is missing (required in Word)", "wordBookID \"b1\" names no word book of the dataset",
            "wordBookID \"b1\" names no word book of the dataset",
        ])
    }

    @Test func unknownStudyStateIsAnErrorOrLenientUndefined() throws {
        let record = makeRecord("words", 0, word(7), fields: ["/studyState": (6, 19)])
        let strictish = try run(.vocabulary, from: 1, to: 2, [makeRecord("wordBooks", 0, book), record])
        #expect(strictish.diagnostics == ["error invalid-value 6:19 /words/0/studyState"])
        let lenient = try run(.vocabulary, from: 1, to: 2, [makeRecord("wordBooks", 0, book), record], mode: .lenient)
        #expect(lenient.diagnostics == ["warning lossy-change 6:19 /words/0/studyState"])
        #expect(lenient.records.last?.value.objectValue?["studyState"] == "undefined")
        #expect(try run(.vocabulary, from: 1, to: 2, [makeRecord("wordBooks", 0, book), record], mode: .strict).diagnostics == [
            "error invalid-value 6:19 /words/0/studyState"
        ])
    }

    @Test func v2WordsNeedAnExistingWordBookAndHTTPURLs() throws {
        let v2Word: Value = [
            "id": "w1", "wordBookID": "b9", "meaningText": "", "meaningImageURL": "https://example.com/a.png", "ganaText": "",
            "ganaImageURL": "ftp://x", "kanjiText": "", "kanjiImageURL": "", "studyState": "fail",
            "timestamp": "2024-05-01T09:30:00Z",
        ]
        let result = try run(.vocabulary, from: 2, to: 2, [makeRecord("words", 0, v2Word)])
        #expect(result.diagnostics == ["error invalid-value 2:3 /words/0/ganaImageURL", "error dangling-reference 2:3 /words/0/wordBookID"])
        var object = v2Word.objectValue!
        object["ganaImageURL"] = "http://example.com"
        let dangling = try run(.vocabulary, from: 2, to: 2, [makeRecord("words", 0, .object(object), fields: ["/wordBookID": (2, 30)])])
        #expect(dangling.diagnostics == ["error dangling-reference 2:30 /words/0/wordBookID"])
        #expect(FieldReader.isAbsoluteHTTPURL("HTTPS://Example.com/x"))
        #expect(!FieldReader.isAbsoluteHTTPURL("https://"))
        #expect(!FieldReader.isAbsoluteHTTPURL("https://a b"))
    }

    /// The URL rule, case by case: scheme (any case), no space or control byte, and a host (the
    /// last non-empty part before `/`, `?` or `#` between `@`s) that is not empty and does not
    /// start with `:`.
    @Test(arguments: [
        ("", false), ("http://", false), ("https://", false), ("http://a", true), ("HTTPS://Example.com/x", true),
        ("hTtP://a?b", true), ("https://example.com:8080/p?q#f", true), ("https://a b", false), ("http://a\u{7F}", false),
        ("http://a\tb", false), ("http:/a", false), ("httpx://a", false), ("ftp://x", false), ("http://#", false),
        ("http://a#b", true), ("http://@", false), ("http://@@", false), ("http://user@", true), ("http://user@/p", true),
        ("http://@a", true), ("http://a@b@c", true), ("http://a@:80", false), ("http://:80", false), ("https://é", true),
    ])
    func urlRule(text: String, admitted: Bool) {
        #expect(FieldReader.isAbsoluteHTTPURL(text) == admitted)
        #expect(FieldType.url.admits(text) == (text.isEmpty || admitted))
    }
}

@Suite struct FirestoreLayoutTests {
    /// node-firestore-import-export: `{"__collections__": {"wordBooks": {"b1": {..., "__collections__": {"words": {...}}}}}}`,
    /// which the JSON reader yields as one record of collection `__collections__` with documentID `wordBooks`.
    @Test func nodeFirestoreImportExportRoot() throws {
        let documents: Value = [
            "b1": [
                "title": "N5", "timestamp": ["__datatype__": "timestamp", "value": ["_seconds": 1_543_579_505, "_nanoseconds": 0]],
                "__collections__": [
                    "words": [
                        "w1": [
                            "meaningText": "cat", "studyState": 2,
                            "timestamp": ["__datatype__": "timestamp", "value": ["_seconds": 10, "_nanoseconds": 0]],
                            "__collections__": [:],
                        ],
                        "w2": ["studyState": 0, "timestamp": ["_seconds": 11, "_nanoseconds": 0], "__collections__": [:]],
                    ]
                ],
            ]
        ]
        let record = makeRecord("__collections__", 0, documents, line: 2, documentID: "wordBooks",
            fields: ["/b1": (3, 11), "/b1/__collections__/words/w2": (12, 15), "/b1/__collections__/words/w2/studyState": (12, 30)])
        let result = try run(.vocabulary, from: 1, to: 2, [record])
        #expect(result.diagnostics == [])
        #expect(result.records.map(\.collection) == ["wordBooks", "words", "words"])
        #expect(result.records.map(\.location.recordIndex) == [0, 0, 1])
        #expect(result.records.map(\.location.line) == [3, 3, 12])
        #expect(result.records[0].value == ["id": "b1", "title": "N5", "createdAt": "2018-11-30T12:05:05Z"])
        #expect(result.records[2].value == [
            "id": "w2", "wordBookID": "b1", "meaningText": "", "meaningImageURL": "", "ganaText": "", "ganaImageURL": "",
            "kanjiText": "", "kanjiImageURL": "", "studyState": "undefined", "timestamp": "1970-01-01T00:00:11Z",
        ])
        // V1 -> V1 writes the plain Timestamp shape.
        let v1 = try run(.vocabulary, from: 1, to: 1, [record])
        #expect(v1.records[1].value.objectValue?["timestamp"] == ["_seconds": 10, "_nanoseconds": 0])
        #expect(v1.records[1].value.objectValue?["wordBookID"] == "b1")
        // A problem inside a sub-document points into the raw record.
        let broken = makeRecord("__collections__", 0, [
            "b1": ["title": "N5", "timestamp": "2024-01-01T00:00:00Z",
                "__collections__": ["words": ["w2": ["studyState": "x", "timestamp": ["_seconds": 1, "_nanoseconds": 0]]]]],
        ], documentID: "wordBooks", fields: ["/b1/__collections__/words/w2/studyState": (12, 30)])
        let bad = try run(.vocabulary, from: 1, to: 2, [broken])
        #expect(bad.diagnostics == ["error type-error 12:30 /__collections__/wordBooks/b1/__collections__/words/w2/studyState"])
    }

    /// firestore-backup-restore: a collection keyed by document id with `subCollection` path maps.
    @Test func firestoreBackupRestoreSubCollection() throws {
        let book: Value = [
            "title": "N4", "timestamp": ["_seconds": 1_534_046_400, "_nanoseconds": 0],
            "subCollection": [
                "wordBooks/b2/words": [
                    "33J2A10u5902CXagoBP6": ["kanjiText": "犬", "studyState": 1, "timestamp": ["_seconds": 1_534_046_400, "_nanoseconds": 0]]
                ]
            ],
        ]
        let records = [makeRecord("wordBooks", 0, book, documentID: "b2")]
        let result = try run(.vocabulary, from: 1, to: 2, records)
        #expect(result.diagnostics == [])
        #expect(result.records.map { $0.value.objectValue?["id"] } == ["b2", "33J2A10u5902CXagoBP6"])
        #expect(result.records[1].value.objectValue?["wordBookID"] == "b2")

        // The same sub-collection at top level (as its own key, or under a top-level "subCollection").
        let topLevel = makeRecord("wordBooks/b2/words", 0,
            ["studyState": 1, "timestamp": ["_seconds": 1, "_nanoseconds": 0]], documentID: "w7")
        let underKey = makeRecord("subCollection", 0,
            ["w8": ["studyState": 1, "timestamp": ["_seconds": 1, "_nanoseconds": 0]]], documentID: "wordBooks/b2/words")
        let more = try run(.vocabulary, from: 1, to: 2, records + [topLevel, underKey])
        #expect(more.diagnostics == [])
        #expect(more.records.map { $0.value.objectValue?["id"] } == ["b2", "33J2A10u5902CXagoBP6", "w7", "w8"])
        #expect(more.records.map(\.location.recordIndex) == [0, 0, 1, 2])
    }

    @Test func documentIDFillsAMissingIDOnly() throws {
        let record = makeRecord("wordBooks", 0, ["id": "own", "title": "t", "timestamp": "2024-01-01T00:00:00Z"], documentID: "key")
        #expect(try run(.vocabulary, from: 1, to: 2, [record]).records.first?.value.objectValue?["id"] == "own")
    }

    @Test func parentMismatchIsAnError() throws {
        let record = makeRecord("wordBooks/b2/words", 0,
            ["wordBookID": "b3", "studyState": 1, "timestamp": ["_seconds": 1, "_nanoseconds": 0]], documentID: "w7")
        let result = try run(.vocabulary, from: 1, to: 1, [record])
        // The word names another book than its parent, and that book is not in the dataset: one
        // problem of one field, reported once (no dangling-reference at the same place too).
        #expect(result.diagnostics == [
            "error invalid-value 2:3 /wordBooks~1b2~1words/w7/wordBookID",
        ])
    }
}
