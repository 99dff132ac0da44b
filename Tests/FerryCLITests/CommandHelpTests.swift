import FerryTestSupport
import Foundation
import Testing

/// Each command's `--help` lists exactly the options it honours, and an option it does not
/// honour is a usage error (exit 2) naming it, not a flag silently ignored.
@Suite struct CommandHelpTests {
    /// The options every data command reads the input with.
    static let reading = [
        "--from", "--domain", "--schema-version", "--schema-free", "--collection", "--date-strategy", "--time-zone", "--strict",
        "--lenient", "--delimiter", "--no-header", "--null", "--encoding", "--infer-types", "--adapter-timeout", "--jobs",
        "--no-typed-path", "--max-errors", "--quiet", "--verbose",
    ]

    static func without(_ names: Set<String>) -> [String] { reading.filter { !names.contains($0) } }

    /// Command -> its long options in help order (`--help` last).
    static let honoured: [(String, [String])] = [
        ("convert", ["--output", "--to", "--to-version", "--csv-safe", "--compact", "--where", "--var", "--map", "--data-format",
                     "--limit", "--skip", "--sample", "--seed", "--select", "--report", "--report-file"] + reading),
        // A migration needs a domain: no schema-free records, no schema-free CSV typing.
        ("migrate", ["--to-version", "--output", "--to", "--dry-run", "--csv-safe", "--compact", "--data-format",
                     "--limit", "--skip", "--sample", "--seed", "--select", "--report", "--report-file"]
            + without(["--schema-free", "--infer-types"])),
        // Validation writes nothing: --lenient keeps nothing; typing schema-free cells changes no verdict.
        ("validate", ["--report", "--report-file"] + without(["--lenient", "--infer-types"])),
        // Inspect prints a description only: no diagnostics, summary or progress to limit or quiet.
        ("inspect", ["--json"] + without(["--lenient", "--infer-types", "--max-errors", "--quiet", "--verbose"])),
        ("run", ["--shard", "--jobs", "--var", "--report", "--report-file", "--max-errors", "--adapter-timeout", "--quiet"]),
        ("schema", ["--schema-version", "--as"]),
        ("formats", ["--json", "--adapter-timeout"]),
        // Both sides are read as a conversion reads them.
        ("diff", ["--report", "--as", "--ignore", "--where", "--var"] + reading),
        ("stats", ["--report", "--where", "--var", "--map", "--to-version"] + reading),
        ("head", ["--records", "--to", "--compact", "--where", "--var", "--skip", "--select"] + reading),
    ]

    @Test(arguments: honoured.map(\.0))
    func helpListsTheOptionsTheCommandHonours(command: String) throws {
        let run = try runFerry([command, "--help"])
        #expect(run.status == 0)
        let options = run.stdout.components(separatedBy: "\nOPTIONS:\n")[1].components(separatedBy: "\n\n")[0]
        let listed = options.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("  --"), trimmed.hasPrefix("--") else { return nil }
            return String(trimmed.prefix { $0 != " " && $0 != "," })
        }
        #expect(listed == Self.honoured.first { $0.0 == command }!.1 + ["--help"])
    }

    /// Every option another command has and this one does not is refused before anything is read.
    @Test(arguments: honoured.map(\.0))
    func anOptionTheCommandDoesNotHonourIsAUsageError(command: String) throws {
        let box = try Sandbox()
        try box.write("in.json", GeneratedBackups.json(domain: "notes", version: 2))
        try box.write("p.json", #"{"inputs": ["in.json"], "steps": []}"#)
        let own = Set(Self.honoured.first { $0.0 == command }!.1)
        let others = Set(Self.honoured.flatMap(\.1)).subtracting(own).sorted()
        #expect(!others.isEmpty)
        for option in others {
            let positional: [String] = switch command {
            case "run": ["p.json"]
            case "schema": ["notes"]
            case "formats": []
            case "diff": ["in.json", "in.json"]
            default: ["in.json"]
            }
            let extra = command == "migrate" ? ["--to-version", "2"] : []
            // A value-taking option is given one, so the refusal is about the option itself.
            let run = try box.ferry([command] + positional + extra + [option, "x"])
            #expect(run.status == 2, "\(command) \(option)")
            #expect(run.stderrLines.first?.hasPrefix("ferry \(command): error: unknown option '\(option)'") == true, "\(command) \(option): \(run.stderr)")
        }
    }

    /// The commands with an HTML report list `html` among their `--report` values, with the help
    /// line each command prints.
    @Test(arguments: [
        ("validate", "Also write a report: text (default), json, junit, github, html."),
        ("convert", "Also write a report: text (default), json, junit, github, html."),
        ("migrate", "Also write a report: text (default), json, junit, github, html."),
        ("run", "Report format: text (default), json, junit, github, html."),
        ("diff", "text (default), json or html."),
        ("stats", "text (default: a table per collection), json, or html (a page with charts)."),
    ])
    func reportHelpListsHTML(command: String, help: String) throws {
        let run = try runFerry([command, "--help"])
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("  --report FORMAT") }
        #expect(line?.hasSuffix("  " + help) == true, "\(line ?? "no --report line")")
    }
}
