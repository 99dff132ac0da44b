import Testing

@testable import FerryCore

/// `UTF8Text.string(validating:)` against the standard library's `String(validating:as:)`: the
/// same text, nil for the same bytes, at every length around its word boundaries.
@Suite struct UTF8TextTests {
    static func both(_ bytes: [UInt8]) -> (String?, String?) {
        bytes.withUnsafeBufferPointer { (UTF8Text.string(validating: $0), String(validating: $0, as: UTF8.self)) }
    }

    /// Inserts: ASCII, well-formed multi-byte, and ill-formed bytes (lone continuation, overlong,
    /// surrogate, above U+10FFFF, truncated).
    static let pieces: [[UInt8]] = [
        [0x41], [0x7F], [0x00], [0xC3, 0xA9], [0xE2, 0x80, 0xA8], [0xF0, 0x9F, 0x8D, 0xB7],
        [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80], [0xFF],
    ]

    @Test func agreesWithTheValidatingReadAtEveryLengthAndPosition() {
        var checked = 0
        for length in 0..<20 {
            let plain = (0..<length).map { UInt8(0x61 + $0 % 26) }
            let (fast, reference) = Self.both(plain)
            #expect(fast == reference && fast == String(decoding: plain, as: UTF8.self))
            for position in 0...length {
                for piece in Self.pieces {
                    var bytes = plain
                    bytes.insert(contentsOf: piece, at: position)
                    let (fast, reference) = Self.both(bytes)
                    #expect(fast == reference, "\(bytes)")
                    if let fast { #expect(Array(fast.utf8) == bytes) }
                    checked += 1
                }
            }
        }
        #expect(checked == 12 * 210)
    }

    /// Two multi-byte or ill-formed pieces with a run of ASCII before, between and after them: the
    /// run between is read a word at a time once the text is known not to be all ASCII.
    @Test func agreesWithTwoPiecesAndTheASCIIRunsAroundThem() {
        var checked = 0
        for between in 0..<18 {
            for outside in [0, 3, 9] {
                for first in Self.pieces where first.contains(where: { $0 >= 0x80 }) {
                    for second in Self.pieces {
                        let run = { (n: Int) in (0..<n).map { UInt8(0x61 + $0 % 26) } }
                        let bytes = run(outside) + first + run(between) + second + run(outside)
                        let (fast, reference) = Self.both(bytes)
                        #expect(fast == reference, "\(bytes)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 18 * 3 * 9 * 12)
    }

    @Test func knownCases() {
        #expect(Self.both([]).0 == "")
        #expect(Self.both(Array("Cuvée".utf8)).0 == "Cuvée")
        #expect(Self.both(Array("12345678".utf8)).0 == "12345678")
        #expect(Self.both([0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0xFF]).0 == nil)
        #expect(Self.both([0xFF, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38]).0 == nil)
        #expect(Self.both([0x31, 0x80, 0x33]).0 == nil)
        #expect(Self.both([0xED, 0xA0, 0x80]).0 == nil)
        // A character, then eight ASCII bytes read as one word, then one byte that is not UTF-8.
        #expect(Self.both(Array("é12345678".utf8) + [0xFF]).0 == nil)
        #expect(Self.both(Array("é12345678é".utf8)).0 == "é12345678é")
    }
}
