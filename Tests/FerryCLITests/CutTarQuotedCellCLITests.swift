import FerryTestSupport
import Foundation
import Testing

/// A tar cut inside a CSV data member's quoted cell that spans lines, past one of its line
/// breaks: the cut is said once (`truncated-archive`), as a cut anywhere else in a row is, and
/// not followed by an `unterminated-quote` that resumes reading after the opening quote's line
/// (those lines are the cell's, and the row the cut runs into is not kept). The rows before it
/// are read. Every domain, several cut places, with one job or two.
@Suite struct CutTarQuotedCellCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        /// Where the cut is, in bytes past the cell's first line break ("first+1": its first byte
        /// after the LF; "second+2": two bytes past its second line break).
        var place: String
        var testDescription: String { "\(domain) \(place)" }
    }

    static let places = ["first+1", "first+4", "second+1", "second+2"]
    static let cells = GeneratedDocuments.domains.flatMap { domain in places.map { Cell(domain: domain, place: $0) } }

    /// The text field given two line breaks in every record of the collection it is cut in.
    static let fields = ["notes": ("think", "wineNotes"), "pet-story": ("caption", "stories"), "vocabulary": ("meaningText", "words")]
    static let lines = "Line one\\nLine two\\n"

    @Test(arguments: cells) func aCutPastALineBreakOfAQuotedCellIsTheCutOnly(_ cell: Cell) throws {
        guard case let (box, v1, _)? = try Sandbox.generated(cell.domain, records: 40) else { return }
        let (field, collection) = Self.fields[cell.domain]!
        let document = String(decoding: v1, as: UTF8.self)
            .replacingOccurrences(of: "\"\(field)\": \"", with: "\"\(field)\": \"\(Self.lines)")
            .replacingOccurrences(of: "\"\(field)\":\"", with: "\"\(field)\":\"\(Self.lines)")
        try box.write("lines.json", document)
        let made = try box.ferry(["convert", "lines.json", "--data-format", "csv", "-o", "whole.tar", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let tar = TarEditor(bytes: try box.bytes("whole.tar"))
        let member = try #require(tar.members.first { $0.path == "data/\(collection).csv" })
        let data = Array(tar.bytes[member.dataOffset..<(member.dataOffset + member.size)])
        let starts = CutTarCSVRowCLITests.rowStarts(data)
        // The first cell holding the two lines in the member's second half.
        let needle = Array("Line one\nLine two\n".utf8)
        let opening = try #require((data.count / 2..<(data.count - needle.count)).first { Array(data[$0..<($0 + needle.count)]) == needle },
                                   "\(cell): no cell of two lines")
        let row = try #require(starts.lastIndex { $0 < opening })
        let first = opening + "Line one\n".utf8.count
        let second = first + "Line two\n".utf8.count
        let kept = switch cell.place {
        case "first+1": first
        case "first+4": first + 3
        case "second+1": second
        default: second + 1
        }
        try CutTarCSVRowCLITests.expectCutKeepsRowsBefore(box: box, tar: tar, member: member, kept: kept, row: row,
                                                          rowStart: starts[row], collection: collection, cell: cell.testDescription)
    }
}
