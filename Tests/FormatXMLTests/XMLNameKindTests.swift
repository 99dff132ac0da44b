import FerryCore
import FerryTestSupport
import Testing
@testable import FormatXML

/// Records each start tag's name, element kind and attribute kinds as the safe parser tells them.
private final class KindCollector: XMLParseHandler {
    var tags: [String] = []
    func startElement(_ tag: XMLStartTag, at position: TextPosition) {
        var line = "\(tag.name)=\(tag.kind)"
        if let base = tag.attributes.base {
            for i in 0..<tag.attributes.count {
                let entry = base + i * 5
                guard let local = entry[0] else { continue }
                let kind = entry[1] == nil ? tag.attributes.known.pointee.attributeKind(local) : .other
                line += " @\(String(cString: local))=\(kind)"
            }
        }
        tags.append(line)
    }
    func endElement() {}
    func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
}

/// Names told by their libxml2 dictionary address, and by their bytes when that is off: the same
/// kinds and the same records either way.
@Suite struct XMLNameKindTests {
    static let names = Array("""
        <dataset domain="d" schemaVersion="2" domains="x" schemaVersio="x" p:type="list" xmlns:p="urn:p">
          <field name="c" names="x" typ="x"><item type="list" typed="x"/><items/><ite/><fields/><datasets/><data/>
          <itemX/><p:item/><fieldname/><Item/><domain/><type/><name/></field>
        </dataset>
        """.utf8)

    static let expectedKinds = [
        "dataset=dataset @domain=domain @schemaVersion=schemaVersion @domains=other @schemaVersio=other @type=other",
        "field=field @name=name @names=other @typ=other",
        "item=item @type=type @typed=other",
        "items=other", "ite=other", "fields=other", "datasets=other", "data=other",
        "itemX=other", "p:item=other", "fieldname=other", "Item=other", "domain=other", "type=other", "name=other",
    ]

    @Test(arguments: [true, false])
    func everyKnownNameIsRecognisedAndNoLookalike(byAddress: Bool) throws {
        let handler = KindCollector()
        let parser = try XMLSafeParser(source: MemorySource(Self.names), location: SourceLocation(), handler: handler,
                                       namesByAddress: byAddress)
        while try parser.advance() {}
        #expect(parser.failure == nil)
        #expect(parser.namesByAddress == byAddress)
        #expect(handler.tags == Self.expectedKinds)
    }

    @Test func knownNamesByBytes() {
        let table = XMLKnownNames(dictionary: nil)
        #expect(!table.byAddress)
        for known in XMLKnownNames.elements {
            #expect(Array(known.name.utf8CString).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: UInt8.self) { table.elementKind($0.baseAddress!) }
            } == known.kind)
        }
        for known in XMLKnownNames.attributes {
            #expect(Array(known.name.utf8CString).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: UInt8.self) { table.attributeKind($0.baseAddress!) }
            } == known.kind)
        }
        for other in ["", "ite", "items", "fiel", "field ", "datasets", "Type", "nam", "domainX", "schemaversion"] {
            let kinds = Array(other.utf8CString).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: UInt8.self) { (table.elementKind($0.baseAddress!), table.attributeKind($0.baseAddress!)) }
            }
            #expect(kinds.0 == .other && kinds.1 == .other, "\(other)")
        }
    }

    static let document = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <dataset domain="notes" schemaVersion="2">
          <field name="odd collection">
            <Rec>
              <id>r1</id>
              <field name="a key">x</field>
              <tags><item>a</item><item type="null"/><item>c</item></tags>
              <empty type="list"/>
              <obj type="object"/>
              <look><tint>ruby</tint><items>not a list</items></look>
            </Rec>
            <Rec><id>r2</id><bad type="weird"/></Rec>
          </field>
          <wineTastingNotes><WineTastingNote><id>w1</id><item>x</item></WineTastingNote></wineTastingNotes>
        </dataset>
        """.utf8)

    @Test(arguments: [true, false])
    func sameRecordsWithAndWithoutTheDictionary(byAddress: Bool) throws {
        let log = DiagnosticLog()
        let reader = try XMLRecordReader(MemorySource(Self.document), options: ReadOptions(fileName: "d.xml"), log: log,
                                         chunkSize: 64 * 1024, namesByAddress: byAddress)
        #expect(reader.parser?.namesByAddress == byAddress)
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
        #expect(records.map(\.collection) == ["odd collection", "wineTastingNotes"])
        let first: Value = .object([
            "id": .string("r1"),
            "a key": .string("x"),
            "tags": .array([.string("a"), .null, .string("c")]),
            "empty": .array([]),
            "obj": .object(ValueObject()),
            "look": .object(["tint": .string("ruby"), "items": .string("not a list")]),
        ])
        #expect(records.map(\.value) == [first, .object(["id": .string("w1"), "item": .string("x")])])
        #expect(log.diagnostics.map(\.description) == [
            "d.xml:12:21: error: /odd collection/1/bad: unknown type=\"weird\" (list, object or null) [malformed-xml]",
        ])
    }

    @Test func typedFixtureReadsTheSameEitherWay() throws {
        let bytes = try Fixtures.bytes("typed-dataset.xml")
        func read(_ byAddress: Bool) throws -> [Record] {
            let reader = try XMLRecordReader(MemorySource(bytes), options: ReadOptions(fileName: "t.xml"), log: DiagnosticLog(),
                                             chunkSize: 4096, namesByAddress: byAddress)
            var records: [Record] = []
            while let record = try reader.next() { records.append(record) }
            return records
        }
        let byAddress = try read(true)
        let byBytes = try read(false)
        #expect(byAddress.count > 0)
        #expect(byAddress.map(\.value) == byBytes.map(\.value))
        #expect(byAddress.map(\.collection) == byBytes.map(\.collection))
    }
}
