import FerryCore
import Testing

@testable import FerrySchemas

/// What each document of a Firestore export inside one raw record is committed with: its
/// location without a field, its base built once for the record, and its locator's answers for
/// its own root and the members the layout fills in. Each is a shortcut of a longer way that
/// must give the same values.
@Suite struct NestedDocumentContextTests {
    /// A firestore-backup-restore word book as the reader gives it: record 3 of `wordBooks`, the
    /// word `w1` of its `subCollection` at line 7, its `meaningText` at 7:20.
    func bookRecord() -> Record {
        let word: Value = ["meaningText": "dog", "studyState": 1]
        let book: Value = ["title": "N5", "subCollection": ["wordBooks/b1/words": ["w1": word]]]
        let positions = [
            "": TextPosition(line: 2, column: 5),
            "/subCollection/wordBooks~1b1~1words/w1": TextPosition(line: 7, column: 9),
            "/subCollection/wordBooks~1b1~1words/w1/meaningText": TextPosition(line: 7, column: 20),
        ]
        return Record(collection: "wordBooks", documentID: "b1", value: book,
            location: SourceLocation(file: "in.json", line: 2, column: 5, collection: "wordBooks", recordIndex: 3),
            locator: TestLocator(positions: positions))
    }

    /// The word's context as `FirestoreLayout.container` makes it: below the book, located by a
    /// `SubtreeLocator` of the word's own positions, its missing `id` and `wordBookID` known absent.
    func wordContext(cachingBase: Bool) -> RecordContext {
        let record = bookRecord()
        var context = RecordContext(record: record).appending("subCollection").appending("wordBooks/b1/words")
        if cachingBase { context = context.cachingBase() }
        let prefix = context.path.appending("w1")
        var subtree = SubtreeLocator(prefix: prefix, inner: TestLocator(positions: [
            "": TextPosition(line: 7, column: 9), "/meaningText": TextPosition(line: 7, column: 20),
        ]), outer: record.locator!)
        subtree.absentMembers = FirestoreLayout.absentMembers(of: ValueObject([("meaningText", "dog"), ("studyState", 1)]))
        var word = context.appending("w1").locating(with: subtree)
        word.recordID = "w1"
        return word
    }

    @Test func theBaseBuiltOnceIsTheRecordsPointer() {
        for cached in [false, true] {
            let context = wordContext(cachingBase: cached)
            #expect(context.base == JSONPointer(tokens: ["wordBooks", "b1"]))
            #expect(context.hasRecordBase)
            let id = context.location(of: JSONPointer(tokens: ["id"]))
            #expect(id.field?.description == "/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1/id")
            #expect(id.position == TextPosition(line: 7, column: 9))  // absent: the word's own start
            #expect(id.recordID == "w1")
            let meaning = context.location(of: JSONPointer(tokens: ["meaningText"]))
            #expect(meaning.field?.description == "/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1/meaningText")
            #expect(meaning.position == TextPosition(line: 7, column: 20))
        }
    }

    @Test func aLocationWithoutFieldIsTheLocationLessItsField() {
        let context = wordContext(cachingBase: true)
        var full = context.location()
        #expect(full.field?.description == "/wordBooks/b1/subCollection/wordBooks~1b1~1words/w1")
        full.field = nil
        let short = context.locationWithoutField()
        #expect(short == full)
        #expect(short.position == TextPosition(line: 7, column: 9))
        #expect(short.recordID == "w1")
        #expect(short.collection == "wordBooks")
        #expect(short.recordIndex == 3)
    }

    @Test func aSubtreeLocatorAnswersItsRootAndFilledMembersWithoutTheOuterLocator() {
        let prefix = JSONPointer(tokens: ["subCollection", "p", "w1"])
        var subtree = SubtreeLocator(prefix: prefix,
            inner: TestLocator(positions: ["": TextPosition(line: 7, column: 9), "/a/0": TextPosition(line: 8, column: 2)]),
            outer: TestLocator(positions: ["/title": TextPosition(line: 3, column: 4)]))
        subtree.absentMembers = ["id"]
        #expect(subtree.position(of: prefix) == TextPosition(line: 7, column: 9))
        #expect(subtree.position(of: prefix.appending("id")) == nil)
        #expect(subtree.position(of: prefix.appending("a").appending(0)) == TextPosition(line: 8, column: 2))
        #expect(subtree.position(of: prefix.appending("b")) == nil)
        #expect(subtree.position(of: JSONPointer(tokens: ["title"])) == TextPosition(line: 3, column: 4))
        #expect(subtree.position(of: JSONPointer(tokens: ["subCollection", "q", "w1"])) == nil)
    }

    @Test func absentMembersAreTheFilledMembersADocumentLacks() {
        #expect(FirestoreLayout.absentMembers(of: ValueObject([("title", "N5")])) == ["id", "wordBookID"])
        #expect(FirestoreLayout.absentMembers(of: ValueObject([("wordBookID", "b1")])) == ["id"])
        #expect(FirestoreLayout.absentMembers(of: ValueObject([("id", "w1")])) == ["wordBookID"])
        #expect(FirestoreLayout.absentMembers(of: ValueObject([("wordBookID", "b1"), ("id", "w1")])) == [])
    }
}
