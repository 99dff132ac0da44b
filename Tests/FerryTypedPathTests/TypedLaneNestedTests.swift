import FerryCore
import FerrySchemas
import Foundation
import Testing

@testable import FerryTypedPath

/// The lane takes the documents of a nested record (`RawRecord.jsonNested`) as the general path's
/// layout finds them: a Firestore word book with its words in both export layouts, and a member
/// of an object keyed by document id in any domain. It takes all of them or none.
@Suite struct TypedLaneNestedTests {
    static func lane(_ domain: Domain, from source: Int, to target: Int) throws -> TypedLane? {
        let processor = try DatasetProcessor(domain: domain, sourceVersion: source, targetVersion: target,
            options: ProcessingOptions(), log: DiagnosticLog())
        return TypedLane(preparer: processor.preparer, output: .lines(JSONLinesRendering(options: WriteOptions())!))
    }

    /// What a batch of `lane` makes of `text` offered as a nested record starting on line 3: the
    /// taken record, the lines rendered, the preparations and each one's document pointer.
    static func take(_ lane: TypedLane, _ text: String, collection: String, documentID: String, nesting: RecordNesting?)
        -> (taken: TakenRecord?, rendered: String, preparations: [TypedPreparation], pointers: [String?])
    {
        var text = text
        let batch = lane.batch()
        let taken = text.withUTF8 {
            batch.take(.jsonNested($0, start: TextPosition(line: 3, column: 5), collection: collection, documentID: documentID,
                nesting: nesting, maximumDepth: 510))
        }
        let pointers = batch.preparations.indices.map { batch.documentPointer(of: $0)?.description }
        return (taken, batch.withRendered { String(decoding: $0, as: UTF8.self) }, batch.preparations, pointers)
    }

    /// A node-firestore-import-export word book: its words in `__collections__`, one with its id
    /// and book from its key and parent, one with its own; a Timestamp in the wrapper.
    static let nodeFirestoreBook = """
        {"title": "Book",
          "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000000, "_nanoseconds": 0}},
          "__collections__": {"words": {
            "w1": {"meaningText": "m", "studyState": 1, "timestamp": {"_seconds": 1600000000, "_nanoseconds": 5}, "__collections__": {}},
            "w2": {"id": "own", "wordBookID": "b1", "studyState": 2,
              "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1600000001, "_nanoseconds": 0}}}
          }}}
        """

    /// The lines `ferry convert` writes for the export holding `nodeFirestoreBook` (the general path).
    static let nodeFirestoreLines = """
        {"$collection":"wordBooks","id":"b1","title":"Book","timestamp":{"_seconds":1600000000,"_nanoseconds":0}}
        {"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"m","meaningImageURL":"","ganaText":"","ganaImageURL":"","kanjiText":"","kanjiImageURL":"","studyState":1,"timestamp":{"_seconds":1600000000,"_nanoseconds":5}}
        {"$collection":"words","id":"own","wordBookID":"b1","meaningText":"","meaningImageURL":"","ganaText":"","ganaImageURL":"","kanjiText":"","kanjiImageURL":"","studyState":2,"timestamp":{"_seconds":1600000001,"_nanoseconds":0}}

        """

