import FerryTestSupport
import Foundation
import Testing

/// Standard output is an output like a file: a conversion or migration to it that fails (without
/// `--lenient`) writes nothing there, however many records came before the error, so that the
/// summary's "nothing was written" holds; `--lenient` writes the valid records, the same bytes as
/// its output file. Every domain, JSON document and JSON Lines inputs, each output format that
/// can go to standard output, `--jobs 1` and `2`.
@Suite struct HeldStandardOutputCLITests {
    /// Records a collection: enough that the records before the error fill more than the 256 KiB a
    /// writer buffers, which a run that streamed would already have written out.
    static let count = 1500

    static let cells: [(String, String)] = GeneratedBackups.domains.flatMap { domain in ["json", "jsonl"].map { (domain, $0) } }

    /// The commands run on each input: convert to each format, and migrate to V2 (its output in the
    /// input's format).
    static let commands: [[String]] = [
        ["convert", "--to", "jsonl"], ["convert", "--to", "json"], ["convert", "--to", "xml"], ["migrate", "--to-version", "2"],
    ]

    /// `document` with the first record of its last collection written again at its end: a
    /// duplicate id, found only after every other record was read.
    static func withLateDuplicate(_ document: String) throws -> String {
        let open = try #require(document.range(of: ": [\n    ", options: .backwards))
        let rest = document[open.upperBound...]
        let first = rest[..<(rest.range(of: ",\n    ")?.lowerBound ?? rest.endIndex)]
        let end = try #require(document.range(of: "\n  ]\n}\n", options: .backwards))
        return document[..<end.lowerBound] + ",\n    " + first + document[end.lowerBound...]
    }

    @Test(arguments: cells)
    func aFailedRunLeavesStandardOutputEmpty(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let valid = GeneratedBackups.json(domain: domain, version: 1, count: Self.count)
        try box.write("good.json", valid)
        try box.write("bad.json", try Self.withLateDuplicate(valid))
        if format == "jsonl" {
            for name in ["good", "bad"] {
                #expect(try box.ferry(["convert", "\(name).json", "--to", "jsonl", "--schema-free", "-o", "\(name).jsonl", "--quiet"]).status == 0)
            }
        }
        for command in Self.commands {
            for jobs in ["1", "2"] {
                let label = "\(domain) \(format) \(command.joined(separator: " ")) --jobs \(jobs)"
                let failed = try box.ferry([command[0], "bad.\(format)"] + command.dropFirst() + ["--jobs", jobs])
                #expect(failed.status == 1, "\(label)")
                #expect(failed.stdout.isEmpty, "\(label): \(failed.stdout.utf8.count) bytes on standard output")
                #expect(failed.errors.count == 1, "\(label): \(failed.errors)")
                #expect(failed.errors.first?.hasSuffix("[duplicate-id]") == true, "\(label): \(failed.errors)")
                #expect(failed.diagnostics.last == "bad.\(format): note: nothing was written because of the errors above; "
                    + "--lenient writes the valid records [assumption]", "\(label)")

                // --lenient and a valid input: standard output holds what the output file holds.
                for (input, lenient) in [("bad", ["--lenient"]), ("good", [])] {
                    let ext = command[0] == "migrate" ? format : command[2]
                    try? box.remove("out.\(ext)")
                    let toFile = try box.ferry([command[0], "\(input).\(format)"] + command.dropFirst() + lenient
                        + ["--jobs", jobs, "-o", "out.\(ext)"])
                    let toStandardOutput = try box.ferry([command[0], "\(input).\(format)"] + command.dropFirst() + lenient + ["--jobs", jobs])
                    #expect(toStandardOutput.status == toFile.status, "\(label) \(input)")
                    let written = try box.text("out.\(ext)")
                    #expect(written.utf8.count > 256 * 1024, "\(label) \(input)")
                    #expect(toStandardOutput.stdout == written, "\(label) \(input)")
                }
            }
        }
    }
}
