import FerryCore
import Testing

@testable import FerrySchemas

@Suite struct PackedPointersTests {
    /// Every pointer comes back token for token: empty tokens, `/` and `~` inside a token (a
    /// firestore-backup-restore path), non-ASCII text and a token longer than one length byte.
    @Test func givesBackEachPointerItStored() {
        let pointers = [
            JSONPointer.root,
            JSONPointer(tokens: ["__collections__", "wordBooks", "b-1", "__collections__", "words", "w-1"]),
            JSONPointer(tokens: ["subCollection", "wordBooks/b~1/words", "", "0"]),
            JSONPointer(tokens: ["単語帳", String(repeating: "x", count: 300)]),
        ]
        var packed = PackedPointers()
        let offsets = pointers.map { packed.append($0) }
        #expect(offsets[0] == 0)
        #expect(offsets[1] == 1)
        for (pointer, offset) in zip(pointers, offsets).reversed() {
            #expect(packed.pointer(at: offset) == pointer)
        }
    }

    /// A nested document's first-seen pointer, kept packed by the id table, is the one a
    /// duplicate's message names.
    @Test func idTableGivesBackANestedDocumentsPointer() throws {
        let table = IDTable()
        let field = JSONPointer(tokens: ["subCollection", "wordBooks/b-1/words", "w-1"])
        #expect(table.insert("w-1", known: true, line: 3, collection: nil, index: nil) { field } == nil)
        let again = try #require(table.insert("w-1", known: true, line: 8, collection: nil, index: nil) { "/x" })
        #expect(again.line == 3)
        #expect(again.field == field)
    }
}