    @Test func aNodeFirestoreBookAndItsWordsAreTakenInTheLayoutsOrder() throws {
        let lane = try #require(try Self.lane(.vocabulary, from: 1, to: 1))
        let (taken, rendered, preparations, pointers) = Self.take(lane, Self.nodeFirestoreBook, collection: "__collections__",
            documentID: "wordBooks", nesting: RecordNesting(token: "b1", documentID: "b1"))
        #expect(taken?.payload == 0)
        #expect(taken?.count == 3)
        #expect(rendered == Self.nodeFirestoreLines)
        #expect(preparations.map(\.id) == ["b1", "w1", "own"])
        // Where each id stands, as the general path's commit finds it: the document (an id from
        // its key) or its own `id` member; the document's pointer from the input's root.
        #expect(preparations.map(\.singleLine) == [3, 6, 7])
        #expect(pointers == [
            "/__collections__/wordBooks/b1", "/__collections__/wordBooks/b1/__collections__/words/w1",
            "/__collections__/wordBooks/b1/__collections__/words/w2",
        ])
    }

    @Test func aBackupRestoreBookTakesItsSubCollectionByPath() throws {
        let book = """
            {"title": "Book", "timestamp": {"_seconds": 1600000000, "_nanoseconds": 0},
              "subCollection": {"wordBooks/b1/words": {"w1": {"meaningText": "m", "studyState": 1, "timestamp": {"_seconds": 1600000000, "_nanoseconds": 0}}}}}
            """
        let lane = try #require(try Self.lane(.vocabulary, from: 1, to: 2))
        let (taken, rendered, preparations, pointers) = Self.take(lane, book, collection: "wordBooks", documentID: "b1", nesting: nil)
        #expect(taken?.count == 2)
        #expect(rendered == """
            {"$collection":"wordBooks","id":"b1","title":"Book","createdAt":"2020-09-13T12:26:40Z"}
            {"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"m","meaningImageURL":"","ganaText":"","ganaImageURL":"","kanjiText":"","kanjiImageURL":"","studyState":"success","timestamp":"2020-09-13T12:26:40Z"}

            """)
        #expect(pointers == [
            "/wordBooks/b1", "/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1",
        ])
        #expect(preparations.map(\.singleLine) == [3, 4])
    }

    @Test func aMemberOfAnObjectKeyedByIdTakesItsIdFromItsKey() throws {
        let lane = try #require(try Self.lane(.notes, from: 2, to: 2))
        let note = TypedLaneTests.v2Line.replacingOccurrences(of: #""$collection":"wineTastingNotes","id":"w1","#, with: "")
        let (taken, rendered, preparations, pointers) = Self.take(lane, note, collection: "wineTastingNotes", documentID: "w1", nesting: nil)
        #expect(taken?.count == 1)
        #expect(rendered == TypedLaneTests.v2Line + "\n")
        #expect(pointers == ["/wineTastingNotes/w1"])
        // A Firestore layout's members are not another domain's: a `__collections__` member is unknown there.
        let nested = note.replacingOccurrences(of: #""title":"#, with: #""__collections__":{},"title":"#)
        #expect(Self.take(lane, nested, collection: "wineTastingNotes", documentID: "w1", nesting: nil).taken == nil)
    }

    /// A change to `nodeFirestoreBook` that the layout reports something about, or that the lane
    /// does not read: none of the record's documents is then taken, nothing rendered.
    struct Change: Sendable, CustomStringConvertible {
        let description: String
        let from: String
        let to: String
    }

    static let leftToTheGeneralPath = [
        Change(description: "a word naming another book", from: #""w1": {"meaningText": "m""#, to: #""w1": {"wordBookID": "b9", "meaningText": "m""#),
        Change(description: "a book id that is not a string", from: #"{"title": "Book","#, to: #"{"id": 7, "title": "Book","#),
        Change(description: "an empty id", from: #"{"title": "Book","#, to: #"{"id": "", "title": "Book","#),
        Change(description: "a word that is not an object", from: #""w2": {"id": "own""#, to: #""w3": 5, "w2": {"id": "own""#),
        Change(description: "a collection neither object nor list", from: #"{"words": {"#, to: #"{"tags": 5, "words": {"#),
        Change(description: "sub-collections twice", from: #"{"title": "Book","#, to: #"{"__collections__": {}, "title": "Book","#),
        Change(description: "a syntax error in the second word", from: #""studyState": 2,"#, to: #""studyState": 2,,"#),
        Change(description: "a value of the wrong type", from: #""studyState": 2,"#, to: #""studyState": "2","#),
        Change(description: "an unknown member of a word", from: #""studyState": 2,"#, to: #""studyState": 2, "note": "x","#),
        Change(description: "text after the book", from: #"0}}}\#n  }}}"#, to: #"0}}}\#n  }}} x"#),
    ]

    @Test(arguments: leftToTheGeneralPath)
    func aRecordWithAnyDocumentNotTakenIsLeftWhole(_ change: Change) throws {
        let lane = try #require(try Self.lane(.vocabulary, from: 1, to: 1))
        let text = Self.nodeFirestoreBook.replacingOccurrences(of: change.from, with: change.to)
        try #require(text != Self.nodeFirestoreBook)
        let (taken, rendered, preparations, pointers) = Self.take(lane, text, collection: "__collections__", documentID: "wordBooks",
            nesting: RecordNesting(token: "b1", documentID: "b1"))
        #expect(taken == nil)
        #expect(rendered.isEmpty)
        #expect(preparations.isEmpty)
        #expect(pointers.isEmpty)
    }
}
