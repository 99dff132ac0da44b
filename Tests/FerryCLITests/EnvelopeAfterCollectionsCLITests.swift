import FerryTestSupport
import Foundation
import Testing

/// An object's members may stand in any order (RFC 8259 section 4): a JSON document whose
/// envelope (`domain`, `schemaVersion`) comes after its collections, as `jq -S` and
/// `JSONEncoder`'s `.sortedKeys` write it, is read as the same document with the envelope first.
/// Checked for each domain at V1 and V2, with the envelope moved three ways, for a file, a
/// gzip-compressed file and a folder's file, with 1 and 2 jobs, and standard input redirected from
/// a file. Standard input from a pipe is read once: an envelope met there after the records that
/// says another version than their fields is an error.
@Suite struct EnvelopeAfterCollectionsCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var version: Int
        /// The sample a canonical document is converted from.
        var sample: String
        var testDescription: String { "\(domain) v\(version)" }
    }

    static let cells: [Cell] = [1, 2].flatMap { version in
        [
            Cell(domain: "notes", version: version, sample: "notes-v1.json"),
            Cell(domain: "pet-story", version: version, sample: "pet-story-v1.json"),
            Cell(domain: "vocabulary", version: version, sample: "vocabulary-v1-node-firestore.json"),
        ]
    }

    /// Ways to move the envelope of a document Ferry wrote (its members on lines 2 and 3).
    enum Move: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case bothLast = "domain and schemaVersion last"
        case versionLast = "schemaVersion last (jq -S)"
        case domainLast = "domain last"
        var testDescription: String { rawValue }

        func apply(to text: String) throws -> String {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let domain = lines[1], version = lines[2]
            try #require(domain.hasPrefix(#"  "domain": "#) && version.hasPrefix(#"  "schemaVersion": "#))
            lines.removeSubrange(1...2)
            let moved: [String]
            switch self {
            case .bothLast: moved = [domain, version]
            case .versionLast:
                lines.insert(domain, at: 1)
                moved = [version]
            case .domainLast:
                lines.insert(version, at: 1)
                moved = [domain]
            }
            // The member before the moved ones gets a comma; the last moved one loses its own.
            let close = try #require(lines.lastIndex(of: "}"))
            var body = Array(lines[..<close])
            body[body.count - 1] += ","
            var tail = moved
            tail[tail.count - 1] = String(tail[tail.count - 1].dropLast())
            return (body + tail + lines[close...]).joined(separator: "\n")
        }
    }

    /// The sample as a JSON document at the cell's version, written by Ferry (envelope first).
    static func canonical(_ cell: Cell, in box: Sandbox) throws -> String {
        try box.copySample(cell.sample)
        let run = try box.ferry(["convert", cell.sample, "--to", "json", "--to-version", String(cell.version), "-o", "canonical.json", "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        return try box.text("canonical.json")
    }

    @Test(arguments: cells, Move.allCases)
    func theEnvelopeIsReadWhereverItStands(_ cell: Cell, _ move: Move) throws {
        let box = try Sandbox()
        let text = try Self.canonical(cell, in: box)
        let moved = try move.apply(to: text)
        #expect(moved != text)
        #expect(try JSONSerialization.jsonObject(with: Data(moved.utf8)) as? NSDictionary
            == JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        try box.write("moved.json", moved)
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try box.write("folder/moved.json", moved)
        let gzip = try runTool(try #require(toolOnPath("gzip")), ["-kf", "moved.json"], in: box.url)
        try #require(gzip.status == 0)
        let expected = try box.ferry(["convert", "canonical.json", "--to", "jsonl"])
        try #require(expected.status == 0, "\(expected.stderr)")
        #expect(expected.stdout.hasPrefix(#"{"domain": "\#(cell.domain)", "schemaVersion": \#(cell.version)}"#))
        for input in ["moved.json", "moved.json.gz", "folder"] {
            for jobs in ["1", "2"] {
                let run = try box.ferry(["convert", input, "--to", "jsonl", "--jobs", jobs])
                #expect(run.status == 0, "\(input), --jobs \(jobs): \(run.stderr)")
                #expect(run.stdout == expected.stdout, "\(input), --jobs \(jobs)")
                let validated = try box.ferry(["validate", input, "--jobs", jobs])
                #expect(validated.status == 0, "\(input), --jobs \(jobs): \(validated.stderr)")
                #expect(validated.stderr.contains(": \(cell.domain) v\(cell.version): "), "\(input): \(validated.stderr)")
            }
        }
    }

    /// Standard input redirected from a file is read again from where it started, as a file is,
    /// plain or compressed.
    @Test func standardInputFromAFileIsReadAgain() throws {
        let box = try Sandbox()
        let cell = Cell(domain: "pet-story", version: 2, sample: "pet-story-v1.json")
        try box.write("moved.json", try Move.bothLast.apply(to: try Self.canonical(cell, in: box)))
        let gzip = try runTool(try #require(toolOnPath("gzip")), ["-kf", "moved.json"], in: box.url)
        try #require(gzip.status == 0)
        for (file, format) in [("moved.json", "json"), ("moved.json.gz", "json.gz")] {
            let run = try box.ferry(["validate", "--from", format, "-"], stdinFile: file)
            #expect(run.status == 0, "\(file): \(run.stderr)")
            #expect(run.stderr == "-: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid\n")
        }
    }

    /// Standard input from a pipe cannot be read again: the records are read by their fields, and
    /// an envelope met after them that says another version is an error naming the flag that says it.
    @Test func standardInputWithALateEnvelopeThatDisagreesIsAnError() throws {
        let box = try Sandbox()
        let cell = Cell(domain: "pet-story", version: 2, sample: "pet-story-v1.json")
        let moved = try Move.bothLast.apply(to: try Self.canonical(cell, in: box))
        let run = try box.ferry(["validate", "--from", "json", "-"], stdin: moved)
        #expect(run.status == 4)
        #expect(run.stderr.split(separator: "\n").contains(
            "-: error: the envelope's schemaVersion 2 stands after the records, which were read as version 1 from their fields; "
                + "standard input that is not a file is read once: put the envelope before the collections, or name it with --schema-version 2 [unknown-version]"))
        // Records read as another version than their envelope says are not written, --lenient or not.
        let lenient = try box.ferry(["convert", "--from", "json", "-", "-o", "out.json", "--lenient"], stdin: moved)
        #expect(lenient.status == 4)
        #expect(!box.exists("out.json"))
        let named = try box.ferry(["validate", "--from", "json", "--schema-version", "2", "-"], stdin: moved)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr == "-: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid\n")
    }

    /// Where the fields tell the version, a late envelope on standard input that agrees is no error.
    @Test(arguments: Move.allCases)
    func standardInputWithALateEnvelopeThatAgreesIsRead(_ move: Move) throws {
        let box = try Sandbox()
        let cell = Cell(domain: "notes", version: 2, sample: "notes-v1.json")
        let text = try Self.canonical(cell, in: box)
        let expected = try box.ferry(["convert", "canonical.json", "--to", "jsonl"])
        let run = try box.ferry(["convert", "--from", "json", "--to", "jsonl", "-"], stdin: try move.apply(to: text))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == expected.stdout)
    }
}
