import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatXML

/// Start tags past the attribute or byte limit are refused before libxml2 parses them; markup
/// that only looks like attributes (comments, CDATA, PIs, quoted values, DTD declarations) is not
/// counted, however the input is cut into chunks and whatever its encoding.
@Suite struct XMLStartTagLimitTests {
    /// Everything here that holds `=`, `>` or quotes outside a start tag, then `<big>` with four
    /// attributes at line 9, column 3: past a limit of 3, not of 4.
    static let tricky = """
        <?xml version="1.0" encoding="ENC"?>
        <!DOCTYPE r [ <!ATTLIST r a CDATA "x=y>z"> <!-- ] a=b=c > --> <?pi a=b > ?> ]>
        <r a="1>" b='x="=2' c="3">
        <!-- <r a=1 b=2 c=3 d=4> -- -->
        <![CDATA[ <x a=1 b=2 c=3 d=4> ]] ] ]]>
        <?target a=1 b=2 c=3 d=4 ?>
        <small e="=" f='=' g="="/>
        </r>
          <big h="1" i="2" j="3" k="4"/>
        """

    static let encodingNames = ["UTF-8", "UTF-16LE", "UTF-16BE"]

    /// `text` in the encoding `encodingNames[index]` names, with a BOM for UTF-16.
    static func encode(_ text: String, _ index: Int) -> [UInt8] {
        switch index {
        case 0: return Array(text.utf8)
        case 1: return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        default: return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    /// Feeds `bytes` to a fresh scan in pieces of `piece` bytes; the first violation.
    static func scan(_ bytes: [UInt8], piece: Int, attributes: Int, maximumBytes: Int = 1 << 20) -> XMLStartTagScan.Violation? {
        var scan = XMLStartTagScan(encoding: nil, maximumAttributes: attributes, maximumBytes: maximumBytes)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            let violation = bytes[offset..<end].withUnsafeBytes { scan.scan($0) }
            if let violation { return violation }
            offset = end
        }
        return nil
    }

    @Test(arguments: [0, 1, 2], [1, 2, 3, 7, 4096])
    func onlyStartTagAttributesAreCounted(encoding: Int, piece: Int) {
        let bytes = Self.encode(Self.tricky.replacingOccurrences(of: "ENC", with: Self.encodingNames[encoding]), encoding)
        #expect(Self.scan(bytes, piece: piece, attributes: 4) == nil)
        #expect(Self.scan(bytes, piece: piece, attributes: 3) == XMLStartTagScan.Violation(
            position: TextPosition(line: 9, column: 3), name: "big", tooManyAttributes: true))
    }

    @Test(arguments: [1, 5, 4096])
    func startTagBytesAreCountedFromItsLessThan(piece: Int) {
        // `<é a="…"/>` after a line of 3 characters: 64 bytes pass, 65 do not.
        let value = String(repeating: "v", count: 64 - 10)
        let tag = "<é a=\"\(value)\"/>"
        #expect(tag.utf8.count == 64)
        let document = Array("<r>\nab\u{E9}\(tag)</r>".utf8)
        #expect(Self.scan(document, piece: piece, attributes: 10, maximumBytes: 64) == nil)
        #expect(Self.scan(document, piece: piece, attributes: 10, maximumBytes: 63) == XMLStartTagScan.Violation(
            position: TextPosition(line: 2, column: 4), name: "é", tooManyAttributes: false))
    }

    /// A record with `count` attributes inside a one-record dataset, in UTF-8.
    static func dataset(attributes count: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?>\n<dataset domain=\"notes\" schemaVersion=\"2\">\n<wineTastingNotes>\n  <WineTastingNote"
        for i in 0..<count { text += " a\(i)=\"\"" }
        text += "><id>w1</id></WineTastingNote>\n</wineTastingNotes>\n</dataset>\n"
        return Array(text.utf8)
    }

    static func readAll(_ bytes: [UInt8]) -> Diagnostic? {
        do {
            let reader = try XMLRecordReader(MemorySource(bytes), options: ReadOptions(fileName: "wide.xml"), log: DiagnosticLog())
            while try reader.next() != nil {}
            return nil
        } catch let error as FerryError {
            return error.diagnostic
        } catch {
            return .error(.internalError, "\(error)", at: SourceLocation())
        }
    }

    @Test func tenThousandAttributesAreRead() {
        #expect(Self.readAll(Self.dataset(attributes: 10_000)) == nil)
    }

    /// 700 000 attributes (about 8 MB) would keep libxml2 busy for minutes; the scan refuses the
    /// tag at its 10 001st `=`, and the reader reports it at the tag's `<`.
    @Test(arguments: [10_001, 700_000])
    func tooManyAttributesAreRefusedAtTheTag(count: Int) {
        let diagnostic = Self.readAll(Self.dataset(attributes: count))
        #expect(diagnostic?.description
            == "wide.xml:4:3: error: element <WineTastingNote> has more than 10000 attributes, the limit per element; not parsed [too-large]")
    }

    @Test func aStartTagOfMoreThanOneMebibyteIsRefused() {
        let value = String(repeating: "x", count: 1 << 20)
        let text = "<?xml version=\"1.0\"?>\n<dataset domain=\"notes\" schemaVersion=\"2\" note=\"\(value)\"></dataset>\n"
        #expect(Self.readAll(Array(text.utf8))?.description
            == "wide.xml:2:1: error: the start tag of <dataset> is longer than 1048576 bytes, the limit per start tag; not parsed [too-large]")
    }

    @Test func wellFormednessChecksApplyTheLimitsToo() {
        #expect(XMLWellFormedness.check(Self.dataset(attributes: 10_001), fileName: "w.xml")?.code == .tooLarge)
    }
}
