import FerryCore
import Testing
@testable import FormatXML

/// The bytes `XMLElementText` writes for names and text, checked against the rules they follow
/// (XML 1.0 sections 2.2 and 2.3, Namespaces in XML's NCName; SCHEMAS.md "Formats", XML).
@Suite struct XMLElementTextTests {
    /// XML 1.0 production [4] for ASCII, without `:`.
    static func isNameStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    /// Production [4a] for ASCII, without `:`.
    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E
    }

    /// Every ASCII name of one and two characters, and three-character names with a non-ASCII
    /// letter or a character that no name holds in the middle.
    @Test func asciiNamesAsTheProductionsSay() {
        for first in UInt8(0)..<0x80 {
            let one = String(decoding: [first], as: UTF8.self)
            #expect(XMLName.isNCName(one) == Self.isNameStart(first), "\(Array(one.utf8))")
            for second in UInt8(0)..<0x80 {
                let two = String(decoding: [first, second], as: UTF8.self)
                let expected = Self.isNameStart(first) && Self.isNameCharacter(second)
                #expect(XMLName.isNCName(two) == expected, "\(Array(two.utf8))")
            }
        }
        #expect(XMLName.isNCName("caf\u{E9}"))
        #expect(XMLName.isNCName("\u{E9}t\u{E9}"))
        #expect(!XMLName.isNCName("a\u{D7}b"))  // the multiplication sign is no name character
        #expect(!XMLName.isNCName("a:b"))
        #expect(!XMLName.isNCName(""))
    }

    static func escapedBytes(_ bytes: [UInt8], inAttribute: Bool) -> (bytes: [UInt8], unwritable: UInt32?) {
        var buffer = ByteBuffer(capacity: 16)
        let unwritable = bytes.withUnsafeBufferPointer { XMLElementText.escape($0, inAttribute: inAttribute, into: &buffer) }
        return (Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count)), unwritable)
    }

    static func escaped(_ bytes: [UInt8], inAttribute: Bool) -> (text: String, unwritable: UInt32?) {
        let (written, unwritable) = escapedBytes(bytes, inAttribute: inAttribute)
        return (String(decoding: written, as: UTF8.self), unwritable)
    }

    /// Each byte value on its own, in element content and in an attribute value.
    @Test(arguments: [false, true])
    func everyByteEscapedAsTheRulesSay(inAttribute: Bool) {
        for byte in UInt8(0)...0xFF {
            let (text, unwritable) = Self.escaped([byte], inAttribute: inAttribute)
            switch byte {
            case UInt8(ascii: "&"): #expect(text == "&amp;" && unwritable == nil)
            case UInt8(ascii: "<"): #expect(text == "&lt;" && unwritable == nil)
            case UInt8(ascii: ">"): #expect(text == "&gt;" && unwritable == nil)
            case 0x0D: #expect(text == "&#13;" && unwritable == nil)
            case UInt8(ascii: "\""): #expect(text == (inAttribute ? "&quot;" : "\"") && unwritable == nil)
            case 0x09: #expect(text == (inAttribute ? "&#9;" : "\t") && unwritable == nil)
            case 0x0A: #expect(text == (inAttribute ? "&#10;" : "\n") && unwritable == nil)
            case 0x00..<0x20: #expect(text == "" && unwritable == UInt32(byte), "\(byte)")
            default:
                // Written as it is, alone and between other bytes (0xEF too, which is refused only
                // as the start of U+FFFE or U+FFFF).
                #expect(Self.escapedBytes([byte], inAttribute: inAttribute) == ([byte], nil), "\(byte)")
                let between = [UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
                #expect(Self.escapedBytes(between, inAttribute: inAttribute) == (between, nil), "\(byte)")
            }
        }
    }

    /// Runs of plain text around the escaped characters; U+FFFE and U+FFFF refused where they
    /// stand (what comes before them is appended), U+FEFF written.
    @Test func textWithEverythingToEscape() {
        let text = Array("tea & <b>\"hot\"</b>\tcup\n\r\u{FEFF}end".utf8)
        #expect(Self.escaped(text, inAttribute: false) == ("tea &amp; &lt;b&gt;\"hot\"&lt;/b&gt;\tcup\n&#13;\u{FEFF}end", nil))
        #expect(Self.escaped(text, inAttribute: true)
            == ("tea &amp; &lt;b&gt;&quot;hot&quot;&lt;/b&gt;&#9;cup&#10;&#13;\u{FEFF}end", nil))
        #expect(Self.escaped(Array("ok \u{FFFE} no".utf8), inAttribute: false) == ("ok ", 0xFFFE))
        #expect(Self.escaped(Array("\u{FFFF}".utf8), inAttribute: true) == ("", 0xFFFF))
        #expect(Self.escaped(Array("bell\u{07}".utf8), inAttribute: false) == ("bell", 7))
    }
}
