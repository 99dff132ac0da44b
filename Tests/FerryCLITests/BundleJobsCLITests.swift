import FerryTestSupport
import Foundation
import Testing

/// `--jobs N` on bundles: the data members are read in manifest order, each member's records
/// batched to worker threads as its format allows (JSON Lines, CSV and JSON documents are cut
/// and parsed on the workers; XML records are read on the calling thread and prepared on the
/// workers), so every output byte, diagnostic and exit status must be that of `--jobs 1`: for
/// every domain, data format and container (tar, zip, bundle folder), clean, and for a folder
/// also with a duplicated id, a member cut at 60% and a missing member (problems reported while
/// members are opened, held in turn with the records).
@Suite struct BundleJobsCLITests {
    /// Records of each domain's main collection: several batches of 128.
    static let records = 300

    enum Container: String, CaseIterable, Sendable {
        case tar, zip, folder
    }

    enum Damage: String, CaseIterable, Sendable {
        case none
        /// The 152nd id of the main collection's member made the 151st's.
        case duplicateID
        /// The main collection's member cut at 60% of its bytes.
        case truncatedMember
        /// The duplicated id, and the last data member of the manifest removed.
        case missingMember
    }

    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var format: String
        var container: Container
        var testDescription: String { "\(domain) \(format) \(container.rawValue)" }
    }

    static let cells: [Cell] = GeneratedDocuments.domains.flatMap { domain in
        ["jsonl", "csv", "json", "xml"].flatMap { format in
            Container.allCases.map { Cell(domain: domain, format: format, container: $0) }
        }
    }

    @Test(arguments: cells) func outputsAndDiagnosticsAreThoseOfOneJob(_ cell: Cell) throws {
        guard case let (box, v1, _)? = try Sandbox.generated(cell.domain, records: Self.records) else { return }
        let bundle = cell.container == .folder ? "b" : "b.\(cell.container.rawValue)"
        let making = try box.ferry(
            ["convert", "v1.json", "--data-format", cell.format, "-o", cell.container == .folder ? "b/" : bundle, "--quiet"]
                + (cell.container == .folder ? ["--to", "tar"] : []))
        try #require(making.status == 0, "\(making.stderr)")
        try compareJobs(in: box, bundle: bundle, damage: .none)
        guard cell.container == .folder else { return }
        let members = try box.list("b/data").sorted()
        let ids = JSONDocumentJobsCLITests.matches(#""id"\s*:\s*"([^"]*)""#, in: String(decoding: v1, as: UTF8.self))
            .map { (String(decoding: v1, as: UTF8.self) as NSString).substring(with: $0.range(at: 1)) }
        // The main collection's member: the largest.
        let main = try #require(members.max { try box.bytes("b/data/\($0)").count < box.bytes("b/data/\($1)").count })
        let original = try box.text("b/data/\(main)")
        for damage in Damage.allCases where damage != .none {
            try box.write("b/data/\(main)", original)
            switch damage {
            case .none:
                break
            case .duplicateID:
                try box.write("b/data/\(main)", Self.duplicatingAnID(original, ids: ids))
            case .truncatedMember:
                let bytes = Array(original.utf8)
                try box.write("b/data/\(main)", bytes: Array(bytes.prefix(bytes.count * 6 / 10)))
            case .missingMember:
                // Errors in the main member, then the last member of the manifest removed: for
                // notes, whose main member comes first, the lack is found while the batches
                // before it still wait to be committed.
                try box.write("b/data/\(main)", Self.duplicatingAnID(original, ids: ids))
                let manifest = try box.text("b/manifest.json")
                var listed: [String] = []
                for match in JSONDocumentJobsCLITests.matches(#""path"\s*:\s*"data/([^"]*)""#, in: manifest) {
                    let name = (manifest as NSString).substring(with: match.range(at: 1))
                    if !listed.contains(name) { listed.append(name) }
                }
                let last = try #require(listed.last { $0 != main })
                try box.remove("b/data/\(last)")
            }
            try compareJobs(in: box, bundle: bundle, damage: damage)
        }
    }

    /// Media of external-storage fields (notes' `imageData`) are put back into the records before
    /// they are prepared on the workers: the same base64 as with one job, at V1 and migrated.
    @Test func mediaArePutBackBeforeTheRecordsArePrepared() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        try #require(try box.ferry(["convert", "notes-v1.json", "-o", "b.tar", "--quiet"]).status == 0)
        for command in [["convert", "b.tar", "-o"], ["convert", "b.tar", "--to-version", "2", "-o"]] {
            let one = try box.ferry(command + ["one.jsonl", "--jobs", "1"])
            let two = try box.ferry(command + ["two.jsonl", "--jobs", "2"])
            #expect(one.status == 0 && two.status == 0, "\(one.stderr)")
            #expect(two.stderr.replacingOccurrences(of: "two.jsonl", with: "one.jsonl") == one.stderr)
            let written = try box.text("one.jsonl")
            #expect(try box.text("two.jsonl") == written)
            #expect(written.components(separatedBy: #""imageData":"iVBORw0KGgo"#).count == 3, "\(written)")
        }
    }

    /// `text` with its 152nd id (of `ids`, those it holds) made the 151st's.
    static func duplicatingAnID(_ text: String, ids: [String]) throws -> String {
        let present = ids.filter { text.contains($0) }
        try #require(present.count > 151, "the member holds too few ids")
        let at = try #require(text.range(of: present[151]))
        return text.replacingCharacters(in: at, with: present[150])
    }

    /// Runs the commands with `--jobs 1` and `--jobs 2` and expects the same of both.
    private func compareJobs(in box: Sandbox, bundle: String, damage: Damage) throws {
        let commands: [[String]] = [
            ["validate", bundle],
            ["convert", bundle, "--to-version", "2", "--lenient", "-o", "OUT"],
            ["convert", bundle, "--lenient", "-o", "OUT"],
        ]
        for command in commands where damage == .none || command.contains("--to-version") || command[0] == "validate" {
            let (one, two) = try box.ferryByJobs(command)
            #expect(two.output == one.output, "\(damage) \(command)")
            #expect(two.stdout == one.stdout, "\(damage) \(command)")
            #expect(two.stderr == one.stderr, "\(damage) \(command)")
            #expect(two.status == one.status, "\(damage) \(command)")
            if damage == .none {
                #expect(one.status == 0, "\(command): \(one.stderr)")
                if command[0] == "convert" { #expect(one.output.split(separator: "\n").count > Self.records, "\(command)") }
            } else if command[0] == "validate" {
                #expect(one.status != 0, "\(damage): \(one.stderr)")
            }
        }
    }
}
