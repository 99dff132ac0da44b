import FerryCore
import FormatJSON
import Testing

@testable import FerryTypedPath

/// `JSONLineValidator.string` checks a string sixteen bytes at a time where the line has sixteen
/// left, and a byte at a time near its end: wherever a quote, an escape, a control character or
/// a UTF-8 sequence falls against those blocks, it accepts exactly the strings `JSONText.parse`
/// accepts and ends after the closing quote.
@Suite struct JSONLineStringTests {
    /// The validator's reading of the string at the start of `line`, and whether the parser takes
    /// `line` (the string then whitespace) as a JSON text.
    static func readings(_ line: [UInt8]) -> (end: Int?, parses: Bool) {
        let end = line.withUnsafeBufferPointer { bytes in
            JSONLineValidator(p: bytes.baseAddress!, end: bytes.count, maximumDepth: 8).string(0)?.end
        }
        return (end, (try? JSONText.parse(line)) != nil)
    }

    @Test(arguments: [0, 1, 7, 15, 16, 17, 20])
    func agreesWithTheParserAtEveryOffset(padding: Int) {
        let insertions: [(bytes: [UInt8], valid: Bool)] = [
            (Array("\\n".utf8), true), (Array("\\u00e9".utf8), true), ([0xC3, 0xA9], true), ([0xE2, 0x82, 0xAC], true),
            ([0x22], false), ([0x01], false), ([0x1F], false), ([0xFF], false), ([0xC3], false), ([0xE2, 0x82], false),
            (Array("\\x".utf8), false), ([0x5C], false),
        ]
        for length in 0...40 {
            for position in 0...length {
                for insertion in insertions {
                    var body = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    body.insert(contentsOf: insertion.bytes, at: position)
                    let line = [0x22] + body + [0x22] + [UInt8](repeating: 0x20, count: padding)
                    let (end, parses) = Self.readings(line)
                    #expect(parses == insertion.valid, "\(line)")
                    #expect(end == (insertion.valid ? body.count + 2 : (insertion.bytes == [0x22] ? position + 2 : nil)), "\(line)")
                }
            }
        }
    }

    @Test func refusesAStringTheLineCutsShort() {
        for length in 0...40 {
            let line = [0x22] + [UInt8](repeating: UInt8(ascii: "b"), count: length)
            #expect(Self.readings(line).end == nil, "\(length)")
        }
    }
}
