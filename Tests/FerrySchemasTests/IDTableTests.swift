import FerryCore
import FerryTestSupport
import Testing

@testable import FerrySchemas
import Foundation

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

/// The id table against a dictionary that does what it promises (first-seen line and pointer,
/// known marks), and its packed UUIDs against a digit-by-digit reading.
@Suite struct IDTableModelTests {
    /// What `IDTable` keeps, kept plainly.
    final class Model {
        var seen: [String: (known: Bool, first: IDTable.FirstSeen)] = [:]
        var pointerCollection: String?

        func insert(_ id: String, known: Bool, line: Int?, collection: String?, index: Int?, pointer: JSONPointer)
            -> IDTable.FirstSeen?
        {
            if let existing = seen[id] {
                if known { seen[id]?.known = true }
                return existing.first
            }
            var field = pointer
            if let collection, let index, index >= 0 {
                if pointerCollection == nil { pointerCollection = collection }
                if pointerCollection == collection { field = JSONPointer(tokens: [collection, String(index)]) }
            }
            seen[id] = (known, IDTable.FirstSeen(line: line, field: field))
            return nil
        }
    }


    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text.suffix(digits)
    }

    /// The canonical text of two packed words.
    static func uuid(_ packed: (UInt64, UInt64)) -> String {
        let text = hex(packed.0, digits: 16) + hex(packed.1, digits: 16)
        let digits = Array(text)
        return String(digits[0..<8]) + "-" + String(digits[8..<12]) + "-" + String(digits[12..<16]) + "-"
            + String(digits[16..<20]) + "-" + String(digits[20..<32])
    }

    /// The packing of `IDTable.packUUID`, one digit at a time.
    static func referencePack(_ text: String) -> (UInt64, UInt64)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var words: [UInt64] = [0, 0]
        var digitCount = 0
        for (i, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            words[digitCount / 16] = words[digitCount / 16] << 4 | nibble
            digitCount += 1
        }
        return (words[0], words[1])
    }

    static func pack(_ text: String) -> (UInt64, UInt64)? {
        var text = text
        return text.withUTF8 { IDTable.packUUID($0) }
    }

    @Test func packsExactlyTheCanonicalLowerCaseUUIDs() {
        var numbers = SplitMix(seed: 7)
        let odd: [UInt8] = Array("/09:@AFGZ`afgz-".utf8) + [0x00, 0x7F, 0x80, 0xB0, 0xE0, 0xFF]
        for _ in 0..<200 {
            let text = Self.uuid((numbers.next(), numbers.next()))
            let packed = Self.pack(text)
            #expect(packed.map { [$0.0, $0.1] } == Self.referencePack(text).map { [$0.0, $0.1] })
            #expect(packed != nil)
            // Every byte replaced by each odd byte: packed exactly when the reference packs it.
            var bytes = Array(text.utf8)
            let position = Int(numbers.next() % 36)
            for byte in odd {
                let saved = bytes[position]
                bytes[position] = byte
                if let changed = String(validating: bytes, as: UTF8.self) {
                    #expect(Self.pack(changed).map { [$0.0, $0.1] } == Self.referencePack(changed).map { [$0.0, $0.1] },
                        "\(changed)")
                } else {
                    let packed = bytes.withUnsafeBufferPointer { IDTable.packUUID($0) }
                    #expect(packed == nil)
                }
                bytes[position] = saved
            }
        }
        #expect(Self.pack("00000000-0000-0000-0000-000000000000").map { [$0.0, $0.1] } == [0, 0])
        #expect(Self.pack("ffffffff-ffff-ffff-ffff-ffffffffffff").map { [$0.0, $0.1] } == [.max, .max])
        #expect(Self.pack("0123abcd-ef01-4567-89ab-cdef01234567").map { [$0.0, $0.1] }
            == [0x0123_abcd_ef01_4567, 0x89ab_cdef_0123_4567])
        #expect(Self.pack("3D9C1724-11e2-4b8f-ab0d-549b6f03675a") == nil)
        #expect(Self.pack("3d9c1724-11e2-4b8f-ab0d-549b6f03675") == nil)
        #expect(Self.pack("3d9c172411e2-4b8f-ab0d-549b6f03675a0") == nil)
    }

    /// Inserts `count` ids (UUIDs, upper-case UUIDs, other text, some repeated, some with
    /// unusual pointers or no line) into a table and the model, then every id again.
    func checkAgainstModel(count: Int, seed: UInt64) {
        let table = IDTable()
        let model = Model()
        var numbers = SplitMix(seed: seed)
        var ids: [String] = []
        for i in 0..<count {
            let id: String
            let kind = numbers.next() % 10
            if kind < 6 || ids.isEmpty {
                id = Self.uuid((numbers.next(), numbers.next()))
            } else if kind == 6 {
                id = Self.uuid((numbers.next(), numbers.next())).uppercased()
            } else if kind == 7 {
                id = "id-\(numbers.next() % 100_000)"
            } else if kind == 8 {
                id = ids[Int(numbers.next() % UInt64(ids.count))]  // a duplicate (or its first time)
            } else {
                id = String(repeating: "x", count: Int(numbers.next() % 200))
            }
            ids.append(id)
            let known = numbers.next() % 3 != 0
            let line: Int? = numbers.next() % 7 == 0 ? nil : i + 2
            let usual = numbers.next() % 11 != 0
            let collection = usual ? "notes" : (numbers.next() % 2 == 0 ? nil : "other")
            let index: Int? = usual ? i : nil
            let pointer = JSONPointer(tokens: ["deep", String(i), "x"])
            let got = table.insert(id, known: known, line: line, collection: collection, index: index) { pointer }
            let expected = model.insert(id, known: known, line: line, collection: collection, index: index, pointer: pointer)
            #expect(got?.line == expected?.line && got?.field == expected?.field, "insert \(i) of \(count): \(id)")
        }
        for id in Set(ids) {
            #expect(table.isKnown(id) == (model.seen[id]?.known ?? false), "\(id)")
            let got = table.insert(id, key: IDTable.Key(id), known: false, line: 1, collection: "notes", index: count) { "/q" }
            let expected = model.seen[id]?.first
            #expect(got != nil)
            #expect(got?.line == expected?.line && got?.field == expected?.field, "again \(id)")
        }
        #expect(!table.isKnown("never-seen"))
        #expect(!table.isKnown(Self.uuid((1, 2))))
    }

    @Test(arguments: [1, 2, 716, 717, 718, 1_435, 3_000, 12_345])
    func agreesWithTheModelAcrossGrowth(count: Int) {
        checkAgainstModel(count: count, seed: UInt64(count))
    }

    /// Over 2 MiB of arena: slot positions widen twice (each tag gives up a bit).
    @Test func agreesWithTheModelPastSeveralChunks() {
        checkAgainstModel(count: 160_000, seed: 99)
    }

    /// UUIDs whose hashes share their top 12 bits (the widest tag) and so never differ by tag:
    /// each probe compares them in the arena. Mixed with other ids and grown past the first table.
    @Test func findsIdsWhoseTagsCollide() throws {
        var colliding: [(UInt64, UInt64)] = []
        var word: UInt64 = 0
        while colliding.count < 400 {
            word += 1
            let packed = (word &* 0x2545_F491_4F6C_DD1D, 0x4000_8000_0000_0000 | word)
            if IDTable.hash(packed) >> 52 == 0x5A5 { colliding.append(packed) }
        }
        let table = IDTable()
        var order: [String] = []
        for (i, packed) in colliding.enumerated() {
            order.append(Self.uuid(packed))
            order.append("other-\(i)")
            order.append(Self.uuid((UInt64(i), UInt64(i) << 7)))
        }
        for (i, id) in order.enumerated() {
            #expect(table.insert(id, known: i % 2 == 0, line: i + 2, collection: "c", index: i) { "/p" } == nil)
        }
        for (i, id) in order.enumerated() {
            #expect(table.isKnown(id) == (i % 2 == 0))
            let seen = try #require(table.insert(id, known: true, line: 1, collection: "c", index: order.count) { "/p" })
            #expect(seen.line == i + 2)
            #expect(seen.field == JSONPointer(tokens: ["c", String(i)]))
        }
    }

    /// Text ids of every length up to 40 bytes (the hash and the comparison read them in words
    /// that overlap: every byte must count), each against the ids one byte away from it.
    @Test func tellsApartTextIdsOneByteApart() throws {
        var ids: [String] = []
        for length in 1...40 {
            let base = (0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }
            ids.append(String(base))
            for position in 0..<length {
                var changed = base
                changed[position] = "0"
                ids.append(String(changed))
            }
        }
        #expect(Set(ids).count == ids.count)
        // Every byte is read: changing any one changes the hash.
        var hashes = Set<UInt64>()
        for id in ids {
            var text = id
            hashes.insert(text.withUTF8 { IDTable.hash($0) })
        }
        #expect(hashes.count == ids.count)
        let table = IDTable()
        for (i, id) in ids.enumerated() {
            #expect(table.insert(id, known: true, line: i + 2, collection: "c", index: i) { "/p" } == nil)
        }
        for (i, id) in ids.enumerated() {
            let seen = try #require(table.insert(id, known: true, line: 1, collection: "c", index: ids.count) { "/p" })
            #expect(seen.line == i + 2)
            #expect(seen.field == JSONPointer(tokens: ["c", String(i)]))
        }
        #expect(!table.isKnown("abcdefgh00"))  // two bytes away
        #expect(!table.isKnown(""))
    }

    @Test func keyMatchesTheIdAsTheGeneralInsertReadsIt() {
        let uuid = "3d9c1724-11e2-4b8f-ab0d-549b6f03675a"
        let key = IDTable.Key(uuid)
        #expect(key.uuid.map { [$0.0, $0.1] } == [0x3d9c_1724_11e2_4b8f, 0xab0d_549b_6f03_675a])
        #expect(key.hash == IDTable.hash((0x3d9c_1724_11e2_4b8f, 0xab0d_549b_6f03_675a)))
        let upper = IDTable.Key(uuid.uppercased())
        #expect(upper.uuid == nil)
        var text = uuid.uppercased()
        #expect(upper.hash == text.withUTF8 { IDTable.hash($0) })
    }
}
