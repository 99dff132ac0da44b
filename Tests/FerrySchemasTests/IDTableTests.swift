import FerryCore
import Testing

@testable import FerrySchemas

@Suite struct IDTableTests {
    @Test func findsEachIdAgainWithWhereItWasFirstSeen() throws {
        let table = IDTable()
        let uuid = "3d9c1724-11e2-4b8f-ab0d-549b6f03675a"
        #expect(table.insert(uuid, known: true, line: 2, collection: "wineNotes", index: 0) { "/x" } == nil)
        #expect(table.insert("w-1", known: true, line: 9, collection: "wineNotes", index: 7) { "/x" } == nil)
        // Upper-case is another id (not packed), so it is not taken for the lower-case one.
        #expect(table.insert(uuid.uppercased(), known: true, line: 4, collection: "wineNotes", index: 2) { "/x" } == nil)

        let again = try #require(table.insert(uuid, known: true, line: 30, collection: "wineNotes", index: 28) { "/x" })
        #expect(again.line == 2)
        #expect(again.field == JSONPointer(tokens: ["wineNotes", "0"]))
        let other = try #require(table.insert("w-1", known: true, line: 31, collection: "wineNotes", index: 29) { "/x" })
        #expect(other.line == 9)
        #expect(other.field == JSONPointer(tokens: ["wineNotes", "7"]))
    }

    @Test func keepsUnusualPointersAndMissingLines() throws {
        let table = IDTable()
        _ = table.insert("a", known: false, line: nil, collection: nil, index: nil) { JSONPointer(tokens: ["words", "k", "w"]) }
        let first = try #require(table.insert("a", known: true, line: 5, collection: nil, index: nil) { "/y" })
        #expect(first.line == nil)
        #expect(first.field == JSONPointer(tokens: ["words", "k", "w"]))
        // Inserted as derived (not known), marked known by the second insert.
        #expect(table.isKnown("a"))
        #expect(!table.isKnown("b"))
        // A line before its record's index (a header after records) round-trips too.
        _ = table.insert("late", known: true, line: 1, collection: "c", index: 500) { "/z" }
        #expect(table.insert("late", known: true, line: 2, collection: "c", index: 501) { "/z" }?.line == 1)
    }

    @Test func growsPastItsFirstTableAndChunk() throws {
        let table = IDTable()
        let count = 60_000  // more than the first 1,024 slots and than one 1 MiB chunk of entries
        for i in 0..<count {
            let id = i % 2 == 0 ? String(format: "%08x-0000-4000-8000-%012x", i, i) : "id-\(i)"
            #expect(table.insert(id, known: i % 3 == 0, line: i + 2, collection: "c", index: i) { "/p" } == nil)
        }
        for i in stride(from: 0, to: count, by: 997) {
            let id = i % 2 == 0 ? String(format: "%08x-0000-4000-8000-%012x", i, i) : "id-\(i)"
            #expect(table.isKnown(id) == (i % 3 == 0))
            let seen = try #require(table.insert(id, known: false, line: 1, collection: "c", index: count) { "/p" })
            #expect(seen.line == i + 2)
            #expect(seen.field == JSONPointer(tokens: ["c", String(i)]))
        }
    }
}
