import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// `ReadOptions.nestedCollections`: the collections of a Firestore export's `__collections__`
/// are read document by document, each document a record of its own, where without it the whole
/// collection is one record (held whole, refused past the record limit).
@Suite struct NestedCollectionsReaderTests {
    static let layout = NestedCollections(mapMembers: ["__collections__", "subCollection"], domains: ["vocabulary"])

    /// A node-firestore-import-export export of `books` word books, each with one word in a
    /// sub-collection, on lines of their own; then a list collection and a scalar one.
    static func export(books: Int) -> String {
        var text = "{\"__collections__\": {\n  \"wordBooks\": {\n"
        for b in 0..<books {
            text += "    \"b\(b)\": {\"title\": \"Book \(b)\", \"__collections__\": {\"words\": {\"w\(b)\": {\"studyState\": 1}}}}"
            text += b == books - 1 ? "\n" : ",\n"
        }
        text += "  },\n  \"lists\": [ {\"id\": \"l0\"}, 7 ],\n  \"odd\": 5\n}}\n"
        return text
    }

    private func read(_ text: String, layout: NestedCollections? = layout, chunkSize: Int = 64 * 1024, step: Int = 1 << 20,
        maximumRecordSize: Int = 256 * 1024 * 1024) throws -> [Record]
    {
        var options = ReadOptions(fileName: "e.json")
        options.nestedCollections = layout
        return try drain(JSONDocumentReader(
            source: TrickleSource(text, step: step), options: options, chunkSize: chunkSize, maximumRecordSize: maximumRecordSize))
    }

    /// `collection/documentID#index@line:column token` of each record.
    private func summary(_ records: [Record]) -> [String] {
        records.map { record in
            let position = record.location.position.map(\.description) ?? "-"
            let token = record.nesting.map { " \($0.token)" + ($0.documentID == nil ? "[]" : "") } ?? ""
            return "\(record.collection ?? "nil")/\(record.documentID ?? "nil")#\(record.location.recordIndex ?? -1)@\(position)\(token)"
        }
    }

