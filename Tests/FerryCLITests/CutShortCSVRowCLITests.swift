import FerryTestSupport
import Foundation
import Testing

/// A CSV file cut inside its last row (outside quotes): the row has too few fields and no line
/// break ends it, and the `ragged-row` error says the input ends inside that row and is cut
/// short, where the input ends, in the words the other formats use. The same row followed by a
/// line break is a row written short: the plain field-count error. Every collection of the three
/// domains' samples, with one job or two.
@Suite struct CutShortCSVRowCLITests {
    struct Cell: CustomStringConvertible, Sendable {
        let sample: String
        let collection: String
        var description: String { "\(sample) \(collection)" }
    }

    static let cells = [
        ("notes-v1.json", ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"]),
        ("pet-story-v1.json", ["profiles", "members", "stories"]),
        ("vocabulary-v1-backup-restore.json", ["wordBooks", "words"]),
    ].flatMap { sample, collections in collections.map { Cell(sample: sample, collection: $0) } }

    /// The collection's CSV file cut just before the second delimiter of its last row (two fields
    /// left, no line break after them), the header's fields, and the row's line and the column
    /// where the cut input ends.
    private func cut(_ cell: Cell, in box: Sandbox) throws -> (bytes: [UInt8], header: [Substring], line: Int, column: Int) {
        try box.copySample(cell.sample, to: "sample.json")
        let written = try box.ferry(["convert", "sample.json", "--to", "csv", "-o", "whole/"])
        #expect(written.status == 0, "\(cell): \(written.stderr)")
        let bytes = try box.bytes("whole/\(cell.collection).csv")
        #expect(bytes.last == 0x0A, "\(cell)")
        // The last row holds no line break inside quotes in these samples.
        let rowStart = try #require(bytes.dropLast().lastIndex(of: 0x0A)) + 1
        var delimiters: [Int] = []
        var quoted = false
        for i in rowStart..<bytes.count {
            if bytes[i] == UInt8(ascii: "\"") { quoted.toggle() }
            if bytes[i] == UInt8(ascii: ","), !quoted { delimiters.append(i) }
        }
        let cut = Array(bytes[..<(try #require(delimiters.dropFirst().first))])
        let header = String(decoding: bytes[..<(try #require(bytes.firstIndex(of: 0x0A)))], as: UTF8.self).split(separator: ",")
        let line = bytes[..<rowStart].filter { $0 == 0x0A }.count + 1
        let column = String(decoding: cut[rowStart...], as: UTF8.self).unicodeScalars.count + 1
        return (cut, header, line, column)
    }

    @Test(arguments: cells)
    func aLastRowCutShortSaysTheInputEnds(_ cell: Cell) throws {
        let box = try Sandbox()
        let (bytes, header, line, column) = try cut(cell, in: box)
        let name = "cut/\(cell.collection).csv"
        // A file of one collection names records of others (a story its members): the whole file's
        // errors of the rows before the cut stay, and only the cut row's are replaced by its own.
        try box.write(name, bytes: try box.bytes("whole/\(cell.collection).csv"))
        let before = try box.ferry(["validate", name]).errors.filter { Self.line(of: $0) < line }
        try box.write(name, bytes: bytes)
        let count = "row has 2 fields, header has \(header.count)"
        let missing = "field 3 (\(header[2]))" + (header.count == 3 ? " is missing" : " and after are missing") + " [ragged-row]"
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", name, "--jobs", jobs])
            #expect(run.errors.filter { $0.hasSuffix("[ragged-row]") } == ["\(name):\(line):\(column): error: \(count): the input ends inside "
                + "the row on line \(line), which is not complete (the input may be cut short): \(missing)"], "\(cell)")
            #expect(run.errors.filter { !$0.hasSuffix("[ragged-row]") } == before, "\(cell)")
            #expect(run.status == 3, "\(cell)")
        }
        // The same row ended by a line break was written short: not called cut.
        try box.write(name, bytes: bytes + [0x0A])
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", name, "--jobs", jobs])
            #expect(run.errors.filter { $0.hasSuffix("[ragged-row]") } == ["\(name):\(line):\(column): error: \(count): \(missing)"],
                "\(cell)")
            #expect(run.errors.filter { !$0.hasSuffix("[ragged-row]") } == before, "\(cell)")
            #expect(run.status == 3, "\(cell)")
        }
    }

    /// The line of a diagnostic line `FILE:LINE:COLUMN: ...` (0 without one).
    private static func line(of diagnostic: String) -> Int {
        let parts = diagnostic.split(separator: ":")
        return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }
}
