import FerryCore
import Testing

@testable import FormatJSON

/// The in-line pieces a renderer writes each member with (`appendJSONMember`,
/// `appendJSONStringInline`, `appendJSONNumberInline`) append exactly the bytes of the general
/// pieces (`appendJSONString` and `:`, `appendJSONString`, `appendJSONNumber`), for every length around
/// their word paths, each byte that needs an escape at each position, and numbers of every kind.
@Suite struct JSONMemberAppendingTests {
    /// The bytes `body` appends after a one-byte prefix, through a buffer that starts small.
    static func appended(_ body: (inout ByteBuffer) -> Void) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append(UInt8(ascii: "x"))
        body(&buffer)
        buffer.append(UInt8(ascii: "y"))
        let bytes = buffer.array
        #expect(bytes.first == UInt8(ascii: "x") && bytes.last == UInt8(ascii: "y"))
        return Array(bytes.dropFirst().dropLast())
    }

    /// Texts of 0 to 40 bytes, plain and with each special or non-ASCII character at each position.
    static var texts: [String] {
        let specials: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "🍷"]
        var texts: [String] = []
        for length in 0...40 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            texts.append(plain)
            for position in 0..<length {
                for special in specials {
                    var characters = Array(plain)
                    characters[position] = special
                    texts.append(String(characters))
                }
            }
        }
        return texts
    }

    @Test func stringsAreTheGeneralPiecesBytes() {
        let texts = Self.texts
        #expect(texts.count == 41 + 9 * 820)
        for text in texts {
            #expect(Self.appended { $0.appendJSONStringInline(text) } == Self.appended { $0.appendJSONString(text) }, "\(text)")
        }
        // A native string (not a literal, longer than a small string) and a bridged-free copy.
        let native = String(decoding: Array("Cabernet Sauvignon \"Cuvée\" 2000".utf8), as: UTF8.self)
        #expect(String(decoding: Self.appended { $0.appendJSONStringInline(native) }, as: UTF8.self)
            == #""Cabernet Sauvignon \"Cuvée\" 2000""#)
        // Many strings in a row into a buffer that grows: each lands right after the one before.
        var buffer = ByteBuffer(capacity: 1)
        var expected = ByteBuffer(capacity: 1)
        for text in texts.prefix(400) {
            buffer.appendJSONStringInline(text)
            expected.appendJSONString(text)
        }
        #expect(buffer.array == expected.array)
    }

    @Test(arguments: [false, true])
    func membersAreACommaAndTheKeysString(comma: Bool) {
        for key in Self.texts.filter({ $0.utf8.count <= 24 }) {
            let general = Self.appended { buffer in
                if comma { buffer.append(UInt8(ascii: ",")) }
                buffer.appendJSONString(key)
                buffer.append(UInt8(ascii: ":"))
            }
            #expect(Self.appended { $0.appendJSONMember(key, comma: comma) } == general, "\(key)")
        }
        #expect(String(decoding: Self.appended { $0.appendJSONMember("alcoholByVolume", comma: comma) }, as: UTF8.self)
            == (comma ? #","alcoholByVolume":"# : #""alcoholByVolume":"#))
        #expect(String(decoding: Self.appended { $0.appendJSONMember("sixteen bytes!!!", comma: comma) }, as: UTF8.self)
            == (comma ? #","sixteen bytes!!!":"# : #""sixteen bytes!!!":"#))
    }

    /// Whole numbers, one-decimal numbers, numbers with more decimals, exponent forms, the limits
    /// of the in-line cases (10^15, 2^50 tenths, 2^53), signed zeros, and pseudo-random doubles.
    @Test func numbersAreTheGeneralPiecesBytes() {
        var numbers: [Double] = [
            0, -0.0, 1, -1, 9, 10, 13, 13.5, -13.5, 0.5, -0.5, 0.1, 0.2, 0.3, 4.5, 99.9, 100.1, 0.05, 0.125,
            1e-7, 1e21, 1e15, 1e15 - 1, 1e15 + 0.5, 999_999_999_999_999.9, 112_589_990_684_262.3,
            112_589_990_684_262.5, 0x1p50 / 10, 0x1p53, 0x1p53 + 2, 1.7976931348623157e308,
            .leastNonzeroMagnitude, .ulpOfOne, 1 / 3, -2 / 3, 12.25, 7.75, 0.001, 0.0001,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let tenths = Double(Int64(bitPattern: state >> 20) % 2_000_000) / 10
            numbers.append(tenths)
            numbers.append(Double(Int64(bitPattern: state) >> 11) / 1000)
            numbers.append(Double(bitPattern: state))
        }
        for number in numbers {
            var inlineResult = false
            var generalResult = false
            let inline = Self.appended { inlineResult = $0.appendJSONNumberInline(number) }
            let general = Self.appended { generalResult = $0.appendJSONNumber(number) }
            #expect(inline == general && inlineResult == generalResult, "\(number)")
        }
        let exact: [(Double, String)] = [(-0.0, "0"), (13.5, "13.5"), (-0.5, "-0.5"), (4, "4"), (0.25, "0.25"), (1e21, "1e+21")]
        for (number, text) in exact {
            #expect(String(decoding: Self.appended { _ = $0.appendJSONNumberInline(number) }, as: UTF8.self) == text)
        }
        #expect(Self.appended { _ = $0.appendJSONNumberInline(.nan) }.isEmpty)
        #expect(Self.appended { _ = $0.appendJSONNumberInline(-.infinity) }.isEmpty)
    }
}
