import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

@Suite struct JSONWriterTests {
    static let header = DatasetHeader(domain: "notes", schemaVersion: 2)
    static let collections = ["wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes"]

    static func record(_ collection: String?, _ value: Value) -> Record {
        Record(collection: collection, value: value, location: SourceLocation())
    }

    static let w1: Value = [
        "id": "w1", "title": "샤토 마고", "alcoholByVolume": .double(13),
        "think": .string("line1\nline2\t\"quoted\" back\\slash /slash \u{1}\u{1F}\u{7F}\u{8}\u{C}\r"),
        "smells": [], "look": .object(ValueObject()),
        "tastes": [["label": "산미", "value": .double(0.5)], ["label": "body", "value": .double(0.75)]],
        "tiny": .double(1e-7), "big": .double(1e21), "count": .integer(13), "exact": .number("1.50"), "ok": true,
        "none": nil,
    ]
    static let w2: Value = ["id": "w2", "title": "日本酒"]
    static let c1: Value = ["id": "c1", "title": "エチオピア", "rating": .double(4.5)]
    static let c2: Value = ["id": "c2", "nested": [[], [.integer(1), [.integer(2)]], ["a": .object(ValueObject())]]]
    static let e1: Value = ["x": .integer(1)]

    /// The records as they arrive: collections interleaved and out of canonical order.
    static let arrival: [Record] = [
        record("coffeeTastingNotes", c1), record("wineTastingNotes", w1), record("extras", e1),
        record("coffeeTastingNotes", c2), record("wineTastingNotes", w2),
    ]

    private func writeDocument(_ records: [Record], options: WriteOptions) throws -> String {
        let sink = MemorySink()
        let writer = JSONDocumentWriter(sink: sink, options: options)
        for record in records { try writer.write(record) }
        try writer.finish()
        return sink.text
    }

    @Test func canonicalPrettyDocumentFromOutOfOrderRecords() throws {
        let text = try writeDocument(
            Self.arrival, options: WriteOptions(header: Self.header, collections: Self.collections))
        #expect(Golden.mismatch(text, golden: "canonical-pretty.json") == nil)
    }

    @Test func canonicalCompactDocument() throws {
        let text = try writeDocument(
            Self.arrival, options: WriteOptions(header: Self.header, collections: Self.collections, pretty: false))
        #expect(Golden.mismatch(text, golden: "canonical-compact.json") == nil)
    }

    @Test func jsonLinesHeaderAndCompactLines() throws {
        let sink = MemorySink()
        let writer = JSONLinesWriter(sink: sink, options: WriteOptions(header: Self.header))
        for record in Self.arrival { try writer.write(record) }
        try writer.finish()
        #expect(Golden.mismatch(sink.text, golden: "arrival.jsonl") == nil)
    }

    @Test func jsonToJSONLinesToJSONIsByteIdentical() throws {
        let original = try Fixtures.bytes("canonical-pretty.json")
        // JSON -> JSON Lines
        let reader = JSONDocumentReader(source: MemorySource(original))
        let first = try #require(try reader.next())
        let linesSink = MemorySink()
        let linesWriter = JSONLinesWriter(sink: linesSink, options: WriteOptions(header: reader.header))
        try linesWriter.write(first)
        while let record = try reader.next() { try linesWriter.write(record) }
        try linesWriter.finish()
        #expect(linesSink.text.hasPrefix("{\"domain\": \"notes\", \"schemaVersion\": 2}\n{\"$collection\":\"wineTastingNotes\","))
        // JSON Lines -> JSON
        let log = DiagnosticLog()
        let linesReader = JSONLinesReader(source: MemorySource(linesSink.bytes), log: log)
        let back = MemorySink()
        var records: [Record] = []
        while let record = try linesReader.next() { records.append(record) }
        let writer = JSONDocumentWriter(
            sink: back, options: WriteOptions(header: linesReader.header, collections: Self.collections))
        for record in records { try writer.write(record) }
        try writer.finish()
        #expect(log.diagnostics.isEmpty)
        #expect(back.bytes == original)
    }

