import FerryTestSupport
import Foundation
import Testing

/// `--jobs N` on a CSV folder (one `<collection>.csv` a collection, as `--to csv -o DIR/` writes
/// it): each file is read with its own batch reader, in the folder's order, its rows taken by
/// the typed path under its own header, so every output byte, diagnostic and exit status must be
/// that of `--jobs 1`: for every domain at V1 and V2, clean, with a duplicated id, with a value
/// of the wrong type and with the main collection's file cut at 60%.
@Suite struct CSVFolderJobsCLITests {
    /// Records of each domain's main collection: several batches of 128.
    static let records = 300

    enum Damage: String, CaseIterable, Sendable {
        case none
        /// The 152nd id of the main collection's file made the 151st's.
        case duplicateID
        /// The 150th instant (or seconds count) of the main collection's file made `soon`.
        case typeError
        /// The main collection's file cut at 60% of its bytes.
        case truncatedFile
    }

    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var version: Int
        var testDescription: String { "\(domain) V\(version)" }
    }

    static let cells: [Cell] = GeneratedDocuments.domains.flatMap { domain in [1, 2].map { Cell(domain: domain, version: $0) } }

    @Test(arguments: cells) func outputsAndDiagnosticsAreThoseOfOneJob(_ cell: Cell) throws {
        guard case let (box, v1, file)? = try Sandbox.generated(cell.domain, version: cell.version, records: Self.records) else { return }
        let making = try box.ferry(["convert", file, "--to", "csv", "-o", "d/", "--quiet"])
        try #require(making.status == 0, "\(making.stderr)")
        let files = try box.list("d")
        // A folder of several files for pet-story and vocabulary: the batches cross files.
        #expect(files.count == (cell.domain == "notes" ? 1 : cell.domain == "pet-story" ? 3 : 2), "\(files)")
        let main = try #require(files.max { try box.bytes("d/\($0)").count < box.bytes("d/\($1)").count })
        let original = try box.text("d/\(main)")
        let document = String(decoding: v1, as: UTF8.self)
        let ids = JSONDocumentJobsCLITests.matches(#""id"\s*:\s*"([^"]*)""#, in: document)
            .map { (document as NSString).substring(with: $0.range(at: 1)) }
        for damage in Damage.allCases {
            switch damage {
            case .none:
                try box.write("d/\(main)", original)
            case .duplicateID:
                try box.write("d/\(main)", BundleJobsCLITests.duplicatingAnID(original, ids: ids))
            case .typeError:
                try box.write("d/\(main)", Self.mistyping(original))
            case .truncatedFile:
                let bytes = Array(original.utf8)
                try box.write("d/\(main)", bytes: Array(bytes.prefix(bytes.count * 6 / 10)))
            }
            try compareJobs(in: box, cell: cell, damage: damage)
        }
    }

    /// `text` with its 150th instant or seconds count (a cell of its own) made `soon`.
    static func mistyping(_ text: String) throws -> String {
        let found = JSONDocumentJobsCLITests.matches(#",(20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z|1[0-9]{9})(?=[,\r\n])"#, in: text)
        try #require(found.count >= 150, "the file holds too few instants")
        return (text as NSString).replacingCharacters(in: found[149].range(at: 1), with: "soon")
    }

    /// Runs the commands with `--jobs 1` and `--jobs 2` and expects the same of both.
    private func compareJobs(in box: Sandbox, cell: Cell, damage: Damage) throws {
        var commands: [[String]] = [["validate", "d"], ["convert", "d", "--lenient", "-o", "OUT"]]
        if cell.version == 1 { commands.append(["convert", "d", "--to-version", "2", "--lenient", "-o", "OUT"]) }
        for command in commands {
            let (one, two) = try box.ferryByJobs(command)
            #expect(two.output == one.output, "\(damage) \(command)")
            #expect(two.stdout == one.stdout, "\(damage) \(command)")
            #expect(two.stderr == one.stderr, "\(damage) \(command)")
            #expect(two.status == one.status, "\(damage) \(command)")
            switch damage {
            case .none:
                #expect(one.status == 0, "\(command): \(one.stderr)")
                if command[0] == "convert" { #expect(one.output.split(separator: "\n").count > Self.records, "\(command)") }
            case .duplicateID:
                #expect(one.stderr.contains("[duplicate-id]"), "\(command): \(one.stderr)")
            case .typeError:
                // An instant's text is an invalid value, a seconds count's a type error.
                #expect(one.stderr.contains("\"soon\" is not an RFC 3339 instant") || one.stderr.contains("expected an integer"),
                        "\(command): \(one.stderr)")
            case .truncatedFile:
                break
            }
            if damage != .none, command[0] == "validate" { #expect(one.status != 0, "\(damage): \(one.stderr)") }
        }
        // A CSV folder written from the typed path's leaf streams, one file a collection.
        var written: [[String: String]] = []
        for jobs in ["1", "2"] {
            try? box.remove("o\(jobs)")
            let run = try box.ferry(["convert", "d", "--to", "csv", "--lenient", "-o", "o\(jobs)/", "--jobs", jobs])
            var files: [String: String] = ["status": "\(run.status)", "stderr": run.stderr.replacingOccurrences(of: "o\(jobs)", with: "OUT")]
            for file in (try? box.files(under: "o\(jobs)")) ?? [] { files[file] = try box.text("o\(jobs)/\(file)") }
            written.append(files)
        }
        #expect(written[1] == written[0], "\(damage) --to csv")
        if damage == .none { #expect(written[0].count == (try box.list("d")).count + 2, "\(written[0].keys.sorted())") }
    }
}
