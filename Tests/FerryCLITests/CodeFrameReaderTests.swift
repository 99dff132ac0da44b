import FerryCore
import FerryPipeline
import FerryTestSupport
import Foundation
import Testing

/// `CodeFrameReader`: the lines around a position read back from a file, cut to a window of
/// columns, and the token at the column to mark.
@Suite struct CodeFrameReaderTests {
    /// `number|text|cut before|cut after` per line, for exact comparison.
    static func rows(_ frame: CodeFrame?) -> [String] {
        frame?.lines.map { "\($0.number)|\($0.text)|\($0.clippedBefore)|\($0.clippedAfter)" } ?? ["no frame"]
    }

    /// The marked text of the focus line.
    static func marked(_ frame: CodeFrame?) -> String? {
        guard let frame, let focus = frame.focus, let range = frame.highlight else { return nil }
        var out = ""
        out.unicodeScalars.append(contentsOf: Array(focus.text.unicodeScalars)[range])
        return out
    }

    func frames(_ bytes: [UInt8], name: String = "f.txt", at positions: [(Int, Int?)]) throws -> [CodeFrame?] {
        let box = try Sandbox()
        try box.write(name, bytes: bytes)
        let path = box.url.appendingPathComponent(name).path
        return CodeFrameReader().frames(for: positions.map { SourceLocation(file: path, line: $0.0, column: $0.1) })
    }

    /// CR LF line ends lose their CR; a last line without a line break is still a line; the
    /// first and last lines have fewer neighbours.
    @Test func crlfAndALastLineWithoutABreak() throws {
        let found = try frames(Array("a\r\nbb \"x\"\r\nccc".utf8), at: [(2, 4), (3, 1), (1, 1)])
        #expect(Self.rows(found[0]) == ["1|a|false|false", "2|bb \"x\"|false|false", "3|ccc|false|false"])
        #expect(Self.marked(found[0]) == "\"x\"")
        #expect(Self.rows(found[1]) == ["1|a|false|false", "2|bb \"x\"|false|false", "3|ccc|false|false"])
        #expect(Self.marked(found[1]) == "ccc")
        #expect(Self.rows(found[2]) == ["1|a|false|false", "2|bb \"x\"|false|false", "3|ccc|false|false"])
    }

    /// Three positions on one line of 10,000 scalars (a minified document): each frame is its own
    /// window of 120 scalars, 40 before the column once the column is past 90; cut ends are
    /// flagged, and the marked token ends with the window.
    @Test func windowsOfOneLongLine() throws {
        let line = String(repeating: "a", count: 4_999) + "\"value\"" + String(repeating: "b", count: 4_994)
        let found = try frames(Array((line + "\nnext\n").utf8), at: [(1, 10), (1, 5_000), (1, 9_990)])
        #expect(Self.rows(found[0]) == ["1|" + String(repeating: "a", count: 120) + "|false|true", "2|next|false|false"])
        #expect(Self.marked(found[0]) == String(repeating: "a", count: 111))
        #expect(Self.rows(found[1]) == ["1|" + String(repeating: "a", count: 40) + "\"value\"" + String(repeating: "b", count: 73) + "|true|true",
                                        "2||true|false"])
        #expect(Self.marked(found[1]) == "\"value\"")
        #expect(Self.rows(found[2]) == ["1|" + String(repeating: "b", count: 51) + "|true|false", "2||true|false"])
        #expect(Self.marked(found[2]) == String(repeating: "b", count: 11))
    }

    /// Columns count Unicode scalars: a window of a line of two-byte letters is 120 letters.
    @Test func windowsCountScalarsNotBytes() throws {
        let found = try frames(Array((String(repeating: "ü", count: 200) + "\n").utf8), at: [(1, 150)])
        #expect(Self.rows(found[0]) == ["1|" + String(repeating: "ü", count: 91) + "|true|false"])
    }

    /// A compressed file is read decompressed, as its reader read it.
    @Test func aGzipFileIsReadDecompressed() throws {
        let box = try Sandbox()
        try box.write("n.json", "{\n  \"rating\": 9,\n  \"ok\": true\n}\n")
        let gzip = try #require(toolOnPath("gzip"))
        #expect(try runTool(gzip, ["n.json"], in: box.url).status == 0)
        let path = box.url.appendingPathComponent("n.json.gz").path
        let found = CodeFrameReader().frames(for: [SourceLocation(file: path, line: 2, column: 13)])
        #expect(Self.rows(found[0]) == ["1|{|false|false", "2|  \"rating\": 9,|false|false", "3|  \"ok\": true|false|false", "4|}|false|false"])
        #expect(Self.marked(found[0]) == "9")
    }

    /// The token at the column: a CSV cell with doubled quotes, an XML start tag, a bracket.
    @Test func theTokenAtTheColumn() throws {
        let found = try frames(Array("id,\"b \"\"c\"\"\",d\n<rating>9</rating>\n[{\"a\": 1}]\n".utf8), at: [(1, 4), (2, 1), (3, 2), (2, 9)])
        #expect(Self.marked(found[0]) == "\"b \"\"c\"\"\"")
        #expect(Self.marked(found[1]) == "<rating>")
        #expect(Self.marked(found[2]) == "{")
        #expect(Self.marked(found[3]) == "9")
    }

    /// No frame where there is nothing to read back: no line, standard input, a line past the
    /// end, a file that is gone; a line without a column has a frame and nothing marked.
    @Test func noFrameWithoutASourceLine() throws {
        let box = try Sandbox()
        try box.write("f.txt", "one\ntwo\n")
        let path = box.url.appendingPathComponent("f.txt").path
        let found = CodeFrameReader().frames(for: [
            SourceLocation(file: path), SourceLocation(file: "-", line: 1, column: 1), SourceLocation(file: path, line: 3, column: 1),
            SourceLocation(file: path + ".gone", line: 1, column: 1), SourceLocation(file: path, line: 2),
        ])
        #expect(found[0] == nil && found[1] == nil && found[2] == nil && found[3] == nil)
        #expect(Self.rows(found[4]) == ["1|one|false|false", "2|two|false|false"])
        #expect(Self.marked(found[4]) == nil)
    }
}
