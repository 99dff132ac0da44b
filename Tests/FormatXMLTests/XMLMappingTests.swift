import FerryCore
import FerryTestSupport
import FormatXML
import Testing

/// A ByteSource that serves at most `step` bytes a read, to prove the reader streams.
final class TrickleSource: ByteSource {
    private let bytes: [UInt8]
    private let step: Int
    private var offset = 0

    init(_ bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(step, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

/// Reads every record of `bytes`; returns them, the log, and the error that stopped reading.
func readAll(_ bytes: [UInt8], step: Int? = nil, options: ReadOptions = ReadOptions(fileName: "in.xml"))
    throws -> (records: [Record], header: DatasetHeader, log: DiagnosticLog, error: FerryError?)
{
    let log = DiagnosticLog()
    let source: any ByteSource = step.map { TrickleSource(bytes, step: $0) } ?? MemorySource(bytes)
    let reader = try XMLRecordReader(source, options: options, log: log)
    var records: [Record] = []
    do {
        while let record = try reader.next() { records.append(record) }
        return (records, reader.header, log, nil)
    } catch let error as FerryError {
        return (records, reader.header, log, error)
    }
}

let noteCollections = ["wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes"]
let noteRecordNames = [
    "wineTastingNotes": "WineTastingNote", "coffeeTastingNotes": "CoffeeTastingNote",
    "whiskeyTastingNotes": "WhiskeyTastingNote",
]

func writeAll(_ records: [Record], options: WriteOptions, recordNames: [String: String] = noteRecordNames) throws -> String {
    let sink = MemorySink()
    let writer = try XMLFormatWriter(recordNames: recordNames).makeWriter(sink, options: options)
    for record in records { try writer.write(record) }
    try writer.finish()
    return sink.text
}

@Suite struct XMLMappingTests {
    static let options = WriteOptions(
        header: DatasetHeader(domain: "notes", schemaVersion: 2), collections: noteCollections, fileName: "out.xml")

    /// Typed records, arriving with collections interleaved (coffee is spooled).
    static let typedRecords: [Record] = [
        Record(collection: "wineTastingNotes", value: [
            "id": "w1", "title": "Barolo & <Nebbiolo> \"riserva\"", "category": "red",
            "createdAt": "2024-05-01T09:30:00Z", "imageData": nil, "alcoholByVolume": .double(14.5),
            "look": ["tint": "ruby", "note": ""], "smells": [["label": "tar"], ["label": "장미"]],
            "tastes": [], "grape": ["variety": "Nebbiolo"], "think": "", "rating": .double(4.5),
            "isFavorite": true,
        ], location: SourceLocation(file: "in.json", collection: "wineTastingNotes", recordIndex: 0)),
        Record(collection: "coffeeTastingNotes", value: [
            "id": "c1", "title": "エチオピア 深煎り", "category": "espresso", "createdAt": "2024-05-02T00:00:00.250Z",
            "smells": [], "tastes": [["label": "酸味", "value": .double(0.25)], ["label": "bitter ]]>", "value": .double(1e-7)]],
            "think": "line1\nline2\r\n\tend  ", "rating": .integer(4), "isFavorite": false,
        ], location: SourceLocation(file: "in.json", collection: "coffeeTastingNotes", recordIndex: 0)),
        Record(collection: "wineTastingNotes", value: [
            "id": "w2", "title": "Empty", "category": "", "createdAt": "2024-05-03T00:00:00Z",
            "alcoholByVolume": .number("13.50"), "look": [:], "smells": [], "tastes": [[:]],
            "grape": ["variety": ""], "think": "  ", "rating": .double(0), "isFavorite": false,
        ], location: SourceLocation(file: "in.json", collection: "wineTastingNotes", recordIndex: 1)),
        Record(collection: "extras", value: [
            "not a name": "x", "item": "y", "a:b": .number("1.50"), "1st": "z", "種類": "日本語",
            "list": [[], [:], nil, "", ["nested"]],
        ], location: SourceLocation(file: "in.json", collection: "extras", recordIndex: 0)),
    ]

    @Test func typedDatasetWritesExactBytes() throws {
        let text = try writeAll(Self.typedRecords, options: Self.options)
        #expect(Golden.mismatch(text, golden: "typed-dataset.xml") == nil)
    }

    @Test func readingGivesStringsAndRewritesByteIdentical() throws {
        let golden = try Fixtures.bytes("typed-dataset.xml")
        let result = try readAll(golden)
        #expect(result.error == nil)
        #expect(result.log.diagnostics.isEmpty)
        #expect(result.header == DatasetHeader(domain: "notes", schemaVersion: 2))
        #expect(result.records.map(\.collection) == ["wineTastingNotes", "wineTastingNotes", "coffeeTastingNotes", "extras"])
        let wine: Value = [
            "id": "w1", "title": "Barolo & <Nebbiolo> \"riserva\"", "category": "red",
            "createdAt": "2024-05-01T09:30:00Z", "alcoholByVolume": "14.5",
            "look": ["tint": "ruby", "note": ""], "smells": [["label": "tar"], ["label": "장미"]],
            "tastes": [], "grape": ["variety": "Nebbiolo"], "think": "", "rating": "4.5", "isFavorite": "true",
        ]
        #expect(result.records[0].value == wine)
        #expect(result.records[0].location == SourceLocation(file: "in.xml", line: 4, column: 5,
                                                            collection: "wineTastingNotes", recordIndex: 0))
        #expect(result.records[1].location.recordIndex == 1)
        let coffee = try #require(result.records[2].value.objectValue)
        #expect(coffee["think"] == "line1\nline2\r\n\tend  ")
        #expect(coffee["tastes"] == [["label": "酸味", "value": "0.25"], ["label": "bitter ]]>", "value": "1e-7"]])
        #expect(coffee["rating"] == "4")
        #expect(coffee["smells"] == [])
        let extras: Value = [
            "not a name": "x", "item": "y", "a:b": "1.50", "1st": "z", "種類": "日本語",
            "list": [[], [:], nil, "", ["nested"]],
        ]
        #expect(result.records[3].value == extras)
        // XML -> records -> XML is byte-identical.
        let rewritten = try writeAll(result.records, options: Self.options)
        #expect(rewritten == String(decoding: golden, as: UTF8.self))
    }

    @Test func streamingFiveBytesAtATimeGivesTheSameRecords() throws {
        let golden = try Fixtures.bytes("typed-dataset.xml")
        let whole = try readAll(golden)
        let trickled = try readAll(golden, step: 5)
        #expect(trickled.error == nil)
        #expect(trickled.records.map(\.value) == whole.records.map(\.value))
        #expect(trickled.records.map(\.location) == whole.records.map(\.location))
    }

    @Test func emptyDocumentWithNoCollections() throws {
        let text = try writeAll([], options: WriteOptions(header: DatasetHeader(domain: "notes", schemaVersion: 2)))
        #expect(text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset domain=\"notes\" schemaVersion=\"2\"/>\n")
        let result = try readAll(Array(text.utf8))
        #expect(result.records.isEmpty && result.error == nil)
        #expect(result.header == DatasetHeader(domain: "notes", schemaVersion: 2))
    }

    @Test func compactOutputHasNoIndentationAndReadsBack() throws {
        let records = [Record(collection: "a", value: ["x": "1", "l": ["p", "q"], "o": ["k": ""]], location: SourceLocation())]
        let text = try writeAll(records, options: WriteOptions(collections: ["a", "b"], pretty: false), recordNames: [:])
        #expect(text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset><a><record><x>1</x><l><item>p</item><item>q</item></l><o><k/></o></record></a><b/></dataset>\n")
        #expect(try readAll(Array(text.utf8)).records.map(\.value) == [["x": "1", "l": ["p", "q"], "o": ["k": ""]]])
    }

    @Test func writerRefusesWhatXMLCannotHold() throws {
        let location = SourceLocation(file: "in.json", line: 3, column: 5, collection: "a", recordIndex: 2)
        let control = Record(collection: "a", value: ["t": ["ok", "bell\u{7}"]], location: location)
        let error = #expect(throws: FerryError.self) { try writeAll([control], options: WriteOptions()) }
        #expect(error?.diagnostic.code == .invalidValue)
        #expect(error?.diagnostic.message == "U+0007 cannot be written in XML 1.0")
        #expect(error?.diagnostic.location.field == "/a/2/t/1")
        let nan = Record(collection: "a", value: ["n": .double(.nan)], location: location)
        #expect(throws: FerryError.self) { try writeAll([nan], options: WriteOptions()) }
        let scalar = Record(collection: "a", value: "text", location: location)
        let typeError = #expect(throws: FerryError.self) { try writeAll([scalar], options: WriteOptions()) }
        #expect(typeError?.diagnostic.code == .typeError)
        #expect(throws: FerryError.self) { try XMLRecordWriter(MemorySink(), recordNames: ["a": "not a name"]) }
    }

    @Test func latin1DeclaredInputIsDecodedExactly() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<dataset><a><r><t>".utf8)
        bytes += [0x43, 0x61, 0x66, 0xE9, 0x20, 0xA9, 0x20, 0xFC, 0x62, 0x65, 0x72]  // "Café © über"
        bytes += Array("</t></r></a></dataset>\n".utf8)
        let result = try readAll(bytes, step: 5)
        #expect(result.error == nil)
        #expect(result.records.map(\.value) == [["t": "Café © über"]])
    }

