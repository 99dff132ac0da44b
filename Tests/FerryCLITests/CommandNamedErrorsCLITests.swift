import FerryTestSupport
import Foundation
import Testing

/// An error of the command line that stands at no input is the command's: `ferry convert:
/// error: ...`, as its usage errors and `--to yaml` say it, one line, no summary, nothing read.
@Suite struct CommandNamedErrorsCLITests {
    /// A bundle (tar or folder, any data format inside) asked for on standard output is refused
    /// before it is read: the tar here is cut inside its data, and nothing says so.
    @Test(arguments: GeneratedDocuments.domains, ["json", "jsonl", "csv", "xml"])
    func aBundleToStandardOutputIsRefusedBeforeItIsRead(_ domain: String, _ dataFormat: String) throws {
        let box = try Sandbox()
        try box.write("in.json", GeneratedBackups.json(domain: domain, version: 1))
        for output in ["b.tar", "b/"] {
            let made = try box.ferry(["convert", "in.json", "--data-format", dataFormat, "-o", output, "-q"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let tar = try box.bytes("b.tar")
        let member = try #require(TarEditor(bytes: tar).members.last { $0.path.hasPrefix("data/") })
        try box.write("cut.tar", bytes: Array(tar[..<(member.dataOffset + member.size / 2)]))
        let refusal = "error: a bundle cannot go to standard output; name it with -o FILE.tar or -o DIR/ [usage]"
        for arguments in [["convert", "cut.tar", "-o", "-"], ["convert", "cut.tar"], ["convert", "b/", "-o", "-"],
                          ["migrate", "cut.tar", "--to-version", "2", "-o", "-"], ["migrate", "b", "--to-version", "2"],
                          ["convert", "-", "--from", "tar", "--lenient"], ["convert", "in.json", "--to", "tar", "-o", "-"]] {
            let run = try box.ferry(arguments, stdinFile: arguments[1] == "-" ? "cut.tar" : nil)
            #expect(run.stderrLines == ["ferry \(arguments[0]): " + refusal], "\(domain) \(dataFormat): \(arguments)")
            #expect(run.stdout == "" && run.status == 2, "\(domain) \(dataFormat): \(arguments)")
        }
    }

    /// An output that is the input (by name, `./` or a hard link) is the command's error too.
    @Test(arguments: GeneratedDocuments.domains, ["json", "jsonl", "xml", "tar"])
    func anOutputThatIsTheInputIsTheCommandsError(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        try box.write("in.json", GeneratedBackups.json(domain: domain, version: 1))
        if format != "json" {
            let made = try box.ferry(["convert", "in.json", "-o", "in.\(format)", "-q"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let input = "in.\(format)"
        for (command, output) in [(["convert"], input), (["migrate", "--to-version", "2"], "./" + input)] {
            let run = try box.ferry(command + [input, "-o", output])
            #expect(run.stderrLines == ["ferry \(command[0]): error: the output '\(output)' is the input '\(input)'; inputs are never modified [usage]"],
                    "\(domain) \(format)")
            #expect(run.status == 2)
        }
    }

    /// `--from` and `--encoding` naming nothing known are the command's errors too, whatever the
    /// input, for every command that takes them: `--from yaml` as `--to yaml` is (`unknown-format`,
    /// exit 4), `--encoding klingon` a usage error (exit 2, with the usage line). A name some
    /// format knows stays the input's business (latin1 on JSON, Shift_JIS on XML).
    @Test(arguments: GeneratedDocuments.domains, ["json", "jsonl", "csv", "xml", "tar"])
    func anUnknownInputFormatOrEncodingIsTheCommandsError(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        try box.write("in.json", GeneratedBackups.json(domain: domain, version: 1))
        // CSV: a folder of one file per collection.
        let input = format == "json" ? "in.json" : format == "csv" ? "csv/" : "in.\(format)"
        if format != "json" {
            let made = try box.ferry(["convert", "in.json", "--to", format, "-o", input, "-q"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let commands: [[String]] = [["convert", input, "-o", "out.jsonl"], ["migrate", input, "--to-version", "2", "-o", "out.jsonl"],
                                    ["validate", input], ["inspect", input], ["stats", input], ["head", input], ["diff", input, input]]
        for command in commands {
            let name = command[0]
            let from = try box.ferry(command + ["--from", "yaml"])
            #expect(from.stderrLines == ["ferry \(name): error: unknown input format 'yaml'; `ferry formats` lists them [unknown-format]"],
                    "\(domain) \(format) \(name)")
            #expect(from.stdout == "" && from.status == 4, "\(domain) \(format) \(name)")
            let encoding = try box.ferry(command + ["--encoding", "klingon"])
            // One line, as every value that names nothing known (no usage lines after it).
            #expect(encoding.stderrLines == [
                "ferry \(name): error: unknown encoding 'klingon'; use utf-8, utf-16, utf-16le, utf-16be, latin1 or windows-1252 "
                    + "(XML also takes the encodings libxml2 knows, such as Shift_JIS) [usage]",
            ], "\(domain) \(format) \(name)")
            #expect(encoding.stdout == "" && encoding.status == 2, "\(domain) \(format) \(name)")
            #expect(!box.exists("out.jsonl"))
        }
        // Names a format knows pass the command line: what they do to the input is the input's.
        for known in ["latin1", "Shift_JIS"] {
            let run = try box.ferry(["validate", input, "--encoding", known])
            #expect(!run.stderr.contains("ferry validate: error:"), "\(domain) \(format) \(known): \(run.stderr)")
        }
    }
}
