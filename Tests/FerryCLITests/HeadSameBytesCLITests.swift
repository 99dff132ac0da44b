import FerryTestSupport
import Foundation
import Testing

/// `ferry head -n N` writes what `convert --limit N` writes, and says what it says (less the
/// summary), whether or not it stops reading early: every domain and version, every input
/// format (JSON, JSON Lines, XML, a CSV folder, a bundle folder, tar, zip), one job and two, at
/// limits that stop early and one past the input's size.
@Suite struct HeadSameBytesCLITests {
    struct Cell: CustomTestStringConvertible, Sendable {
        var domain: String
        var version: Int
        var testDescription: String { "\(domain) v\(version)" }
    }

    static let cells = GeneratedDocuments.domains.flatMap { domain in [1, 2].map { Cell(domain: domain, version: $0) } }

    @Test(arguments: cells) func headWritesWhatConvertLimitWrites(_ cell: Cell) throws {
        guard case let (box, _, file)? = try Sandbox.generated(cell.domain, version: cell.version, records: 30) else { return }
        var inputs: [(input: String, to: String)] = [(file, "json")]
        for (input, options) in [("d.jsonl", ["-o", "d.jsonl"]), ("d.xml", ["-o", "d.xml"]), ("dcsv", ["--to", "csv", "-o", "dcsv/"]),
                                 ("ddir", ["--to", "tar", "-o", "ddir/"]), ("d.tar", ["-o", "d.tar"])] {
            let made = try box.ferry(["convert", file] + options + ["--quiet"])
            try #require(made.status == 0, "\(cell) \(input): \(made.stderr)")
            inputs.append((input, input == "dcsv" ? "csv" : input == "d.xml" ? "xml" : "jsonl"))
        }
        if ZipArchives.python != nil {
            _ = try ZipArchives.fromTar(box.url.appendingPathComponent("d.tar"), to: box.url.appendingPathComponent("d.zip"))
            inputs.append(("d.zip", "json"))
        }
        for (input, to) in inputs {
            for limit in ["1", "3", "1000"] {
                let convert = try box.ferry(["convert", input, "--limit", limit, "--to", to, "-o", "-"])
                for jobs in ["1", "2"] {
                    let head = try box.ferry(["head", input, "-n", limit, "--to", to, "--jobs", jobs])
                    let context = "\(cell) \(input) -n \(limit) --jobs \(jobs)"
                    #expect(head.status == convert.status, "\(context): \(head.stderr)")
                    #expect(head.stdout == convert.stdout, "\(context)")
                    #expect(head.stderr == convert.stderrLines.dropLast().map { $0 + "\n" }.joined(), "\(context)")
                }
            }
        }
    }

    /// A path that is a pipe (`/dev/stdin` from a pipe, as `<(cat f)` is) reads as the file does
    /// for `head` and `convert --limit`: their output planning looked at its first bytes to tell
    /// its format, and the reading then found it empty (`empty input`, exit 3).
    @Test(arguments: cells) func aPathThatIsAPipeReadsAsTheFile(_ cell: Cell) throws {
        guard case let (box, _, file)? = try Sandbox.generated(cell.domain, version: cell.version, records: 5) else { return }
        for name in ["d.jsonl", "d.xml", "d.tar"] {
            let made = try box.ferry(["convert", file, "-o", name, "--quiet"])
            try #require(made.status == 0, "\(cell) \(name): \(made.stderr)")
        }
        for input in [file, "d.jsonl", "d.xml", "d.tar"] {
            // Without `--to` the output takes the input's format, which is what looked at its
            // bytes (a bundle goes to standard output in no format: `--to` only).
            let to = input == "d.tar" ? [["--to", "jsonl"]] : [[], ["--to", "jsonl"]]
            for command in to.flatMap({ [["head", "-n", "2"] + $0, ["convert", "--limit", "2", "-o", "-"] + $0] }) {
                let fromFile = try box.ferry([command[0], input] + command.dropFirst())
                let fromPipe = try box.ferry([command[0], "/dev/stdin"] + command.dropFirst(), pipedFile: input)
                let context = "\(cell) \(command[0]) \(input)"
                #expect(fromFile.status == 0, "\(context): \(fromFile.stderr)")
                #expect(fromPipe.status == fromFile.status, "\(context): \(fromPipe.stderr)")
                #expect(fromPipe.stdout == fromFile.stdout, "\(context)")
                #expect(fromPipe.stderr == fromFile.stderr.replacingOccurrences(of: input + ":", with: "/dev/stdin:"), "\(context)")
            }
        }
    }
}
