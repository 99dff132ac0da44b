import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// The two appends that copy input text as it is when it already is what the writer writes
/// (issue 7's CSV transcoder): `appendJSONQuoted(checkingUTF8:)` against `UTF8Text.isValid` plus
/// the escaping reference, and `appendJSONNumber(_:readFrom:)` against `appendJSONNumber(_:)`.
@Suite struct JSONTextCopyingTests {
    /// What `appendJSONQuoted(checkingUTF8:)` appends after a prefix (nil when it refuses).
    static func quoted(_ bytes: [UInt8]) -> [UInt8]? {
        var buffer = ByteBuffer(capacity: 4)
        buffer.append("prefix")
        let done = bytes.withUnsafeBufferPointer { buffer.appendJSONQuoted(checkingUTF8: $0) }
        let out = buffer.array
        #expect(Array(out.prefix(6)) == Array("prefix".utf8))
        if !done { #expect(out.count == 6, "nothing appended when refused") }
        return done ? Array(out.dropFirst(6)) : nil
    }

    @Test func textOfEveryLengthWithEveryKindOfByteAtEveryPosition() {
        let odd: [[UInt8]] = [[0x22], [0x5C], [0x0A], [0x01], [0x1F], [0x7F], [0xC3, 0xA9], [0xE2, 0x80, 0xA8],
                              [0xF0, 0x9F, 0x8D, 0xB7], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80]]
        for length in 0...33 {
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(Self.quoted(plain) == JSONFastPathTests.referenceQuoted(String(decoding: plain, as: UTF8.self)))
            for position in 0..<max(length, 1) {
                for bytes in odd {
                    var text = plain
                    text.insert(contentsOf: bytes, at: min(position, text.count))
                    let valid = text.withUnsafeBufferPointer { UTF8Text.isValid($0) }
                    let expected = valid ? JSONFastPathTests.referenceQuoted(String(decoding: text, as: UTF8.self)) : nil
                    #expect(Self.quoted(text) == expected, "\(text)")
                }
            }
        }
    }

    @Test func randomBytes() {
        var generator = SplitMix(seed: 11)
        let alphabet: [UInt8] = Array("ab\"\\\n\u{1}".utf8) + [0x7F, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0xF0, 0x9F, 0xFF, 0xED, 0xA0]
        for _ in 0..<20_000 {
            let text = (0..<generator.next(24)).map { _ in alphabet[generator.next(alphabet.count)] }
            let valid = text.withUnsafeBufferPointer { UTF8Text.isValid($0) }
            #expect(valid == (String(validating: text, as: UTF8.self) != nil))
            #expect(Self.quoted(text) == (valid ? JSONFastPathTests.referenceQuoted(String(decoding: text, as: UTF8.self)) : nil))
        }
    }

    // MARK: Numbers

    /// What `appendJSONNumber(_:readFrom:)` appends for `text`, and what `appendJSONNumber(_:)` does.
    /// What both appends write for `text`'s value, and the value's ECMAScript form (the reference).
    static func numbers(_ text: String) -> (copied: [UInt8], rendered: [UInt8], ecmaScript: [UInt8])? {
        guard let value = Double(text), value.isFinite, let ecmaScript = NumberText.ecmaScript(value) else { return nil }
        var copied = ByteBuffer(capacity: 8)
        var rendered = ByteBuffer(capacity: 8)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { copied.appendJSONNumber(value, readFrom: $0) }
        _ = rendered.appendJSONNumber(value)
        return (copied.array, rendered.array, Array(ecmaScript.utf8))
    }

    @Test func theWrittenFormIsCopiedAndEveryOtherIsRendered() throws {
        let written = ["0", "5", "-5", "12.4", "0.91", "-0.5", "0.005", "123456789012345", "-12345678901.234", "100",
                       "2.5", "1.25", "99.999", "0.1", "0.3", "1", "1234567890123.45"]
        for text in written {
            #expect(text.utf8.withContiguousStorageIfAvailable { ByteBuffer.isWrittenForm($0) } == true, "\(text)")
            let numbers = try #require(Self.numbers(text))
            #expect(numbers.rendered == Array(text.utf8), "\(text)")
            #expect(numbers.copied == Array(text.utf8), "\(text)")
        }
        let others = ["-0", "0.0", "11.0", "4.50", "05", "00", "-05.5", ".5", "5.", "+1", "1e3", "1E3", "0.0001", "1.2345",
                      "1234567890123456", "0.1234", "-0.0", "", "-", "1.", "1..2", "12a", "0x1", " 1", "1 ",
                      "12345678901234.56", "9007199254740993"]
        for text in others {
            #expect(text.utf8.withContiguousStorageIfAvailable { ByteBuffer.isWrittenForm($0) } == false, "\(text)")
            if let (copied, rendered, ecmaScript) = Self.numbers(text) {
                #expect(copied == rendered, "\(text)")
                #expect(rendered == ecmaScript, "\(text)")
            }
        }
    }

    @Test func randomDecimals() throws {
        var generator = SplitMix(seed: 5)
        var copies = 0
        for _ in 0..<100_000 {
            var text = generator.next(4) == 0 ? "-" : ""
            let integerDigits = 1 + generator.next(16)
            for k in 0..<integerDigits { text += String(k == 0 && generator.next(3) > 0 ? 1 + generator.next(9) : generator.next(10)) }
            if generator.next(3) > 0 {
                text += "."
                for _ in 0..<(1 + generator.next(5)) { text += String(generator.next(10)) }
            }
            let (copied, rendered, ecmaScript) = try #require(Self.numbers(text))
            #expect(copied == rendered, "\(text)")
            #expect(rendered == ecmaScript, "\(text)")
            if text.utf8.withContiguousStorageIfAvailable({ ByteBuffer.isWrittenForm($0) }) == true {
                copies += 1
                #expect(rendered == Array(text.utf8), "\(text)")
            }
        }
        #expect(copies > 10_000)
    }
}
