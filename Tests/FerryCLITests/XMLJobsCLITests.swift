import FerryTestSupport
import Foundation
import Testing

/// `--jobs N` on XML: record elements are cut into batches and parsed and prepared on worker
/// threads, so every output byte, diagnostic (with its line, column and pointer) and exit status
/// must be that of `--jobs 1`: for every domain and version, clean and with each kind of error (a
/// duplicate id, a type error, a tag mismatch mid-file, a truncated file).
@Suite struct XMLJobsCLITests {
    /// Records of each domain's main collection: several batches of 128.
    static let records = 400

    enum Damage: String, CaseIterable, Sendable {
        case none
        /// The 201st `<id>` made the 200th's.
        case duplicateID
        /// The 251st `<studyState>` (vocabulary) or `<createdAt>` made `abc`: not a number, not an
        /// instant.
        case typeError
        /// The 300th `</id>` written `</idx>`: libxml2's tag mismatch, in a batch.
        case tagMismatch
        /// The first 60% of the bytes.
        case truncated

        /// The exit status of `validate` (DESIGN.md "Errors").
        var validateStatus: Int32 {
            switch self {
            case .none: 0
            case .duplicateID, .typeError: 1
            case .tagMismatch, .truncated: 3
            }
        }

        /// The code `validate` reports first.
        var code: String? {
            switch self {
            case .none: nil
            case .duplicateID: "duplicate-id"
            case .typeError: nil
            case .tagMismatch, .truncated: "malformed-xml"
            }
        }
    }

    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var version: Int
        var damage: Damage
        var testDescription: String { "\(domain) V\(version) \(damage.rawValue)" }
    }

    static let cells: [Cell] = GeneratedDocuments.domains.flatMap { domain in
        [1, 2].flatMap { version in Damage.allCases.map { Cell(domain: domain, version: version, damage: $0) } }
    }

    @Test(arguments: cells) func outputsAndDiagnosticsAreThoseOfOneJob(_ cell: Cell) throws {
        guard case let (box, _, json)? = try Sandbox.generated(cell.domain, version: cell.version, records: Self.records) else { return }
        let conversion = try box.ferry(["convert", json, "-o", "whole.xml", "--quiet"])
        try #require(conversion.status == 0, "\(conversion.stderr)")
        let text = try #require(Self.damaged(try box.text("whole.xml"), cell.damage), "the document has too few ids or fields to damage")
        try box.write("in.xml", text)

        let commands: [[String]] = [
            ["validate", "in.xml"],
            cell.version == 1 ? ["migrate", "in.xml", "--to-version", "2", "--lenient", "-o", "OUT"]
                : ["convert", "in.xml", "--lenient", "-o", "OUT"],
        ]
        for command in commands {
            let (one, two) = try box.ferryByJobs(command)
            #expect(two.output == one.output, "\(command)")
            #expect(two.stdout == one.stdout, "\(command)")
            #expect(two.stderr == one.stderr, "\(command)")
            #expect(two.status == one.status, "\(command)")
            if command[0] == "validate" {
                #expect(one.status == cell.damage.validateStatus, "\(one.stderr)")
                if let code = cell.damage.code { #expect(one.stderr.contains("[\(code)]"), "\(one.stderr)") }
            } else if cell.damage == .none {
                #expect(one.output.split(separator: "\n").count > Self.records, "\(one.stderr)")
            }
        }
    }

    /// The tag mismatch is reported where libxml2 finds it, with both jobs: line and column of
    /// the bad end tag, and the line of the start tag it should have closed.
    @Test func aTagMismatchInABatchIsReportedAtItsPlace() throws {
        guard case let (box, _, _)? = try Sandbox.generated("notes", records: Self.records) else { return }
        try #require(try box.ferry(["convert", "v1.json", "-o", "whole.xml", "--quiet"]).status == 0)
        let text = try #require(Self.damaged(try box.text("whole.xml"), .tagMismatch))
        try box.write("in.xml", text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("</idx>") }) + 1
        let column = try #require(lines[line - 1].utf8.firstIndex(of: UInt8(ascii: "x"))).utf16Offset(in: lines[line - 1]) + 3
        for jobs in ["1", "2"] {
            let run = try box.ferry(["validate", "in.xml", "--jobs", jobs])
            #expect(run.status == 3)
            #expect(run.stderr.hasPrefix("in.xml:\(line):\(column): error: Opening and ending tag mismatch: id line \(line) and idx [malformed-xml]\n"),
                    "\(run.stderr)")
        }
    }

    /// `text` with `damage` done to it; nil when it has too few ids or fields for it.
    static func damaged(_ text: String, _ damage: Damage) -> String? {
        let ids = JSONDocumentJobsCLITests.matches(#"<id>([^<]*)</id>"#, in: text)
        switch damage {
        case .none:
            return text
        case .duplicateID:
            guard ids.count > 201 else { return nil }
            let first = (text as NSString).substring(with: ids[200].range(at: 1))
            return (text as NSString).replacingCharacters(in: ids[201].range(at: 1), with: first)
        case .typeError:
            for field in ["studyState", "createdAt"] {
                let values = JSONDocumentJobsCLITests.matches(#"<\#(field)>([^<]*)</\#(field)>"#, in: text)
                guard values.count > 250 else { continue }
                return (text as NSString).replacingCharacters(in: values[250].range(at: 1), with: "abc")
            }
            return nil
        case .tagMismatch:
            guard ids.count > 300 else { return nil }
            let range = ids[300].range
            return (text as NSString).replacingCharacters(in: NSRange(location: range.location + range.length - 1, length: 0), with: "x")
        case .truncated:
            let bytes = Array(text.utf8)
            return String(decoding: bytes.prefix(bytes.count * 6 / 10), as: UTF8.self)
        }
    }
}
