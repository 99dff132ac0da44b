import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath

/// Differential tests: a JSON document of elements rendered by `JSONLinesRendering.documentElement`
/// and placed by `JSONDocumentWriter.writeElement` against the document the writer writes from
/// the models' values, pretty and compact. `JSONLinesFieldSinkTests.check` runs every model of its
/// material through `expectSameDocument` too.
@Suite struct JSONDocumentElementTests {
    /// The document of `models` in turn, each in its collection: written from values (`write`),
    /// or rendered and placed (`writeElement`); nil when the writer throws, or the renderer
    /// declines one (`declined` then says which).
    static func document<M: FieldCodable>(_ models: [(String, M)], pretty: Bool, rendered: Bool) -> (bytes: [UInt8]?, declined: Bool) {
        let sink = MemorySink()
        let writer = JSONDocumentWriter(sink: sink, options: WriteOptions(pretty: pretty))
        let rendering = JSONLinesRendering.documentElement(pretty: pretty, indent: 2)
        do {
            for (collection, model) in models {
                guard rendered else {
                    try writer.write(Record(collection: collection, value: model.value, location: FerryCore.SourceLocation()))
                    continue
                }
                #expect(writer.renderedElementForm == .jsonArrayElement(pretty: pretty, indent: 2))
                var buffer = ByteBuffer(capacity: 16)
                buffer.append(Array("before".utf8))
                guard rendering.render(model, collection: collection, into: &buffer) else {
                    #expect(buffer.array == Array("before".utf8))
                    return (nil, true)
                }
                try buffer.withBytes { try writer.writeElement(UnsafeBufferPointer(rebasing: $0[6...]), collection: collection) }
            }
            try writer.finish()
        } catch {
            return (nil, false)
        }
        return (sink.bytes, false)
    }

    /// Checks that `model`, as the only record, as records of two collections (the second spooled
    /// while the first streams) and after an earlier record, gives the writer's own document.
    static func expectSameDocument<M: FieldCodable>(_ model: M, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let layouts: [[(String, M)]] = [[("c", model)], [("c", model), ("other", model), ("c", model), ("other", model)]]
        for pretty in [true, false] {
            for layout in layouts {
                let expected = document(layout, pretty: pretty, rendered: false).bytes
                let (bytes, declined) = document(layout, pretty: pretty, rendered: true)
                #expect(expected != nil && !declined, "pretty \(pretty)", sourceLocation: sourceLocation)
                #expect(
                    bytes.map { String(decoding: $0, as: UTF8.self) } == expected.map { String(decoding: $0, as: UTF8.self) },
                    "pretty \(pretty)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A model that writes no field: `{}` in either form.
    struct Empty: FieldCodable {
        static let recordType = RecordType("Empty", [])
        init() {}
        init<Source: FieldSource>(from source: inout Source) {}
        func encode<Sink: FieldSink>(to sink: inout Sink) {}
    }

    /// Nested objects and lists, empty and not, at every depth the models reach.
    struct Nesting: FieldCodable {
        static let recordType = RecordType("Nesting", [])
        var empties: Int
        init(empties: Int) { self.empties = empties }
        init<Source: FieldSource>(from source: inout Source) { empties = 0 }

        func encode<Sink: FieldSink>(to sink: inout Sink) {
            sink.add("empty", Empty())
            sink.add("empties", (0..<empties).map { _ in Empty() })
            sink.add("strings", (0..<empties).map { "s\($0) \"é\"\n" })
            sink.add("noStrings", [String]())
            sink.add("looks", (0..<empties).map { NotesV2.Look(tint: "t\($0)", note: "") })
            sink.add("look", NotesV2.Look(tint: "日本", note: "\u{1}"))
            sink.add("built", ["list": [[], [:], ["a": [.integer(1), .double(2.5)]], nil], "empty": [:], "number": .double(0.5)] as Value)
            sink.add("emptyBuilt", Value.array([]))
            sink.add("emptyObject", Value.object(ValueObject()))
        }
    }

    @Test func emptyModelsAndLists() {
        Self.expectSameDocument(Empty())
        for empties in [0, 1, 3] { Self.expectSameDocument(Nesting(empties: empties)) }
        let model = JSONLinesFieldSinkTests.Everything(collectionField: "inner")
        Self.expectSameDocument(model)
        // In a document a `$collection` member is an ordinary member.
        var buffer = ByteBuffer(capacity: 16)
        #expect(JSONLinesRendering.documentElement(pretty: true, indent: 2).render(Empty(), collection: "c", into: &buffer))
        #expect(buffer.array == Array("{}".utf8))
        buffer = ByteBuffer(capacity: 16)
        #expect(JSONLinesRendering.documentElement(pretty: false, indent: 2).render(model, collection: "c", into: &buffer))
        #expect(String(decoding: buffer.array, as: UTF8.self).hasPrefix("{\"$collection\":\"inner\",\"number\":"))
    }

    @Test func aPrettyElementIsIndentedAtItsDepth() {
        var buffer = ByteBuffer(capacity: 16)
        let model = NotesV2.Taste(label: "a", score: 0.5)
        #expect(JSONLinesRendering.documentElement(pretty: true, indent: 2).render(model, collection: "c", into: &buffer))
        #expect(String(decoding: buffer.array, as: UTF8.self) == "{\n      \"label\": \"a\",\n      \"value\": 0.5\n    }")
    }

    /// What the writer refuses is declined, and so left to the general path, which reports it.
    @Test func nonFiniteNumbersAreDeclined() {
        for number in [Double.nan, .infinity] {
            let layout = [("c", NotesV2.Taste(label: "x", score: number))]
            #expect(Self.document(layout, pretty: true, rendered: false).bytes == nil)
            #expect(Self.document(layout, pretty: true, rendered: true).declined)
        }
    }

    /// The writer's limit on nesting counts from the record: the renderer declines exactly where
    /// the writer throws.
    @Test(arguments: [510, 511, 512]) func nestingLimitAsTheWriterCountsIt(deep: Int) {
        let layout = [("c", JSONLinesFieldSinkTests.Everything(collectionField: nil, deep: deep))]
        for pretty in [true, false] {
            let expected = Self.document(layout, pretty: pretty, rendered: false).bytes
            let (bytes, declined) = Self.document(layout, pretty: pretty, rendered: true)
            #expect(declined == (expected == nil))
            #expect(bytes == expected)
            #expect((expected == nil) == (deep >= 512))
        }
    }

    /// A string the writer streams is left to it.
    @Test func longStringsAreDeclined() {
        let long = NotesV2.Taste(label: String(repeating: "x", count: JSONLinesWriter.longStringThreshold), score: 1)
        #expect(Self.document([("c", long)], pretty: true, rendered: true).declined)
        let short = NotesV2.Taste(label: String(repeating: "x", count: JSONLinesWriter.longStringThreshold - 1), score: 1)
        Self.expectSameDocument(short)
    }
}
