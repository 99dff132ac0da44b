import FerryTestSupport
import Foundation
import Testing

/// A tar cut inside a CSV data member's row: inside its last cell, right after a comma (a whole
/// last cell lost), or between the CR and the LF of its CRLF (Ferry writes CRLF). The row the cut runs into is not kept as a record (its cut value could
/// read as another, a media path naming no file): the `truncated-archive` error is the only one
/// for it, and the rows before it are read. Every domain, with one job or two.
@Suite struct CutTarCSVRowCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        /// "last cell": two bytes into the row's last cell; "after comma": just after its last comma;
        /// "CR LF": after the CR that ends it, before its LF.
        var place: String
        var testDescription: String { "\(domain) \(place)" }
    }

    static let cells = GeneratedDocuments.domains.flatMap { domain in ["last cell", "after comma", "CR LF"].map { Cell(domain: domain, place: $0) } }

    @Test(arguments: cells) func theRowTheCutRunsIntoIsNotKept(_ cell: Cell) throws {
        guard case let (box, _, _)? = try Sandbox.generated(cell.domain, records: 40) else { return }
        let made = try box.ferry(["convert", "v1.json", "--data-format", "csv", "-o", "whole.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        let member = try #require(tar.members.filter { $0.path.hasPrefix("data/") }.max { $0.size < $1.size })
        let data = Array(tar.bytes[member.dataOffset..<(member.dataOffset + member.size)])
        // A row from the middle on whose last cell, unquoted, holds three bytes or more.
        let starts = Self.rowStarts(data)
        var chosen: (row: Int, comma: Int)?
        for row in (starts.count / 2)..<(starts.count - 1) {
            let end = starts[row + 1] - 1
            let comma = try #require(data[starts[row]..<end].lastIndex(of: UInt8(ascii: ",")))
            if end - comma > 3 && !data[comma..<end].contains(UInt8(ascii: "\"")) {
                chosen = (row, comma)
                break
            }
        }
        let (row, comma) = try #require(chosen, "\(cell): no row to cut")
        let lf = starts[row + 1] - 1
        try #require(data[lf - 1] == 0x0D, "\(cell): the row does not end with CRLF")
        let kept = cell.place == "after comma" ? comma + 1 : cell.place == "CR LF" ? lf : comma + 3
        let collection = String(member.path.dropFirst(5).split(separator: ".")[0])
        try Self.expectCutKeepsRowsBefore(box: box, tar: tar, member: member, kept: kept, row: row, rowStart: starts[row],
                                          collection: collection, cell: cell.testDescription)
    }

    /// The offsets where `data`'s CSV rows start: line starts outside quotes (an even count of
    /// quotes before them).
    static func rowStarts(_ data: [UInt8]) -> [Int] {
        var quotes = 0
        var starts = [0]
        for (i, byte) in data.enumerated() {
            if byte == 0x22 { quotes += 1 }
            if byte == 0x0A, quotes % 2 == 0, i + 1 < data.count { starts.append(i + 1) }
        }
        return starts
    }

    /// `whole.tar` in `box` cut `kept` bytes into `member`'s data, inside row `row` (which starts
    /// at `rowStart` of the member's data): `validate` says the cut once, with the line and column
    /// where the data ends, exit 3, with one job or two; `convert --lenient` keeps the records of
    /// the rows before the cut row, the same as the whole bundle's first ones, and no more.
    static func expectCutKeepsRowsBefore(box: Sandbox, tar: TarEditor, member: TarEditor.Member, kept: Int, row: Int,
                                         rowStart: Int, collection: String, cell: String) throws {
        let data = Array(tar.bytes[member.dataOffset..<(member.dataOffset + member.size)])
        let cut = member.dataOffset + kept
        try box.write("cut.tar", bytes: Array(tar.bytes[..<cut]))
        let (line, column) = CutShortWordingCLITests.end(of: Array(data[..<kept]))
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "cut.tar", "--jobs", jobs])
            #expect(run.errors == ["cut.tar:\(member.path):\(line):\(column): error: truncated tar archive at byte offset \(cut), in member "
                + "\"\(member.path)\": the member's data ends here; its records before the cut are read [truncated-archive]"], "\(cell)")
            #expect(run.stderrLines.filter { $0.contains(": warning: ") } == [], "\(cell)")
            #expect(run.status == 3, "\(cell)")
        }
        // Under --lenient: the member's rows before the cut row (row 0 is the header), no more.
        let prefix = "{\"$collection\":\"\(collection)\""
        let whole = try box.ferry(["convert", "whole.tar", "--to", "jsonl", "-o", "-"]).stdout.split(separator: "\n")
            .filter { $0.hasPrefix(prefix) }
        let (one, two) = try box.ferryByJobs(["convert", "cut.tar", "--to", "jsonl", "--lenient", "-o", "OUT"])
        #expect(one.output == two.output && one.stderr == two.stderr && one.status == 3 && two.status == 3, "\(cell)")
        let records = one.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }
        // How many records the member's lines before the cut row hold (a quoted cell may span lines).
        try box.write("before/\(collection).csv", bytes: Array(data[..<rowStart]))
        let counted = try box.ferry(["convert", "before/", "--to", "jsonl", "--schema-free", "-o", "-"])
        let before = counted.stdout
            .split(separator: "\n").filter { $0.hasPrefix("{") && !$0.hasPrefix("{\"domain\"") }.count
        #expect(before > 0, "\(counted.stderr)")
        #expect(Array(records) == Array(whole.prefix(before)), "\(cell): \(records.count) records, \(before) before row \(row)")
    }
}