    @Test func spooledCollectionsComeOutAsIfWrittenInOrder() throws {
        // Interleaved records large enough to park several segments in the temporary file.
        var interleaved: [Record] = []
        for i in 0..<3000 {
            let filler = Value.string(String(repeating: "ß", count: 40))
            interleaved.append(Self.record("coffeeTastingNotes", ["i": .integer(Int64(i)), "f": filler]))
            interleaved.append(Self.record("wineTastingNotes", ["i": .integer(Int64(i)), "f": filler]))
            if i % 100 == 0 { interleaved.append(Self.record("other\(i % 300)", ["i": .integer(Int64(i))])) }
        }
        let options = WriteOptions(header: Self.header, collections: Self.collections)
        let interleavedText = try writeDocument(interleaved, options: options)
        var ordered = interleaved.filter { $0.collection == "wineTastingNotes" }
        ordered += interleaved.filter { $0.collection == "coffeeTastingNotes" }
        for name in ["other0", "other100", "other200"] { ordered += interleaved.filter { $0.collection == name } }
        let orderedText = try writeDocument(ordered, options: options)
        #expect(interleavedText == orderedText)
        // And it parses back to the same records.
        let value = try JSONText.parse(Array(interleavedText.utf8))
        #expect(value.objectValue?.keys == ["domain", "schemaVersion"] + Self.collections + ["other0", "other100", "other200"])
        #expect(value.objectValue?["coffeeTastingNotes"]?.arrayValue?.count == 3000)
        #expect(value.objectValue?["other100"]?.arrayValue?.count == 10)
    }

    @Test func smallSpoolPiecesGiveTheSameBytes() throws {
        // Many collections, interleaved, with tiny spool pieces and budget: every record goes
        // through the temporary file in its own piece, and parking-all runs often.
        var records: [Record] = []
        for i in 0..<500 {
            records.append(Self.record("c\(i % 7)", ["i": .integer(Int64(i)), "s": .string("é\(i)")]))
        }
        let options = WriteOptions(header: Self.header, collections: ["c3", "c1"])
        let plain = try writeDocument(records, options: options)
        let sink = MemorySink()
        let writer = JSONDocumentWriter(sink: sink, options: options, spoolSegmentSize: 1, spoolMemoryBudget: 100)
        for record in records { try writer.write(record) }
        try writer.finish()
        #expect(sink.text == plain)
        let keys = try #require(try JSONText.parse(sink.bytes).objectValue).keys
        #expect(keys == ["domain", "schemaVersion", "c3", "c1", "c0", "c2", "c4", "c5", "c6"])
    }