    @Test func forcedEncodingAppliesWithoutDeclaration() throws {
        let bytes = Array("<dataset><a><r><t>".utf8) + [0x43, 0x61, 0x66, 0xE9] + Array("</t></r></a></dataset>".utf8)
        let forced = try readAll(bytes, options: ReadOptions(fileName: "in.xml", encoding: "ISO-8859-1"))
        #expect(forced.records.map(\.value) == [["t": "Café"]])
        #expect(try readAll(bytes).error?.diagnostic.code == .invalidEncoding)
        #expect(throws: FerryError.self) {
            try XMLRecordReader(MemorySource(bytes), options: ReadOptions(encoding: "no-such-encoding"), log: DiagnosticLog())
        }
    }

    @Test func shiftJISAndUTF16WithBOMAreDecoded() throws {
        var sjis = Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<dataset><a><r><t>".utf8)
        sjis += [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA]  // 日本語
        sjis += Array("</t></r></a></dataset>\n".utf8)
        #expect(try readAll(sjis).records.map(\.value) == [["t": "日本語"]])
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<dataset><a><r><t>한국어 &amp; 日本語</t></r></a></dataset>\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let result = try readAll(utf16, step: 5)
        #expect(result.records.map(\.value) == [["t": "한국어 & 日本語"]])
        #expect(result.records.first?.location.position == TextPosition(line: 2, column: 13))
    }

    @Test func notWellFormedStopsWithLibxml2LineAndColumn() throws {
        let doc = "<dataset>\n  <a>\n    <r><x>1</x></r>\n    <r><x>2</y></r>\n  </a>\n</dataset>\n"
        let result = try readAll(Array(doc.utf8))
        #expect(result.records.map(\.value) == [["x": "1"]])
        let diagnostic = try #require(result.error?.diagnostic)
        #expect(diagnostic.code == .malformedXML)
        #expect(diagnostic.message == "Opening and ending tag mismatch: x line 4 and y")
        #expect(diagnostic.location == SourceLocation(file: "in.xml", line: 4, column: 16))
        #expect(diagnostic.description == "in.xml:4:16: error: Opening and ending tag mismatch: x line 4 and y [malformed-xml]")
    }

    /// A document cut short names the element it ends inside, wherever the cut falls (in text,
    /// between elements, inside a record), in chunks of any size.
    @Test(arguments: [1, 5, 4096])
    func aDocumentCutShortSaysSo(step: Int) throws {
        let doc = "<dataset>\n  <a>\n    <r><x>1</x></r>\n    <r><x>2</x>"
        let result = try readAll(Array(doc.utf8), step: step)
        #expect(result.records.map(\.value) == [["x": "1"]])
        let diagnostic = try #require(result.error?.diagnostic)
        #expect(diagnostic.description
            == "in.xml:4:16: error: premature end of data: the input ends inside <r>, which is not closed (the input is cut short) [malformed-xml]")
        let inText = try readAll(Array("<dataset>\n  <a>\n    <r><x>12".utf8), step: step)
        #expect(inText.error?.diagnostic.message == "premature end of data: the input ends inside <x>, which is not closed (the input is cut short)")
    }

    @Test func entityDeclarationIsRefusedAtItsLine() throws {
        let doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE dataset [\n  <!ELEMENT dataset ANY>\n  <!ENTITY title \"Barolo\">\n]>\n<dataset><a><r><t>&title;</t></r></a></dataset>\n"
        let result = try readAll(Array(doc.utf8))
        #expect(result.records.isEmpty)
        let diagnostic = try #require(result.error?.diagnostic)
        #expect(diagnostic.code == .unsafeXML)
        #expect(diagnostic.location == SourceLocation(file: "in.xml", line: 4, column: 3))
    }

    @Test func externalDTDIsRefusedAndInternalDeclarationsAccepted() throws {
        let external = "<?xml version=\"1.0\"?>\n<!DOCTYPE dataset SYSTEM \"http://127.0.0.1:9/x.dtd\">\n<dataset/>\n"
        let refused = try readAll(Array(external.utf8))
        #expect(refused.error?.diagnostic == .error(.unsafeXML,
            "the document names an external DTD (http://127.0.0.1:9/x.dtd); Ferry never loads external resources",
            at: SourceLocation(file: "in.xml", line: 2, column: 1)))
        let internalOnly = "<!DOCTYPE dataset [\n  <!ELEMENT dataset ANY>\n  <!ATTLIST dataset domain CDATA #IMPLIED>\n]>\n<dataset domain=\"d\"><a><r><t>&amp;&#x41;&#12354;</t></r></a></dataset>\n"
        let ok = try readAll(Array(internalOnly.utf8))
        #expect(ok.error == nil)
        #expect(ok.header.domain == "d")
        #expect(ok.records.map(\.value) == [["t": "&Aあ"]])
        let undeclared = try readAll(Array("<dataset><a><r><t>&nope;</t></r></a></dataset>".utf8))
        #expect(undeclared.error?.diagnostic == .error(.malformedXML, "Entity 'nope' not defined",
                                                      at: SourceLocation(file: "in.xml", line: 1, column: 25)))
    }

    @Test func recordsOutsideTheMappingAreReportedAndSkipped() throws {
        let doc = """
            <dataset>
              <a>
                <r><x>ok</x></r>
                <r>
                  <l><item>1</item><item>mixed<b/></item></l>
                </r>
                <r><x type="wrong">2</x></r>
                <r><x>3</x></r>
              </a>
            </dataset>

            """
        let result = try readAll(Array(doc.utf8))
        #expect(result.error == nil)
        #expect(result.records.map(\.value) == [["x": "ok"], ["x": "3"]])
        #expect(result.records.map(\.location.recordIndex) == [0, 3])
        let diagnostics = result.log.diagnostics
        #expect(diagnostics.count == 2)
        #expect(diagnostics.first == .error(.malformedXML, "<item> mixes text with child elements", at: SourceLocation(
            file: "in.xml", line: 5, column: 24, collection: "a", recordIndex: 1, field: "/a/1/l/1")))
        #expect(diagnostics.last == .error(.malformedXML, "unknown type=\"wrong\" (list, object or null)", at: SourceLocation(
            file: "in.xml", line: 7, column: 8, collection: "a", recordIndex: 2, field: "/a/2/x")))
    }

    @Test func rootMustBeDataset() throws {
        let result = try readAll(Array("<notes><a/></notes>".utf8))
        #expect(result.error?.diagnostic.code == .malformedXML)
        #expect(result.error?.diagnostic.message == "the root element is <notes>, not <dataset> (Docs/xml.md)")
    }
}
