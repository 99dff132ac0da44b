import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

@Suite struct JSONDocumentReaderTests {
    static let envelope = """
        {
          "domain": "notes",
          "schemaVersion": 2,
          "wineTastingNotes": [
            {"id": "w1", "title": "샤토"},
            {"id": "w2"}
          ],
          "coffeeTastingNotes": [ {"id": "c1"} ],
          "k": ["가나", "다"]
        }

        """

    private func read(_ text: String, step: Int = 1 << 20, chunkSize: Int = 64 * 1024, options: ReadOptions = ReadOptions(fileName: "n.json")) throws -> [Record] {
        try drain(JSONDocumentReader(source: TrickleSource(text, step: step), options: options, chunkSize: chunkSize))
    }

    private func summary(_ records: [Record]) -> [String] {
        records.map { record in
            let position = record.location.position.map(\.description) ?? "-"
            return "\(record.collection ?? "nil")#\(record.location.recordIndex ?? -1)@\(position)"
        }
    }

    @Test func envelopeRecordsComeWithCollectionIndexAndPosition() throws {
        let reader = JSONDocumentReader(source: MemorySource(Self.envelope), options: ReadOptions(fileName: "n.json"))
        let first = try #require(try reader.next())
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
        #expect(first.value == ["id": .string("w1"), "title": .string("샤토")])
        #expect(first.location == SourceLocation(file: "n.json", line: 5, column: 5, collection: "wineTastingNotes", recordIndex: 0))
        let rest = try drain(reader)
        #expect(
            summary([first] + rest) == [
                "wineTastingNotes#0@5:5", "wineTastingNotes#1@6:5", "coffeeTastingNotes#0@8:27", "k#0@9:9", "k#1@9:15",
            ])
        #expect(rest.last?.value == .string("다"))
        #expect(try reader.next() == nil)
    }

    @Test func oneByteReadsGiveTheSameRecords() throws {
        let whole = try read(Self.envelope)
        for chunkSize in [1, 2, 3, 7, 64] {
            let trickled = try read(Self.envelope, step: 1, chunkSize: chunkSize)
            #expect(summary(trickled) == summary(whole), "chunk \(chunkSize)")
            #expect(trickled.map(\.value) == whole.map(\.value), "chunk \(chunkSize)")
            #expect(trickled.map(\.documentID) == whole.map(\.documentID))
        }
    }

    @Test func theFirstRecordComesBeforeTheSourceIsExhausted() throws {
        var text = "{\"domain\": \"notes\", \"wineTastingNotes\": [\n"
        for i in 0..<5000 {
            text += (i == 0 ? "" : ",\n") + "  {\"id\": \"w\(i)\", \"title\": \"\(String(repeating: "x", count: 40))\"}"
        }
        text += "\n]}\n"
        let source = TrickleSource(text, step: 4096)
        let reader = JSONDocumentReader(source: source, options: ReadOptions(), chunkSize: 4096)
        let first = try #require(try reader.next())
        #expect(first.value.objectValue?["id"] == .string("w0"))
        #expect(source.served <= 8192)
        #expect(source.served < source.total)
        var count = 1
        var last = first
        while let record = try reader.next() {
            count += 1
            last = record
        }
        #expect(count == 5000)
        #expect(last.location.recordIndex == 4999)
        #expect(last.location.line == 5001)
        #expect(last.location.column == 3)
        #expect(source.served == source.total)
    }

    @Test func firestoreCollectionsKeyedByDocumentID() throws {
        let records = try read(#"{"wordBooks": {"b1": {"title": "x"}, "b2": {"title": "y"}}, "words": {}}"#)
        #expect(records.count == 2)
        #expect(records[0].documentID == "b1")
        #expect(records[0].collection == "wordBooks")
        #expect(records[0].value == ["title": .string("x")])
        #expect(records[0].location.recordIndex == 0)
        #expect(records[0].location.position == TextPosition(line: 1, column: 22))
        #expect(records[1].documentID == "b2")
        #expect(records[1].location.recordIndex == 1)
    }

    @Test func otherShapes() throws {
        // A top-level array: records of options.collection.
        let array = try read("[1, {\"a\": 2}]", options: ReadOptions(collection: "things"))
        #expect(array.map(\.collection) == ["things", "things"])
        #expect(array.map(\.value) == [.number("1"), ["a": .number("2")]])
        #expect(array.map(\.location.position) == [TextPosition(line: 1, column: 2), TextPosition(line: 1, column: 5)])
        // A top-level scalar: one record.
        let scalar = try read("  \"hi\"  ", options: ReadOptions())
        #expect(scalar.count == 1)
        #expect(scalar[0].collection == nil)
        #expect(scalar[0].value == .string("hi"))
        #expect(scalar[0].location.position == TextPosition(line: 1, column: 3))
        // A scalar envelope member is one record; a domain that is not a string is one too.
        let reader = JSONDocumentReader(source: MemorySource(#"{"count": 5, "domain": 7, "schemaVersion": "2"}"#))
        let members = try drain(reader)
        #expect(members.map(\.collection) == ["count", "domain", "schemaVersion"])
        #expect(members.map(\.value) == [.number("5"), .number("7"), .string("2")])
        #expect(reader.header == DatasetHeader())
        // Empty envelope, empty array.
        #expect(try read("{}").isEmpty)
        #expect(try read(" [ ] ").isEmpty)
        // A byte order mark is skipped and positions start after it.
        let bom = try drain(JSONDocumentReader(source: MemorySource([0xEF, 0xBB, 0xBF] + Array("[7]".utf8))))
        #expect(bom.first?.location.position == TextPosition(line: 1, column: 2))
    }

    /// The JSON Lines hint names the `--from` value a compressed file needs, and is not given
    /// for a bundle's member, which its manifest names.
    @Test func theJSONLinesHintFitsTheInput() throws {
        func message(_ options: ReadOptions) throws -> String? {
            let reader = JSONDocumentReader(source: MemorySource(Array("{\"a\":1}\n{\"a\":2}\n".utf8)), options: options)
            return ferryError { _ = try drain(reader) }?.diagnostic.message
        }
        let base = "unexpected data after the top-level value; expected the end of the input, found '{'"
        #expect(try message(ReadOptions(fileName: "n.json")) == base + "; one JSON value a line is JSON Lines: read it with --from jsonl")
        #expect(try message(ReadOptions(fileName: "n.JSON.GZ")) == base + "; one JSON value a line is JSON Lines: read it with --from jsonl.gz")
        var member = ReadOptions(fileName: "b.tar")
        member.member = "data/n.json"
        #expect(try message(member) == base)
    }

    @Test func syntaxErrorsStopTheReadingWithTheirPosition() throws {
        let cases: [(String, Int, Int, String)] = [
            (#"{"a": [1, 2,]}"#, 1, 13, "trailing comma before ']'"),
            (#"{"a": [1, 2] "b": 1}"#, 1, 14, "expected ',' or '}' after object member, found '\"'"),
            ("{\"a\": [\n  {\"x\": 1]\n]}", 2, 10, "expected ',' or '}' after object member, found ']'"),
            (#"{"a": {"d1": 1,}}"#, 1, 16, "trailing comma before '}'"),
            (#"{"a": 1,}"#, 1, 9, "trailing comma before '}'"),
            (#"{"a": 1} []"#, 1, 10, "unexpected data after the top-level value; expected the end of the input, found '['"),
            ("[1]\n[2]\n", 2, 1, "unexpected data after the top-level value; expected the end of the input, found '['; one JSON value a line is JSON Lines: read it with --from jsonl"),
            ("{\"a\": 1}\r\n  {\"a\": 2}", 2, 3, "unexpected data after the top-level value; expected the end of the input, found '{'"),
            (#"{"a" 1}"#, 1, 6, "expected ':' after object key, found '1'"),
            ("{\"a\": [1, 2", 1, 12, "unexpected end of input, expected ',' or ']' after array element"),
            ("", 1, 1, "empty input: expected a JSON value"),
            ("[12a]", 1, 4, "expected ',' or ']' after array element, found 'a'"),
            ("[\"日本\", tru]", 1, 8, "invalid literal: expected true, false or null"),
        ]
        for (text, line, column, message) in cases {
            for step in [1, 1000] {
                let reader = JSONDocumentReader(
                    source: TrickleSource(text, step: step), options: ReadOptions(fileName: "n.json"), chunkSize: 4)
                let error = try #require(ferryError { _ = try drain(reader) }, "\(text)")
                #expect(error.diagnostic.code == .malformedJSON, "\(text)")
                #expect(error.diagnostic.location.description == "n.json:\(line):\(column)", "\(text) step \(step)")
                #expect(error.diagnostic.message == message, "\(text)")
                // Reading stays stopped.
                #expect(ferryError { _ = try reader.next() }?.diagnostic.message == message)
            }
        }
    }

    @Test func recordsBeforeAnErrorAreDelivered() throws {
        let reader = JSONDocumentReader(source: MemorySource(#"{"a": [{"x": 1}, {"x": }]}"#))
        #expect(try reader.next()?.value == ["x": .number("1")])
        let error = try #require(ferryError { _ = try reader.next() })
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 24))
    }

    @Test func depthCountsTheEnvelope() throws {
        // Envelope (1) + collection array (2) + 510 levels = 512: accepted; one more is too deep.
        let ok = "{\"c\": [" + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "]}"
        #expect(try read(ok).count == 1)
        let deep = "{\"c\": [" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "]}"
        let error = try #require(ferryError { _ = try read(deep) })
        #expect(error.diagnostic.code == .tooDeep)
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 8 + 510))
    }

    @Test func aRecordPastTheSizeLimitIsTooLarge() throws {
        let text = "[\"" + String(repeating: "x", count: 5000) + "\"]"
        let reader = JSONDocumentReader(source: MemorySource(text), chunkSize: 256, maximumRecordSize: 1000)
        let error = try #require(ferryError { _ = try drain(reader) })
        #expect(error.diagnostic.code == .tooLarge)
        #expect(error.diagnostic.location.position == TextPosition(line: 1, column: 2))
        // A syntax error inside the part read is still reported as such.
        let broken = "[{\"a\" 1, \"b\": \"" + String(repeating: "x", count: 5000) + "\"}]"
        let second = JSONDocumentReader(source: MemorySource(broken), chunkSize: 256, maximumRecordSize: 1000)
        #expect(ferryError { _ = try drain(second) }?.diagnostic.code == .malformedJSON)
    }

    // MARK: - Field locator

    @Test func locatorFindsFieldsInAMultiLineRecord() throws {
        let text = """
            {"wineTastingNotes": [
              {
                "id": "w1",
                "a\\/b": true,
                "tastes": [
                  {"label": "산미", "value": 0.5},
                  {"label": "body", "value": 0.75}
                ]
              }
            ]}
            """
        let records = try read(text, step: 3, chunkSize: 8)
        let record = try #require(records.first)
        #expect(record.location.position == TextPosition(line: 2, column: 3))
        let locator = try #require(record.locator)
        #expect(locator.position(of: "/tastes/1/value") == TextPosition(line: 7, column: 34))
        #expect(locator.position(of: "/tastes/0/value") == TextPosition(line: 6, column: 32))
        #expect(locator.position(of: "/tastes/1") == TextPosition(line: 7, column: 7))
        #expect(locator.position(of: "/id") == TextPosition(line: 3, column: 11))
        #expect(locator.position(of: "/a~1b") == TextPosition(line: 4, column: 13))
        #expect(locator.position(of: "") == TextPosition(line: 2, column: 3))
        #expect(locator.position(of: "/tastes/2") == nil)
        #expect(locator.position(of: "/tastes/x") == nil)
        #expect(locator.position(of: "/missing") == nil)
        #expect(locator.position(of: "/id/0") == nil)
        let location = record.location(of: "/tastes/1/value")
        #expect(location.description == "n.json:7:34")
        #expect(location.field == "/wineTastingNotes/0/tastes/1/value")
    }
}
