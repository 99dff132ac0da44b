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
        "--max-errors", "--quiet", "--verbose",
    ]

    static func without(_ names: Set<String>) -> [String] { reading.filter { !names.contains($0) } }

    /// Command -> its long options in help order (`--help` last).
    static let honoured: [(String, [String])] = [
        ("convert", ["--output", "--to", "--to-version", "--csv-safe", "--compact", "--where", "--var", "--map", "--data-format",
                     "--limit", "--skip", "--sample", "--seed", "--select", "--report", "--report-file"] + reading),
        // A migration needs a domain: no schema-free records, no schema-free CSV typing.
        ("migrate", ["--to-version", "--output", "--to", "--dry-run", "--csv-safe", "--compact", "--where", "--var", "--data-format",
                     "--limit", "--skip", "--sample", "--seed", "--select", "--report", "--report-file"]
            + without(["--schema-free", "--infer-types"])),
        // Validation writes nothing: --lenient keeps nothing; it migrates nothing: no lossy step for
        // --strict; typing schema-free cells changes no verdict.
        ("validate", ["--report", "--report-file"] + without(["--lenient", "--strict", "--infer-types"])),
        // Inspect prints a description only: no diagnostics, summary or progress to limit or quiet;
        // it migrates nothing.
        ("inspect", ["--json"] + without(["--lenient", "--strict", "--infer-types", "--max-errors", "--quiet", "--verbose"])),
        ("run", ["--shard", "--jobs", "--var", "--report", "--report-file", "--max-errors", "--adapter-timeout", "--quiet"]),
        ("schema", ["--schema-version", "--as"]),
        ("formats", ["--json", "--adapter-timeout"]),
        // Both sides are read as a conversion reads them.
        ("diff", ["--report", "--as", "--ignore", "--where", "--var"] + reading),
        ("stats", ["--report", "--report-file", "--where", "--var", "--map", "--to-version"] + reading),
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
            let takers: [String] = Self.honoured.filter { $0.1.contains(option) }.map { $0.0 }.sorted()
            #expect(!takers.isEmpty && !takers.contains(command))
            let list: String = takers.count == 1 ? takers[0] : takers.dropLast().joined(separator: ", ") + " and " + (takers.last ?? "")
            let verb = takers.count == 1 ? "takes" : "take"
            let expected = "ferry \(command): error: unknown option '\(option)' for '\(command)' (\(list) \(verb) it)"
            #expect(run.stderrLines.first == expected, "\(command) \(option): \(run.stderr)")
        }
    }

    /// Command -> the exit codes it can give (DESIGN.md "Exit codes"): every one for the commands
    /// that read, migrate and write; `inspect` counts problems in the data (no 1); `schema` reads
    /// no input (no 1, 3); `formats` neither reads nor knows a domain (no 1, 3, 4). Every command
    /// writes to standard output, which may fail (5).
    static let exitCodes: [(String, [Int32])] = [
        ("convert", [0, 1, 2, 3, 4, 5, 70]), ("migrate", [0, 1, 2, 3, 4, 5, 70]), ("validate", [0, 1, 2, 3, 4, 5, 70]),
        ("inspect", [0, 2, 3, 4, 5, 70]), ("run", [0, 1, 2, 3, 4, 5, 70]), ("schema", [0, 2, 4, 5, 70]), ("formats", [0, 2, 5, 70]),
        ("diff", [0, 1, 2, 3, 4, 5, 70]), ("stats", [0, 1, 2, 3, 4, 5, 70]), ("head", [0, 1, 2, 3, 4, 5, 70]),
    ]

    /// Each exit code's line in `--help`.
    static let meanings: [Int32: String] = [
        0: "  0   done (warnings allowed)", 1: "  1   invalid data, or lossy under --strict",
        2: "  2   usage: a bad flag, argument or filter", 3: "  3   an input unreadable or malformed",
        4: "  4   unknown format, domain or version (no down-migration)", 5: "  5   the output is not writable",
        70: "  70  internal error",
    ]

    /// The lines a command gives its own meaning: `validate` has no `--strict` (nothing lossy to
    /// fail on), and `diff`'s 0 and 1 say whether the inputs differ.
    static let ownMeanings: [String: [Int32: String]] = [
        "validate": [1: "  1   invalid data"],
        "diff": [0: "  0   the same (warnings allowed)", 1: "  1   different, or an input with invalid records (then nothing is compared)"],
    ]

    /// `--help` ends with the exit codes the command can give, and no others, each with what it
    /// means for the command; a command that reads inputs says that for several the highest wins.
    @Test(arguments: exitCodes.map(\.0))
    func helpListsTheExitCodesTheCommandCanGive(command: String) throws {
        let run = try runFerry([command, "--help"])
        #expect(run.status == 0)
        let codes = Self.exitCodes.first { $0.0 == command }!.1
        let header = codes.contains(3) ? "EXIT CODES (for several inputs the highest wins):" : "EXIT CODES:"
        let section = run.stdout.components(separatedBy: "\nEXIT CODES").dropFirst().joined()
        let lines = codes.map { Self.ownMeanings[command]?[$0] ?? Self.meanings[$0]! }
        #expect("EXIT CODES" + section == ([header] + lines).joined(separator: "\n") + "\n", "\(command)")
    }

    /// A domain, format or schema version of the command line that names nothing known is the
    /// command's error, named as its usage errors are (`ferry schema: error: ...`), with its code
    /// and exit 4.
    @Test(arguments: [
        (["schema", "notes", "--schema-version", "3"], "ferry schema: error: notes has no schema version 3 (known: 1, 2) [unknown-version]"),
        (["schema", "pet-story", "--schema-version", "9"], "ferry schema: error: pet-story has no schema version 9 (known: 1, 2) [unknown-version]"),
        (["schema", "vocabulary", "--schema-version", "3", "--as", "xsd"],
         "ferry schema: error: vocabulary has no schema version 3 (known: 1, 2) [unknown-version]"),
        (["schema", "wine"], "ferry schema: error: unknown domain 'wine'; domains: notes, pet-story, vocabulary [unknown-domain]"),
        (["validate", "x.json", "--domain", "wine"], "ferry validate: error: unknown domain 'wine'; domains: notes, pet-story, vocabulary [unknown-domain]"),
        (["convert", "x.json", "--to", "yaml"], "ferry convert: error: unknown output format 'yaml'; `ferry formats` lists them [unknown-format]"),
    ])
    func anUnknownNameOnTheCommandLineIsTheCommandsError(arguments: [String], error: String) throws {
        let run = try runFerry(arguments)
        #expect(run.stderr == error + "\n", "\(arguments)")
        #expect(run.stdout == "", "\(arguments)")
        #expect(run.status == 4, "\(arguments)")
    }

    /// `--lenient` writes nothing in `stats` and `diff`: their help says what it does there.
    @Test(arguments: [
        ("stats", "Fix what migration (--to-version) can and count those records too."),
        ("diff", "Compare the valid records of an input that has invalid ones; fix what migration can."),
        ("convert", "Write the valid records and report the rest; fix what migration can."),
    ])
    func lenientHelpSaysWhatItDoesInTheCommand(command: String, help: String) throws {
        let run = try runFerry([command, "--help"])
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("  --lenient ") }
        #expect(line.map { String($0.dropFirst("  --lenient".count).drop { $0 == " " }) } == help, "\(line ?? "no --lenient line")")
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

    /// The commands that may write a time (a bundle's, an HTML report's) say in `--help`, before
    /// the exit codes, that `SOURCE_DATE_EPOCH` sets it and which times each writes; the others
    /// say nothing of it.
    @Test(arguments: honoured.map(\.0))
    func helpNamesSourceDateEpochWhereItIsRead(command: String) throws {
        let run = try runFerry([command, "--help"])
        let bundles = """

            ENVIRONMENT:
              SOURCE_DATE_EPOCH  Whole seconds since 1970-01-01T00:00:00Z, 0 to 253402300799
                                 (9999-12-31T23:59:59Z): the time written as a bundle's createdAt and its
                                 members' times, or an HTML report's date, in place of the clock's, so that the
                                 output is reproducible; any other value, an empty one included, is a usage
                                 error.

            EXIT CODES
            """
        let reports = """

            ENVIRONMENT:
              SOURCE_DATE_EPOCH  Whole seconds since 1970-01-01T00:00:00Z, 0 to 253402300799
                                 (9999-12-31T23:59:59Z): the time written as an HTML report's date, in place of
                                 the clock's, so that the output is reproducible; any other value, an empty one
                                 included, is a usage error.

            EXIT CODES
            """
        switch command {
        case "convert", "migrate", "run": #expect(run.stdout.contains(bundles), "\(command)")
        case "validate", "stats", "diff": #expect(run.stdout.contains(reports), "\(command)")
        default: #expect(!run.stdout.contains("SOURCE_DATE_EPOCH"), "\(command)")
        }
        #expect(run.stdout.components(separatedBy: "SOURCE_DATE_EPOCH").count <= 2, "\(command)")
    }
}
