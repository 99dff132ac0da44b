import Testing

@testable import FerryCore

/// `InlineString` against `String(decoding:as:)`: the same text, compared, hashed, counted,
/// appended to and read back, for every length it makes (0-15) and every kind of character at
/// every position, with other bytes after the text (which must not be read into it).
@Suite struct InlineStringTests {
    /// Characters of each UTF-8 length, and one combining mark (a grapheme of two scalars).
    static let pieces: [[UInt8]] = [
        [0x61], [0x7F], [0x00], [0xC3, 0xA9], [0xE2, 0x80, 0xA8], [0xED, 0x95, 0x98], [0xF0, 0x9F, 0x8D, 0xB7],
        [0xCC, 0x81],
    ]

    /// Checks the two ways of making `bytes` (at most 15 of them) against the standard library's.
    static func check(_ bytes: [UInt8]) {
        let reference = String(decoding: bytes, as: UTF8.self)
        // Followed by bytes that are not zero: a text is read as two words whatever its length.
        let padded = bytes + [UInt8](repeating: 0xE9, count: 16)
        let inPlace = padded.withUnsafeBufferPointer { InlineString.make($0.baseAddress!, start: 0, length: bytes.count) }
        let copied = bytes.withUnsafeBufferPointer { InlineString.make(copying: $0) }
        for made in [inPlace, copied] {
            #expect(made == reference, "\(bytes)")
            #expect(Array(made.utf8) == bytes)
            #expect(made.utf8.count == bytes.count)
            #expect(made.count == reference.count)
            #expect(Array(made.unicodeScalars) == Array(reference.unicodeScalars))
            #expect(made.hashValue == reference.hashValue)
            #expect(made + "!" == reference + "!")
            #expect(made.utf8.withContiguousStorageIfAvailable { Array($0) } == bytes)
            #expect(made.lowercased() == reference.lowercased())
        }
    }

    @Test func agreesWithDecodingAtEveryLengthAndPosition() {
        var checked = 0
        for length in 0...15 {
            let plain = (0..<length).map { UInt8(0x41 + $0 % 26) }
            Self.check(plain)
            checked += 1
            for piece in Self.pieces where piece.count <= length {
                // The piece in place of the ASCII at each position: the text stays `length` bytes.
                for position in 0...(length - piece.count) {
                    var bytes = plain
                    bytes.replaceSubrange(position..<(position + piece.count), with: piece)
                    Self.check(bytes)
                    checked += 1
                }
            }
        }
        #expect(checked == 846)
    }

    @Test func readsOnlyTheTextAtItsOffset() {
        let line = Array("{\"id\":\"s0000497\",\"name\":\"하나\"}........".utf8)
        line.withUnsafeBufferPointer { p in
            #expect(InlineString.make(p.baseAddress!, start: 7, length: 8) == "s0000497")
            #expect(InlineString.make(p.baseAddress!, start: 25, length: 6) == "하나")
            #expect(InlineString.make(p.baseAddress!, start: 2, length: 0) == "")
        }
    }
}
