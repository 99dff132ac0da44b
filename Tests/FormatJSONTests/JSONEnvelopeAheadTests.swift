import FerryCore
import Testing

@testable import FormatJSON

/// A JSON document's envelope members may stand after its collections (RFC 8259 section 4: member
/// order carries no meaning). With `ReadOptions.reopen` the reader finds them in a second copy of
/// the input before it hands on the first record; without it the header fills as they are met.
@Suite struct JSONEnvelopeAheadTests {
    /// Collections whose strings hold brackets, quotes and backslashes the skip must pass over,
    /// an object keyed by document id, a one-record collection, and an escaped envelope key.
    static let document = #"""
        {"notes": [{"id": "n1", "title": "[{\"}]\\"}, {"id": "n2", "tags": [[], {}]}],
         "byID": {"k1": {"x": "}}}"}, "k2": []},
         "one": 3,
         "domain": "notes",
         "sch\u0065maVersion": 2}
        """#

    static func reader(_ text: String, reopens: Bool, step: Int) -> JSONDocumentReader {
        var options = ReadOptions(fileName: "n.json")
        if reopens { options.reopen = { TrickleSource(text, step: step) } }
        return JSONDocumentReader(source: TrickleSource(text, step: step), options: options)
    }

    @Test(arguments: [1, 7, 1 << 20])
    func theHeaderIsCompleteAtTheFirstRecord(step: Int) throws {
        let reader = Self.reader(Self.document, reopens: true, step: step)
        let first = try #require(try reader.next())
        #expect(first.collection == "notes")
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
        let rest = try drain(reader)
        #expect(rest.map { $0.collection ?? "-" } == ["notes", "byID", "byID", "one"])
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
    }

    @Test func withoutASecondCopyTheHeaderFillsAsItIsMet() throws {
        let reader = Self.reader(Self.document, reopens: false, step: 1 << 20)
        _ = try #require(try reader.next())
        #expect(reader.header == DatasetHeader())
        _ = try drain(reader)
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
    }

    /// A second copy that cannot be had after all (a pipe read past the bytes it keeps) is as none.
    @Test func aSecondCopyThatFailsIsAsNone() throws {
        var options = ReadOptions(fileName: "n.json")
        options.reopen = { throw FerryError(.unreadableInput, "read past the bytes it keeps") }
        let reader = JSONDocumentReader(source: TrickleSource(Self.document, step: 7), options: options)
        let first = try #require(try reader.next())
        #expect(first.collection == "notes")
        #expect(reader.header == DatasetHeader())
        _ = try drain(reader)
        #expect(reader.header == DatasetHeader(domain: "notes", schemaVersion: 2))
    }

    /// A member met first stays, as when the envelope comes first; values of other types are no
    /// envelope; a syntax error past the collections ends the look with what it found (the
    /// reading proper reports the error where it stands).
    @Test(arguments: [
        (#"{"domain": "pets", "a": [1], "domain": "notes", "schemaVersion": 1}"#, DatasetHeader(domain: "pets", schemaVersion: 1)),
        (#"{"a": [1], "domain": 7, "schemaVersion": "2"}"#, DatasetHeader()),
        (#"{"a": [1], "schemaVersion": 2.5, "domain": "notes"}"#, DatasetHeader(domain: "notes")),
        (#"{"a": [1], "domain": "notes", "b": tru, "schemaVersion": 2}"#, DatasetHeader(domain: "notes")),
        (#"{"a": [1, "]"#, DatasetHeader()),
    ])
    func whatTheLookFinds(_ text: String, _ header: DatasetHeader) throws {
        let reader = Self.reader(text, reopens: true, step: 3)
        _ = try reader.next()
        #expect(reader.header == header)
    }

    /// A Firestore export's map of collections first, with no domain named: its layout says what
    /// it is, and the input is not read a second time for an envelope it does not carry.
    @Test func aFirestoreExportIsNotReadTwice() throws {
        let text = #"{"__collections__": {"wordBooks": {"b1": {"title": "t"}}}, "schemaVersion": 1}"#
        var options = ReadOptions(fileName: "e.json")
        options.nestedCollections = NestedCollections(mapMembers: ["__collections__"], domains: ["vocabulary"])
        options.reopen = { TrickleSource(text, step: 5) }
        let reader = JSONDocumentReader(source: TrickleSource(text, step: 5), options: options)
        let first = try #require(try reader.next())
        #expect(first.documentID == "wordBooks")
        #expect(reader.header == DatasetHeader())
        _ = try drain(reader)
        #expect(reader.header == DatasetHeader(schemaVersion: 1))
    }
}
