import FerryTestSupport
import Foundation
import Testing

/// An input cut inside a value says so in every format, at the line and column where the input
/// ends, naming what it ends inside: a JSON Lines line cut inside a string or a literal, a JSON
/// document or Firestore export cut inside a string, XML cut inside a tag, CSV cut inside a
/// quoted field on its last line. One error (exit 3), the same with one job or two; `--lenient`
/// keeps the records before the cut.
@Suite struct CutShortWordingCLITests {
    struct Cell: CustomStringConvertible, Sendable {
        let sample: String
        let format: String
        var description: String { "\(sample) as \(format)" }
    }

    static let samples = ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-backup-restore.json", "vocabulary-v1-node-firestore.json"]
    static let cells = samples.flatMap { sample in ["jsonl", "csv", "json", "xml"].map { Cell(sample: sample, format: $0) } }

    /// The line and column just past `bytes` (lines end at LF, CRLF too; columns count Unicode
    /// scalars).
    static func end(of bytes: [UInt8]) -> (line: Int, column: Int) {
        let lineStart = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        let line = bytes.filter { $0 == 0x0A }.count + 1
        return (line, String(decoding: bytes[lineStart...], as: UTF8.self).unicodeScalars.count + 1)
    }

    /// The offset of the last match of `pattern` (ASCII) in `bytes`, followed by three bytes that
    /// are not a quote (a string value long enough to be cut inside).
    static func lastValue(_ pattern: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(pattern.utf8)
        var i = bytes.count - needle.count - 3
        while i >= 0 {
            if Array(bytes[i..<(i + needle.count)]) == needle, !bytes[(i + needle.count)..<(i + needle.count + 3)].contains(0x22) {
                return i + needle.count
            }
            i -= 1
        }
        return nil
    }

    /// The whole input of `cell` (`whole.EXT`; a CSV file holds the sample's first collection).
    private func whole(_ cell: Cell, in box: Sandbox) throws -> [UInt8] {
        try box.copySample(cell.sample, to: "sample.json")
        let name = "whole.\(cell.format)"
        if cell.format == "json" {
            try box.copySample(cell.sample, to: name)
        } else {
            let first = try box.ferry(["convert", "sample.json", "--to", "jsonl", "-o", "-"]).stdout
            let collection = try #require(first.firstMatch(of: /"\$collection":"([^"]*)"/)?.1)
            let only = cell.format == "csv" ? ["--collection", String(collection)] : []
            let written = try box.ferry(["convert", "sample.json", "--to", cell.format, "-o", name] + only)
            #expect(written.status == 0, "\(cell): \(written.stderr)")
        }
        return try box.bytes(name)
    }

    /// The input cut inside a value near its end, and the error expected of it (nil: checked
    /// by its shape only, below).
    private func cut(_ cell: Cell, _ bytes: [UInt8]) throws -> (bytes: [UInt8], expected: String?) {
        switch cell.format {
        case "jsonl":
            // Inside the last line's last string value, two characters in.
            let value = try #require(Self.lastValue("\":\"", in: bytes))
            let cut = Array(bytes[..<(value + 2)])
            let (line, column) = Self.end(of: cut)
            return (cut, "cut.jsonl:\(line):\(column): error: unexpected end of input inside a string: the input ends inside the "
                + "record on line \(line), which is not closed (the input is cut short) [malformed-json]")
        case "csv":
            // The last row with its last cell opened as a quoted field and cut in it.
            let lastComma = try #require(bytes.lastIndex(of: UInt8(ascii: ",")))
            let cut = Array(bytes[...lastComma]) + Array("\"half".utf8)
            let (line, column) = Self.end(of: cut)
            let open = Self.end(of: Array(bytes[...lastComma])).column
            return (cut, "cut.csv:\(line):\(column): error: the input ends inside the quoted field that opens at line \(line), "
                + "column \(open), which is not closed (the input is cut short) [unterminated-quote]")
        case "json":
            // Inside the last string value, two characters in.
            let value = try #require(Self.lastValue("\": \"", in: bytes))
            return (Array(bytes[..<(value + 2)]), nil)
        default:
            // Inside the last start tag, two characters of its name in.
            var i = bytes.count - 3
            while !(bytes[i] == UInt8(ascii: "<") && bytes[i + 1] != UInt8(ascii: "/")) { i -= 1 }
            return (Array(bytes[..<(i + 3)]), nil)
        }
    }

