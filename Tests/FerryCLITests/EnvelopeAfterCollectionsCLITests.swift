import FerryTestSupport
import Foundation
import Testing

/// An object's members may stand in any order (RFC 8259 section 4): a JSON document whose
/// envelope (`domain`, `schemaVersion`) comes after its collections, as `jq -S` and
/// `JSONEncoder`'s `.sortedKeys` write it, is read as the same document with the envelope first.
/// Checked for each domain at V1 and V2, with the envelope moved three ways, for a file, a
/// gzip-compressed file and a folder's file, with 1 and 2 jobs, and standard input redirected from
/// a file or from a pipe, plain or compressed (`SpooledPipeSource`: its first bytes are kept, and
/// its rest copied into a temporary file when the envelope is looked for). Only a pipe whose first
/// collection starts past the 8 MiB it keeps is read once: a late envelope that says another
/// version than the records' fields is then an error.
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

    /// A pipe is read as the same file named by its path: the same output bytes, diagnostics (but
    /// the name) and exit status, for `convert`, `validate` and `head`, plain or gzip-compressed.
    @Test(arguments: cells, Move.allCases)
    func aPipeIsReadAsTheFileIs(_ cell: Cell, _ move: Move) throws {
        let box = try Sandbox()
        try box.write("moved.json", try move.apply(to: try Self.canonical(cell, in: box)))
        let gzip = try runTool(try #require(toolOnPath("gzip")), ["-kf", "moved.json"], in: box.url)
        try #require(gzip.status == 0)
        let commands = [["convert", "--to", "jsonl", "--jobs", "1"], ["convert", "--to", "jsonl", "--jobs", "2"], ["validate"], ["head", "-n", "1"]]
        for file in ["moved.json", "moved.json.gz"] {
            for command in commands {
                let named = try box.ferry(command + [file])
                #expect(named.status == 0, "\(command) \(file): \(named.stderr)")
                let piped = try box.ferry(command + ["-"], pipedFile: file)
                #expect(piped.status == named.status, "\(command) \(file): \(piped.stderr)")
                #expect(piped.stdout == named.stdout, "\(command) \(file)")
                #expect(piped.stderr == named.stderr.replacingOccurrences(of: file, with: "-"), "\(command) \(file)")
                if command == ["validate"] {
                    #expect(piped.stderr.hasPrefix("-: \(cell.domain) v\(cell.version): "), "\(file): \(piped.stderr)")
                }
            }
        }
    }

    /// Records whose fields look like another version than their late envelope says (a pet-story
    /// V2 document whose first record is a profile, read as V1 by its fields) are read from a pipe
    /// as the envelope says: no wrong-version error first, none hidden by `--max-errors 1`, and
    /// `--lenient` writes what the file gives. So is a path that is a pipe (`<(jq -S . file)`).
    @Test func aPipeWithALateEnvelopeThatDisagreesWithTheFieldsIsReadAsItSays() throws {
        let box = try Sandbox()
        let cell = Cell(domain: "pet-story", version: 2, sample: "pet-story-v1.json")
        let moved = try Move.bothLast.apply(to: try Self.canonical(cell, in: box))
        try box.write("moved.json", moved)
        let summary = "-: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid\n"
        let run = try box.ferry(["validate", "--from", "json", "--max-errors", "1", "-"], stdin: moved)
        #expect(run.status == 0)
        #expect(run.stderr == summary)
        let lenient = try box.ferry(["convert", "--from", "json", "-", "-o", "out.json", "--lenient"], stdin: moved)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        let named = try box.ferry(["convert", "moved.json", "-o", "named.json", "--lenient"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try box.bytes("out.json") == box.bytes("named.json"))
        let path = try box.ferry(["validate", "--from", "json", "/dev/stdin"], stdin: moved)
        #expect(path.status == 0)
        #expect(path.stderr == "/dev/stdin" + summary.dropFirst())
    }

    /// A pipe whose first collection starts past the 8 MiB it keeps, or with no temporary file to
    /// copy its rest into, is read once: a late envelope that says another version than the
    /// records' fields is an error that says why and names the flag that says it, and nothing is
    /// written, `--lenient` or not. The same padded document is read again from a file.
    @Test func aPipeThatCannotBeReadAgainIsReadOnce() throws {
        let box = try Sandbox()
        let cell = Cell(domain: "pet-story", version: 2, sample: "pet-story-v1.json")
        let moved = try Move.bothLast.apply(to: try Self.canonical(cell, in: box))
        try box.write("padded.json", "{" + String(repeating: " ", count: 9 << 20) + moved.dropFirst())
        let late = "-: error: the envelope's schemaVersion 2 stands after the records, which were read as version 1 from their fields; "
        let advice = "put the envelope before the collections, or name it with --schema-version 2 [unknown-version]"
        let run = try box.ferry(["validate", "-"], pipedFile: "padded.json")
        #expect(run.status == 4)
        #expect(run.stderr.split(separator: "\n").contains(
            Substring(late + "a pipe is read a second time only when its first collection starts in its first 8 MiB: " + advice)), "\(run.stderr)")
        let lenient = try box.ferry(["convert", "-", "-o", "out.json", "--lenient"], pipedFile: "padded.json")
        #expect(lenient.status == 4)
        #expect(!box.exists("out.json"))
        let summary = "-: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid\n"
        let flagged = try box.ferry(["validate", "--schema-version", "2", "-"], pipedFile: "padded.json")
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stderr == summary)
        let file = try box.ferry(["validate", "padded.json"])
        #expect(file.stderr == "padded.json" + summary.dropFirst())

        // A short pipe is read again from memory: no temporary file is needed.
        let short = try box.ferry(["validate", "-"], stdin: moved, environment: ["TMPDIR": "/nonexistent"])
        #expect(short.status == 0, "\(short.stderr)")
        #expect(short.stderr == summary)
        // Past the 8 MiB kept, the rest needs one.
        let body = moved.trimmingCharacters(in: .whitespacesAndNewlines)
        try box.write("long.json", String(body.dropLast()) + String(repeating: " ", count: 9 << 20) + "}\n")
        let noTemporaryFile = try box.ferry(["validate", "-"], pipedFile: "long.json", environment: ["TMPDIR": "/nonexistent"])
        #expect(noTemporaryFile.status == 4)
        #expect(noTemporaryFile.stderr.split(separator: "\n").contains(Substring(late
            + "a pipe is read a second time from a temporary file, which could not be made "
            + "(cannot create a temporary file in /nonexistent: No such file or directory): " + advice)), "\(noTemporaryFile.stderr)")
    }
}
