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
}
