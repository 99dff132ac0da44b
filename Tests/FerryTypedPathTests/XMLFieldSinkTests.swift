import FerryCore
@testable import FerrySchemas
import FormatXML
import Testing

@testable import FerryTypedPath

/// Differential tests: records rendered from their models (`XMLRendering`) and handed to
/// `XMLRecordWriter.writeRendered` make the document the writer makes from the models' values.
@Suite struct XMLFieldSinkTests {
    /// The two documents of `records` (collection and model): written from values, and from
    /// elements rendered ahead (nil when the renderer refused one).
    static func documents(_ records: [(collection: String?, model: any FieldCodable)], pretty: Bool = true,
        names: [String: String]) throws -> (values: String, rendered: String?)
    {
        var options = WriteOptions()
        options.pretty = pretty
        options.collections = ["first"]
        let valueSink = MemorySink()
        let valueWriter = try XMLRecordWriter(valueSink, options: options, recordNames: names)
        let renderedSink = MemorySink()
        let renderedWriter = try XMLRecordWriter(renderedSink, options: options, recordNames: names)
        guard case .xmlRecordElement(_, let recordNames, let defaultName)? = renderedWriter.renderedElementForm else {
            Issue.record("the XML writer takes no rendered elements")
            return ("", nil)
        }
        let rendering = XMLRendering(pretty: pretty, recordNames: recordNames, defaultName: defaultName)
        var refused = false
        for (collection, model) in records {
            // What the writer refuses (a control character in a generated text) the renderer
            // refuses too; such records stay out of both documents.
            let record = Record(collection: collection, value: model.value, location: FerryCore.SourceLocation())
            guard (try? XMLRecordWriter(MemorySink(), options: options, recordNames: names).write(record)) != nil else {
                var scratch = ByteBuffer(capacity: 64)
                #expect(!rendering.render(model, collection: collection ?? "first", into: &scratch))
                let left = scratch.count
                #expect(left == 0)
                continue
            }
            try valueWriter.write(Record(collection: collection, value: model.value, location: FerryCore.SourceLocation()))
            var buffer = ByteBuffer(capacity: 64)
            buffer.append(Array("previous".utf8))
            guard rendering.render(model, collection: collection ?? "first", into: &buffer) else {
                refused = true
                continue
            }
            try buffer.withBytes { bytes in
                try renderedWriter.writeElement(UnsafeBufferPointer(rebasing: bytes[8...]),
                    collection: collection ?? "first")
            }
        }
        try valueWriter.finish()
        try renderedWriter.finish()
        return (String(decoding: valueSink.bytes, as: UTF8.self), refused ? nil : String(decoding: renderedSink.bytes, as: UTF8.self))
    }

    static let domains: [Domain] = [.notes, .petStory, .vocabulary]

    /// Every model of every domain and version, from records its descriptor makes
    /// (`RecordGenerator`), in the first collection (streamed) and in two others (spooled), pretty
    /// and compact.
    @Test(arguments: domains, [(1, true), (1, false), (2, true), (2, false)])
    func everyModelAsTheWriterWritesItsValue(domain: Domain, layout: (version: Int, pretty: Bool)) throws {
        let (version, pretty) = layout
        let processor = try DatasetProcessor(domain: domain, sourceVersion: version, targetVersion: version,
            options: ProcessingOptions(), log: DiagnosticLog())
        var records: [(collection: String?, model: any FieldCodable)] = []
        var names: [String: String] = [:]
        for (index, collection) in processor.preparer.sourceCollections.enumerated() {
            guard let model = processor.preparer.sourceModels[collection] as? any FieldCodable.Type else { continue }
            names[collection] = model.recordType.name
            var generator = RecordGenerator(random: SeededGenerator(state: UInt64(version * 31 + index)), brokenPercent: 0)
            var made = 0
            for attempt in 0..<400 where made < 40 {
                let value = generator.object(model.recordType)
                var diagnostics: [Diagnostic] = []
                let context = RecordContext(record: Record(collection: collection, value: value, location: FerryCore.SourceLocation()),
                    options: DecodingOptions())
                let read = model.init(value: value, at: context, diagnostics: &diagnostics)
                guard diagnostics.allSatisfy({ $0.severity != .error }) else { continue }
                // Round-robin over the streamed collection, the record's own and none (the default).
                records.append(([("first" as String?), collection, nil][attempt % 3], read))
                made += 1
            }
            #expect(made >= 10, "\(collection): \(made) records")
        }
        let (values, rendered) = try Self.documents(records, pretty: pretty, names: names)
        #expect(rendered == values)
    }

    /// Empty texts, lists and objects, escapes and non-XML-name keys, exactly.
    @Test func exactElements() throws {
        let note = NotesV2.WineTastingNote(
            id: "w-1", title: "A & B <c> \"d\"\r", category: "", createdAt: try Instant.parse("2024-05-01T09:30:00.250Z").get(),
            imageData: nil, alcoholByVolume: 13.5, look: NotesV2.Look(tint: "", note: ""), smells: [],
            tastes: [NotesV2.Taste(label: "body", score: 1e21)], grape: NotesV2.Grape(variety: "x\ty"),
            think: "é", rating: 0, isFavorite: true)
        var buffer = ByteBuffer(capacity: 16)
        #expect(XMLRendering(pretty: true).render(note, recordName: "WineTastingNote", into: &buffer))
        let expected = """
                <WineTastingNote>
                  <id>w-1</id>
                  <title>A &amp; B &lt;c&gt; "d"&#13;</title>
                  <category/>
                  <createdAt>2024-05-01T09:30:00.250Z</createdAt>
                  <alcoholByVolume>13.5</alcoholByVolume>
                  <look>
                    <tint/>
                    <note/>
                  </look>
                  <smells type="list"/>
                  <tastes>
                    <item>
                      <label>body</label>
                      <value>1e+21</value>
                    </item>
                  </tastes>
                  <grape>
                    <variety>x\ty</variety>
                  </grape>
                  <think>é</think>
                  <rating>0</rating>
                  <isFavorite>true</isFavorite>
                </WineTastingNote>

            """
        #expect(String(decoding: buffer.array, as: UTF8.self) == expected)
    }

    /// What the writer refuses or streams is refused, the buffer left as it was.
    @Test(arguments: ["bad \u{1} control", "bad \u{FFFF} noncharacter", String(repeating: "long ", count: 13_108)])
    func refusesWhatTheWriterRefusesOrStreams(title: String) throws {
        let note = NotesV2.Look(tint: "ok", note: title)
        var buffer = ByteBuffer(capacity: 16)
        buffer.append(Array("kept".utf8))
        #expect(!XMLRendering(pretty: true).render(note, recordName: "Look", into: &buffer))
        #expect(buffer.array == Array("kept".utf8))
        let nan = NotesV2.Taste(label: "x", score: .nan)
        #expect(!XMLRendering(pretty: false).render(nan, recordName: "Taste", into: &buffer))
        #expect(buffer.array == Array("kept".utf8))
    }
}