    @Test(arguments: cells)
    func aCutInsideAValueSaysWhereTheInputEnds(_ cell: Cell) throws {
        let box = try Sandbox()
        let bytes = try whole(cell, in: box)
        let (cut, expected) = try cut(cell, bytes)
        let name = "cut.\(cell.format)"
        try box.write(name, bytes: cut)
        let (line, column) = Self.end(of: cut)
        var first: [String]?
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", name, "--jobs", jobs])
            #expect(run.status == 3, "\(cell)")
            #expect(run.errors.count == 1, "\(cell): \(run.stderr)")
            let error = try #require(run.errors.first)
            if let expected {
                #expect(error == expected, "\(cell)")
            } else if cell.format == "json" {
                #expect(error.hasPrefix("\(name):\(line):\(column): error: unexpected end of input inside a string: the input ends inside "),
                    "\(cell): \(error)")
                #expect(error.hasSuffix(" and is not closed (the input is cut short) [malformed-json]"), "\(cell): \(error)")
            } else {
                #expect(error.hasPrefix("\(name):\(line):\(column): error: premature end of data: the input ends inside <"), "\(cell): \(error)")
                #expect(error.hasSuffix(">, which is not closed (the input is cut short) [malformed-xml]"), "\(cell): \(error)")
            }
            if let first { #expect(run.errors == first, "\(cell)") }
            first = run.errors
        }
        // --lenient keeps the records before the cut, the same with one job or two.
        let (one, two) = try box.ferryByJobs(["convert", name, "--to", "jsonl", "--lenient", "-o", "OUT"])
        #expect(one.status == 3 && one.output == two.output && one.stderr == two.stderr, "\(cell)")
        try box.write("whole-copy.\(cell.format)", bytes: bytes)
        let all = try box.ferry(["convert", "whole-copy.\(cell.format)", "--to", "jsonl", "-o", "-"]).stdout.split(separator: "\n")
        let kept = one.output.split(separator: "\n")
        if kept.isEmpty {
            // Cut inside the first record (the export's one word book, its words inside it).
            #expect(one.stderr.contains("\(name): note: nothing was written: the input is cut short before any record that could be kept"),
                "\(cell): \(one.stderr)")
        } else {
            #expect(kept.count > 1 && kept.count < all.count, "\(cell): \(one.stderr)")
            #expect(Array(kept) == Array(all.prefix(kept.count)), "\(cell)")
        }
    }

    /// The record a cut JSON document or Firestore export ends inside, named as its collection
    /// names it, and where it opens.
    @Test func aCutDocumentNamesTheRecordItEndsInside() throws {
        let box = try Sandbox()
        let cases = [
            ("notes-v1.json", "\"Grüner", "cut.json:56:20: error: unexpected end of input inside a string: the input ends inside record 2 of "
                + "wineNotes, which opens at line 55, column 5 and is not closed (the input is cut short) [malformed-json]"),
            ("vocabulary-v1-node-firestore.json", "\"jlpt-n5\"", "cut.json:4:11: error: unexpected end of input inside a string: the "
                + "input ends inside a member's key, which opens at line 4, column 7 and is not closed (the input is cut short) [malformed-json]"),
            ("vocabulary-v1-node-firestore.json", "\"to eat", "cut.json:16:34: error: unexpected end of input inside a string: the input "
                + "ends inside document \"jlpt-n5\" of wordBooks, which opens at line 4, column 18 and is not closed (the input is cut "
                + "short) [malformed-json]"),
            ("vocabulary-v1-backup-restore.json", "\"mountain", "cut.json:12:32: error: unexpected end of input inside a string: the "
                + "input ends inside document \"kanji-1\" of wordBooks, which opens at line 3, column 16 and is not closed (the input is "
                + "cut short) [malformed-json]"),
        ]
        for (sample, marker, expected) in cases {
            try? box.remove("whole.json")
            try box.copySample(sample, to: "whole.json")
            let text = try box.text("whole.json")
            let at = try #require(text.range(of: marker))
            try box.write("cut.json", bytes: Array(text[..<text.index(at.lowerBound, offsetBy: 4)].utf8))
            for jobs in ["1", "2"] {
                let run = try box.ferry(["validate", "cut.json", "--jobs", jobs])
                #expect(run.errors == [expected], "\(sample) \(marker)")
                #expect(run.status == 3)
            }
        }
    }

    /// A quote that never closes before more lines still says where reading resumes: that line
    /// exists.
    @Test func aQuoteOpenBeforeMoreLinesResumesOnTheNextLine() throws {
        let box = try Sandbox()
        try box.write("q.csv", "a,b\n1,\"open\n2,3\n")
        let run = try box.ferry(["validate", "q.csv"])
        #expect(run.errors == ["q.csv:2:3: error: a quoted field never closes; reading resumes on line 3, after the line of its opening "
            + "quote [unterminated-quote]"])
    }
}
