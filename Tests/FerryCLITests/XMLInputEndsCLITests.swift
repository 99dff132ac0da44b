import FerryTestSupport
import Foundation
import Testing

/// XML input that ends where libxml2's own words would mislead: before any element (an empty,
/// blank or declaration-only input) or inside a multi-byte UTF-8 character. Each is one error at
/// the line and column where the input ends, exit 3, the same with one job or two, and the same
/// when the input is gzip-compressed.
@Suite struct XMLInputEndsCLITests {
    struct Cell: CustomStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let expected: String
        var description: String { name }
    }

    static let head = Array("<?xml version=\"1.0\"?>\n<dataset domain=\"vocabulary\" schemaVersion=\"2\">\n  <words>\n    <Word>\n      <id>a</id>\n      <ganaText>".utf8)
    static let cutShort = "6:17: error: premature end of data: the input ends inside <ganaText>, which is not closed (the input is cut short) [malformed-xml]"

    static let cells: [Cell] = [
        Cell(name: "empty", bytes: [], expected: "1:1: error: the input is empty: expected the root element <dataset> [malformed-xml]"),
        Cell(name: "blank", bytes: Array("\n  \n".utf8),
             expected: "3:1: error: the input ends before its root element: expected <dataset> [malformed-xml]"),
        Cell(name: "declaration only", bytes: Array("<?xml version=\"1.0\"?>\n<!-- none -->\n".utf8),
             expected: "3:1: error: the input ends before its root element: expected <dataset> [malformed-xml]"),
        // \u{3042} (3 bytes) cut after 1 and 2 bytes, \u{1F436} (4 bytes) after 1, 2 and 3.
        Cell(name: "1 of 3 bytes", bytes: head + [0xE3], expected: cutShort),
        Cell(name: "2 of 3 bytes", bytes: head + [0xE3, 0x81], expected: cutShort),
        Cell(name: "1 of 4 bytes", bytes: head + [0xF0], expected: cutShort),
        Cell(name: "2 of 4 bytes", bytes: head + [0xF0, 0x9F], expected: cutShort),
        Cell(name: "3 of 4 bytes", bytes: head + [0xF0, 0x9F, 0x90], expected: cutShort),
    ]

    @Test(arguments: cells)
    func theInputsEndIsSaidAtItsPosition(_ cell: Cell) throws {
        let box = try Sandbox()
        try box.write("in.xml", bytes: cell.bytes)
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.xml", "--jobs", jobs])
            #expect(run.status == 3, "\(cell) --jobs \(jobs)")
            #expect(run.errors == ["in.xml:" + cell.expected], "\(cell) --jobs \(jobs)")
        }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", "-n", box.url.appendingPathComponent("in.xml").path]
        try gzip.run()
        gzip.waitUntilExit()
        let compressed = try box.ferry(["validate", "in.xml.gz"])
        #expect(compressed.status == 3, "\(cell) gzip")
        #expect(compressed.errors == ["in.xml.gz:" + cell.expected], "\(cell) gzip")
    }

    /// A multi-byte character that is whole at the end of a value is read, not taken for a cut:
    /// the word is checked against its model (rule errors, exit 1), nothing is malformed.
    @Test func aWholeCharacterBeforeTheEndIsNoCut() throws {
        let box = try Sandbox()
        let document = String(decoding: Self.head, as: UTF8.self)
            + "\u{3042}\u{1F436}</ganaText>\n      <meaning>dog</meaning>\n    </Word>\n  </words>\n</dataset>\n"
        try box.write("in.xml", document)
        let run = try box.ferry(["validate", "in.xml"])
        #expect(run.status == 1)
        #expect(!run.stderr.contains("malformed-xml"), "\(run.stderr)")
        #expect(run.errors.last == "in.xml:7:7: error: /words/0/meaning: unknown field \"meaning\" in Word (id \"a\") [unknown-field]")
    }
}
