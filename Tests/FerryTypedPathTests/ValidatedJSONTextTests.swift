import FerryCore
import FerryTestSupport
import FormatJSON
import Testing

@testable import FerryTypedPath

/// Strings whose bytes are not all ASCII are checked once, as they are made
/// (`ValidatedJSONText.validatedText`, `String(validating:as:)`), instead of by
/// `JSONSyntax.firstInvalidUTF8` first: both must take and refuse the same bytes, escaped or not.
@Suite struct ValidatedJSONTextTests {
    /// A random run of bytes, mostly of the kinds UTF-8 sequences are made of.
    static func bytes(_ random: inout SplitMix) -> [UInt8] {
        let kinds: [ClosedRange<UInt8>] = [0x20...0x7E, 0x80...0xBF, 0xC0...0xDF, 0xE0...0xEF, 0xF0...0xF7, 0xF8...0xFF]
        return (0..<(1 + random.next(12))).map { _ in
            let kind = kinds[random.next(kinds.count)]
            let byte = kind.lowerBound + UInt8(random.next(Int(kind.upperBound - kind.lowerBound) + 1))
            return byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") ? UInt8(ascii: "x") : byte
        }
    }

    /// What `validatedText` makes of `content` (the text between a string's quotes), and whether
    /// `firstInvalidUTF8` finds it well-formed.
    static func readings(_ content: [UInt8], escaped: Bool) -> (text: String?, wellFormed: Bool) {
        content.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return (nil, false) }
            let text = ValidatedJSONText(p: base, end: p.count)
            return (text.validatedText(from: 0, escaped: escaped), JSONSyntax.firstInvalidUTF8(in: p, 0..<p.count) == nil)
        }
    }

    @Test func takesExactlyTheWellFormedBytes() {
        var random = SplitMix(seed: 11)
        for _ in 0..<50_000 {
            let content = Self.bytes(&random)
            let (text, wellFormed) = Self.readings(content, escaped: false)
            #expect((text != nil) == wellFormed, "\(content)")
            if let text { #expect(Array(text.utf8) == content) }
        }
    }

    @Test func escapesNeitherMendNorBreakTheBytesAroundThem() {
        var random = SplitMix(seed: 12)
        let escapes: [[UInt8]] = [Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83c\udf77"#.utf8), Array(#"\\"#.utf8)]
        for _ in 0..<20_000 {
            let escape = escapes[random.next(escapes.count)]
            let content = Self.bytes(&random) + escape + Self.bytes(&random)
            let (text, _) = Self.readings(content, escaped: true)
            let raw = content.withUnsafeBufferPointer { JSONSyntax.firstInvalidUTF8(in: $0, 0..<$0.count) == nil }
            #expect((text != nil) == raw, "\(content)")
        }
        #expect(Self.readings(Array(#"caf\u00e9 \u2014 ok"#.utf8), escaped: true).text == "café — ok")
        #expect(Self.readings([0x43, 0x75, 0x76, 0xC3, 0xA9, 0x65], escaped: false).text == "Cuvée")
        #expect(Self.readings([0xC3, 0x5C, 0x6E], escaped: true).text == nil)  // a lead byte cut by an escape
    }
}
