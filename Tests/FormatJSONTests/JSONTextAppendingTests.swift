import FerryCore
import Testing

@testable import FormatJSON

/// `ByteBuffer.appendJSONString` against a byte-by-byte reference of its rule (SCHEMAS.md "Formats:
/// JSON document"): only `"`, `\` and control characters escaped, `/` and U+2028 as they are.
@Suite struct JSONTextAppendingTests {
    /// The rule, one byte at a time (the serializer's reference).
    static func reference(_ text: String) -> [UInt8] { JSONFastPathTests.referenceQuoted(text) }

    /// The bytes appended after a prefix (kept), through a buffer that starts small.
    static func appended(_ text: String) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append("x")
        buffer.appendJSONString(text)
        buffer.append("y")
        let bytes = buffer.array
        #expect(bytes.first == UInt8(ascii: "x") && bytes.last == UInt8(ascii: "y"))
        return Array(bytes.dropFirst().dropLast())
    }

    /// Every length from 0 to 19 (the short-word path, the eight-byte path and its tail), with
    /// each special byte at each position, plain, and with multi-byte characters.
    @Test func everyLengthAndPosition() {
        let specials: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{8}", "\t"]
        var checked = 0
        for length in 0..<20 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            #expect(Self.appended(plain) == Self.reference(plain))
            for position in 0..<length {
                for special in specials {
                    var characters = Array(plain)
                    characters[position] = special
                    let text = String(characters)
                    #expect(Self.appended(text) == Self.reference(text), "\(length) \(position)")
                    checked += 1
                }
            }
        }
        #expect(checked == 7 * 190)
    }

    @Test func exactBytesOfKnownStrings() {
        let cases: [(String, String)] = [
            ("", "\"\""),
            ("a", "\"a\""),
            ("/", "\"/\""),
            ("\u{7F}", "\"\u{7F}\""),
            ("é", "\"é\""),
            ("日本", "\"日本\""),
            ("🍷", "\"🍷\""),
            ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
            ("a\"b", "\"a\\\"b\""),
            ("\u{1}\u{1F}", "\"\\u0001\\u001f\""),
            ("tab\there", "\"tab\\there\""),
            ("Cabernet Sauvignon 2000 \"Cuvée 0\"", "\"Cabernet Sauvignon 2000 \\\"Cuvée 0\\\"\""),
        ]
        for (text, expected) in cases {
            #expect(String(decoding: Self.appended(text), as: UTF8.self) == expected)
        }
        let long = String(repeating: "abc\u{2028}é ", count: 40) + "\u{1}"
        #expect(Self.appended(long) == Self.reference(long))
    }

    /// The bytes `appendJSONMember(_:comma: false)` appends after a prefix (kept), through a buffer that starts small.
    static func appendedKey(_ key: String) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append("x")
        buffer.appendJSONMember(key, comma: false)
        buffer.append("y")
        let bytes = buffer.array
        #expect(bytes.first == UInt8(ascii: "x") && bytes.last == UInt8(ascii: "y"))
        return Array(bytes.dropFirst().dropLast())
    }

    /// A member key is the key's string and a colon, for every length around the two-word path
    /// (0 to 20 bytes) with each special byte at each position, non-ASCII keys and a buffer that
    /// has to grow at each step.
    @Test func memberKeysAreTheirStringAndAColon() {
        let specials: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}"]
        var checked = 0
        for length in 0...20 {
            let plain = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
            #expect(Self.appendedKey(plain) == Self.reference(plain) + [UInt8(ascii: ":")], "\(length)")
            for position in 0..<length {
                for special in specials {
                    var characters = Array(plain)
                    characters[position] = special
                    let key = String(characters)
                    #expect(Self.appendedKey(key) == Self.reference(key) + [UInt8(ascii: ":")], "\(length) \(position)")
                    checked += 1
                }
            }
        }
        #expect(checked == 8 * 210)
        let exact: [(String, String)] = [
            ("", #""":"#), ("id", #""id":"#), ("alcoholByVolume", #""alcoholByVolume":"#),
            ("isContainsIce", #""isContainsIce":"#), ("$collection", #""$collection":"#),
            ("sixteen bytes!!!", #""sixteen bytes!!!":"#), ("seventeen bytes!!", #""seventeen bytes!!":"#),
            ("ti\"tle", #""ti\"tle":"#), ("맛", #""맛":"#),
        ]
        for (key, expected) in exact {
            #expect(String(decoding: Self.appendedKey(key), as: UTF8.self) == expected)
        }
        // Many keys in a row into a buffer that grows: each lands right after the one before.
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for n in 0..<200 {
            let key = String(repeating: "k", count: n % 18)
            buffer.appendJSONMember(key, comma: false)
            expected += Self.reference(key) + [UInt8(ascii: ":")]
        }
        #expect(buffer.array == expected)
    }
}