    @Test func documentShapes() throws {
        // No domain and no collections: a top-level array.
        let array = try writeDocument(
            [Self.record(nil, .integer(1)), Self.record(nil, ["a": []])], options: WriteOptions())
        #expect(array == "[\n  1,\n  {\n    \"a\": []\n  }\n]\n")
        #expect(try writeDocument([], options: WriteOptions()) == "[]\n")
        #expect(try writeDocument([Self.record(nil, .integer(1))], options: WriteOptions(pretty: false)) == "[1]\n")
        // A header and collections but no records.
        #expect(
            try writeDocument([], options: WriteOptions(header: Self.header, collections: ["a", "b"]))
                == "{\n  \"domain\": \"notes\",\n  \"schemaVersion\": 2,\n  \"a\": [],\n  \"b\": []\n}\n")
        #expect(
            try writeDocument([], options: WriteOptions(header: Self.header, collections: ["a"], pretty: false))
                == "{\"domain\":\"notes\",\"schemaVersion\":2,\"a\":[]}\n")
        // Collections without a domain: no envelope keys.
        #expect(
            try writeDocument([Self.record("c", ["k": "v"])], options: WriteOptions())
                == "{\n  \"c\": [\n    {\n      \"k\": \"v\"\n    }\n  ]\n}\n")
        // A domain without a version.
        #expect(
            try writeDocument([], options: WriteOptions(header: DatasetHeader(domain: "x"), pretty: false))
                == "{\"domain\":\"x\"}\n")
    }

    @Test func unwritableValuesThrowAndLeaveTheOutputIntact() throws {
        let sink = MemorySink()
        let writer = JSONDocumentWriter(sink: sink, options: WriteOptions(pretty: false))
        try writer.write(Self.record(nil, .integer(1)))
        let nan = ferryError { try writer.write(Self.record(nil, ["v": .double(.nan)])) }
        #expect(nan?.diagnostic.code == .invalidValue)
        #expect(ferryError { try writer.write(Self.record("c", .integer(2))) }?.diagnostic.code == .invalidValue)
        try writer.write(Self.record(nil, .integer(3)))
        try writer.finish()
        #expect(sink.text == "[1,3]\n")

        let lines = MemorySink()
        let linesWriter = JSONLinesWriter(sink: lines, options: WriteOptions())
        #expect(ferryError { try linesWriter.write(Self.record(nil, .double(.infinity))) }?.diagnostic.code == .invalidValue)
        #expect(ferryError { try linesWriter.write(Self.record("c", .integer(2))) }?.diagnostic.code == .invalidValue)
        try linesWriter.write(Self.record("c", ["$collection": "old", "a": .integer(1)]))
        try linesWriter.write(Self.record(nil, "s"))
        try linesWriter.finish()
        #expect(lines.text == "{\"$collection\":\"c\",\"a\":1}\n\"s\"\n")
    }

    @Test func jsonTextEncodesLikeJavaScript() throws {
        #expect(String(decoding: try JSONText.encode(["a": [1, 2], "b": "é/\u{0}"], pretty: false), as: UTF8.self)
            == "{\"a\":[1,2],\"b\":\"é/\\u0000\"}\n")
        #expect(String(decoding: try JSONText.encode(["a": [1]], pretty: true), as: UTF8.self)
            == "{\n  \"a\": [\n    1\n  ]\n}\n")
        #expect(String(decoding: try JSONText.encode(.double(-0.0), pretty: true), as: UTF8.self) == "0\n")
        #expect(String(decoding: try JSONText.encode(.integer(.min), pretty: true), as: UTF8.self) == "-9223372036854775808\n")
        var deep: Value = .array([])
        for _ in 0..<600 { deep = .array([deep]) }
        #expect(ferryError { _ = try JSONText.encode(deep, pretty: false) }?.diagnostic.code == .tooDeep)
    }

    @Test func descriptors() throws {
        #expect(JSONFormat.descriptor.name == "json")
        #expect(JSONFormat.descriptor.extensions == ["json"])
        #expect(JSONLinesFormat.descriptor.name == "jsonl")
        #expect(JSONLinesFormat.descriptor.extensions == ["jsonl", "ndjson"])
        let registry = FormatRegistry([JSONFormat.descriptor, JSONLinesFormat.descriptor])
        #expect(registry.format(forPath: "x.ndjson")?.name == "jsonl")
        let log = DiagnosticLog()
        let reader = try #require(JSONLinesFormat.descriptor.reader).makeReader(
            MemorySource("{\"a\": 1}\n"), options: ReadOptions(), log: log)
        #expect(try reader.next()?.value == ["a": .number("1")])
        let sink = MemorySink()
        let writer = try #require(JSONFormat.descriptor.writer).makeWriter(sink, options: WriteOptions(pretty: false))
        try writer.write(Self.record(nil, ["a": .number("1.0")]))
        try writer.finish()
        #expect(sink.text == "[{\"a\":1.0}]\n")
        let refused = ferryError {
            _ = try JSONFormat.Reader().makeReader(MemorySource(""), options: ReadOptions(encoding: "latin1"), log: log)
        }
        #expect(refused?.diagnostic.code == .invalidEncoding)
    }
}
