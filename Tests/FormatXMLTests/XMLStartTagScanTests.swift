import FerryCore
import FerryTestSupport
import Testing

@testable import FormatXML

/// The start tag scan of UTF-8 input, which jumps over text, end tags and tag contents and works
/// out lines and columns once a chunk, finds what the unit-by-unit scan (the one wider encodings
/// take) finds: the same violation, with the same tag position and name, on random markup cut
/// into chunks of any size and on corrupted copies of it.
@Suite struct XMLStartTagScanTests {
    /// Pieces of markup and text: multi-byte characters, LFs inside tags and text, comments,
    /// CDATA and processing instructions holding `<`, `=` and `>`, quoted `>` and `=`, a DOCTYPE
    /// with an internal subset.
    static let pieces = [
        "text é ", "日本語", "\n", "\n  ", "<a>", "</a>", "</a\n>", "<b x=\"1\"/>", "<c x='=' y=\">\">",
        "<d\n  p=\"v\"\n  q='w'>", "<!-- a=b <x y=z> -->", "<![CDATA[ <e f=g> ]] ]]>", "<?pi a=b > ?>",
        "<ü ä=\"ö\" é='è'>", "<long name=\"\(String(repeating: "v", count: 40))\"/>", "&amp;", "<f/>",
        "<!DOCTYPE r [ <!ATTLIST r a CDATA \"x=y>z\"> <!-- ] a=b --> ]>", "<g a=\"1\" b=\"2\" c=\"3\" d=\"4\">",
    ]

    static func scan(_ bytes: [UInt8], piece: Int, attributes: Int, maximumBytes: Int, unitByUnit: Bool)
        -> XMLStartTagScan.Violation?
    {
        var scan = XMLStartTagScan(encoding: nil, maximumAttributes: attributes, maximumBytes: maximumBytes)
        scan.unitByUnit = unitByUnit
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            if let violation = bytes[offset..<end].withUnsafeBytes({ scan.scan($0) }) { return violation }
            offset = end
        }
        return nil
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func jumpingScanFindsWhatTheUnitScanFinds(seed: UInt64) {
        var random = SplitMix(seed: seed)
        for round in 0..<300 {
            var text = "<?xml version=\"1.0\"?>\n<r>"
            for _ in 0..<(1 + random.next(40)) { text += Self.pieces[random.next(Self.pieces.count)] }
            // A last tag past the attribute limit, so that the position at the end is compared too.
            text += "\n  <last a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\"/></r>"
            var bytes = Array(text.utf8)
            if round % 3 == 2 { bytes = random.corrupted(bytes, inserting: Array("<>\"'=/!-?]\n\u{E9}".utf8)) }
            let attributes = 1 + random.next(5)
            let maximumBytes = 8 + random.next(80)
            for piece in [1, 3, 7, 64, 4096] {
                let fast = Self.scan(bytes, piece: piece, attributes: attributes, maximumBytes: maximumBytes, unitByUnit: false)
                let reference = Self.scan(bytes, piece: piece, attributes: attributes, maximumBytes: maximumBytes, unitByUnit: true)
                #expect(fast == reference, "seed \(seed) round \(round) piece \(piece): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test(arguments: [1, 5, 4096])
    func theLastLineIsCountedInCharacters(piece: Int) {
        // The refused tag's `<` after two lines, the last of them `é日本 ` (4 characters, 9 bytes).
        let document = Array("<r>\n<a>x</a>\n\u{E9}日本 <big a=\"1\" b=\"2\"/></r>".utf8)
        #expect(Self.scan(document, piece: piece, attributes: 1, maximumBytes: 1 << 20, unitByUnit: false)
            == XMLStartTagScan.Violation(position: TextPosition(line: 3, column: 5), name: "big", tooManyAttributes: true))
    }
}
