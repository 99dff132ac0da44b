import FerryCore
import FerryFormats
import Testing

/// Each built-in format recognises its own first bytes (`FormatDescriptor.recognize`), and the
/// registry takes the surest (DESIGN.md "Detection").
@Suite struct FormatRecognitionTests {
    /// A tar header block: a member name, then `ustar` at offset 257.
    static func tarHead(name: String) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        block.replaceSubrange(0..<name.utf8.count, with: name.utf8)
        block.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        return block
    }

    static let cases: [(head: [UInt8], format: String?)] = [
        (Array("".utf8), "json"),
        (Array(" \r\n\t".utf8), "json"),
        (Array("{\"domain\":\"notes\",\n\"wineNotes\":[]}\n".utf8), "json"),
        (Array("  [1, 2]".utf8), "json"),
        (Array("{\"a\":1}\n{\"b\":2}\n".utf8), "jsonl"),
        (Array("{\"a\":\"}\\\" {\"}  \r\n\n  {\"b\":[2]}\n".utf8), "jsonl"),
        (Array("{\"a\":1}\n[2]\n".utf8), "json"),
        (Array("{\"a\":1}".utf8), "json"),
        (Array("\n<dataset/>".utf8), "xml"),
        ([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>".utf8), "xml"),
        ([0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00], "xml"),
        ([0xFE, 0xFF, 0x00, 0x61, 0x00, 0x2C], "csv"),
        (Array("id,title\nn1,Barolo\n".utf8), "csv"),
        ([0xEF, 0xBB, 0xBF] + Array("id;title\n".utf8), "csv"),
        (tarHead(name: "manifest.json"), "tar"),
        // A signature outranks text: a JSON Lines start with `ustar` at 257 is a tar.
        (Array("{\"a\":1}\n{\"b\":2}\n".utf8) + tarHead(name: "").dropFirst(16), "tar"),
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "zip"),
        ([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18), "zip"),
        // Binary bytes are no text, so not CSV: a PNG's start, a gzip stream (inside another).
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D], nil),
        ([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03], nil),
        (Array("id,title\n".utf8) + [0x00], nil),
        // UTF-16 text without its byte order mark is CSV (read with --encoding utf-16le or be).
        (Array("id,title\nn1,Ros\u{E9}\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "csv"),
        (Array("id,title\n".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "csv"),
        // Latin-1 text is CSV (read with --encoding latin1).
        (Array("id,title\nn1,Ros".utf8) + [0xE9] + Array("\n".utf8), "csv"),
    ]

    @Test(arguments: cases.indices)
    func theSurestFormatIsTaken(index: Int) {
        let (head, format) = Self.cases[index]
        #expect(FormatRegistry.builtIn.format(forHead: InputHead(head))?.name == format)
    }

    /// Formats no first bytes tell apart are never guessed: TSV reads as CSV guesses it.
    @Test func onlyFormatsWithARecognitionAreGuessed() {
        let guessed = FormatRegistry.builtIn.formats.filter { $0.recognize != nil }.map(\.name)
        #expect(guessed == ["json", "jsonl", "csv", "xml", "tar", "zip"])
    }
}