    @Test func eachDocumentIsARecordWithTheWholeCollectionsPlace() throws {
        let records = try read(Self.export(books: 3))
        #expect(summary(records) == [
            "__collections__/wordBooks#0@2:16 b0", "__collections__/wordBooks#0@2:16 b1", "__collections__/wordBooks#0@2:16 b2",
            "__collections__/lists#1@7:12 0[]", "__collections__/lists#1@7:12 1[]", "__collections__/odd#2@8:10",
        ])
        #expect(records[1].value == ["title": "Book 1", "__collections__": ["words": ["w1": ["studyState": .number("1")]]]])
        #expect(records[4].value == .number("7"))
        // Each document's locator is its own: positions relative to the document, lines of the file.
        #expect(records[1].locator?.position(of: .root) == TextPosition(line: 4, column: 11))
        #expect(records[1].locator?.position(of: JSONPointer(tokens: ["__collections__", "words", "w1", "studyState"]))
            == TextPosition(line: 4, column: 82))
        #expect(records[3].locator?.position(of: JSONPointer(tokens: ["id"])) == TextPosition(line: 7, column: 21))
    }

    @Test func theDocumentsAreTheMembersOfTheWholeCollection() throws {
        let text = Self.export(books: 4)
        let whole = try read(text, layout: nil)
        #expect(summary(whole) == ["__collections__/wordBooks#0@2:16", "__collections__/lists#1@8:12", "__collections__/odd#2@9:10"])
        let streamed = try read(text)
        let books = streamed.filter { $0.documentID == "wordBooks" }
        #expect(.object(ValueObject(books.map { (key: $0.nesting?.token ?? "", value: $0.value) })) == whole[0].value)
        #expect(.array(streamed.filter { $0.documentID == "lists" }.map(\.value)) == whole[1].value)
        // Read a byte at a time through a small buffer: the same records.
        for chunkSize in [1, 7, 64] {
            let trickled = try read(text, chunkSize: chunkSize, step: 1)
            #expect(summary(trickled) == summary(streamed), "chunk \(chunkSize)")
            #expect(trickled.map(\.value) == streamed.map(\.value), "chunk \(chunkSize)")
        }
    }

    /// A root collection larger than one record may be (here 2,000 bytes for about 9,000) reads,
    /// as no record holds more than one document; read as one record it is `too-large`.
    @Test func aRootCollectionLargerThanTheRecordLimitReads() throws {
        let text = Self.export(books: 100)
        #expect(text.utf8.count > 9_000)
        let records = try read(text, chunkSize: 256, maximumRecordSize: 2_000)
        #expect(records.count == 103)
        #expect(records.filter { $0.documentID == "wordBooks" }.map { $0.nesting?.token } == (0..<100).map { "b\($0)" })
        let error = try #require(ferryError { _ = try read(text, layout: nil, chunkSize: 256, maximumRecordSize: 2_000) })
        #expect(error.diagnostic.code == .tooLarge)
        #expect(error.diagnostic.location.description == "e.json:2:16")
        #expect(error.diagnostic.message == "a single value larger than 2000 bytes (the documented limit)")
    }

    /// The layout applies only to an envelope that names no domain or the layout's own; a
    /// `__collections__` that is not an object stays one record, and so does an empty collection.
    @Test func otherDomainsAndShapesKeepOneRecord() throws {
        let notes = try read(#"{"domain": "notes", "__collections__": {"wineNotes": {"a": {}}}}"#)
        #expect(summary(notes) == ["__collections__/wineNotes#0@1:54"])
        let vocabulary = try read(#"{"domain": "vocabulary", "__collections__": {"wordBooks": {"a": {}}}}"#)
        #expect(summary(vocabulary) == ["__collections__/wordBooks#0@1:59 a"])
        let list = try read(#"{"__collections__": [{"a": 1}], "subCollection": {"p/q/r": []}, "x": {"k": {}}}"#)
        #expect(summary(list) == ["__collections__/nil#0@1:22", "subCollection/p/q/r#0@1:60", "x/k#0@1:76"])
        // An empty collection is the one record it was: it names its collection.
        #expect(list[1].value == .array([]))
        #expect(list[1].nesting == nil)
    }

    /// A syntax error inside a collection read document by document reads as it did when the
    /// parser met it in the whole collection: same message (less the record a cut names), line
    /// and column.
    @Test func syntaxErrorsReadAsInTheWholeCollection() throws {
        let texts = [
            #"{"__collections__": {"c": {"a": {}, }}}"#,
            #"{"__collections__": {"c": [{}, ]}}"#,
            #"{"__collections__": {"c": {"a": {} "b": {}}}}"#,
            #"{"__collections__": {"c": [{} {}]}}"#,
            #"{"__collections__": {"c": {a: {}}}}"#,
            #"{"__collections__": {"c": {"a" {}}}}"#,
            #"{"__collections__": {"c": {"#,
            #"{"__collections__": {"c": {"a": {},"#,
            #"{"__collections__": {"c": {"a": "#,
            #"{"__collections__": {"c": {"a": {}"#,
            #"{"__collections__": {"c": ["#,
            #"{"__collections__": {"c": [{},"#,
            #"{"__collections__": {"c": [{}"#,
            #"{"__collections__": {"c": {"a": {"x": 1,,}}}}"#,
            "{\"__collections__\": {\"c\": {\"a\": {}, \u{1}}}}",
        ]
        for text in texts {
            let whole = try #require(ferryError { _ = try read(text, layout: nil) }, "\(text)")
            for chunkSize in [1, 5, 4096] {
                let streamed = try #require(ferryError { _ = try read(text, chunkSize: chunkSize, step: 1) }, "\(text)")
                // The whole collection is one record, which a cut names; streamed, a document is.
                let wholeMessage = whole.diagnostic.message.components(separatedBy: ": the input ends inside ")[0]
                #expect(streamed.diagnostic.message.components(separatedBy: ": the input ends inside ")[0] == wholeMessage, "\(text)")
                #expect(streamed.diagnostic.code == whole.diagnostic.code, "\(text)")
                #expect(streamed.diagnostic.location == whole.diagnostic.location, "\(text) chunk \(chunkSize)")
            }
        }
    }

    @Test func depthCountsTheMapAndTheCollection() throws {
        // Envelope, map, collection (3) + a document of 509 levels = 512: accepted; one more is too deep.
        func text(_ levels: Int) -> String {
            "{\"__collections__\": {\"c\": [" + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "]}}"
        }
        #expect(try read(text(509)).count == 1)
        let streamed = try #require(ferryError { _ = try read(text(510)) })
        let whole = try #require(ferryError { _ = try read(text(510), layout: nil) })
        #expect(streamed.diagnostic.code == .tooDeep)
        #expect(streamed.diagnostic.location == whole.diagnostic.location)
    }
}
