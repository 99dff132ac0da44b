import FerryCore

/// One option a command accepts, declared once and used both to parse and to print `--help`
/// (the shape of swift-argument-parser's `@Option` / `@Flag`).
public struct OptionSpec: Sendable {
    /// The kinds of option.
    public enum Kind: Sendable {
        /// A switch: present or absent (`--strict`).
        case flag
        /// Takes one value (`--to csv`, `--to=csv`); given twice, a usage error.
        case single
        /// Takes one value each time and may repeat (`--var A=1 --var B=2`).
        case repeating
    }

    /// The names, long first: `["--output", "-o"]`.
    public var names: [String]
    public var kind: Kind
    /// The placeholder shown in help: `FORMAT`.
    public var valueName: String
    /// One line for `--help`.
    public var help: String

    public init(_ names: [String], _ kind: Kind = .flag, value: String = "", help: String) {
        self.names = names
        self.kind = kind
        self.valueName = value
        self.help = help
    }

    /// The key parsed values are stored under: the first long name without dashes (`output`).
    public var key: String {
        let name = names.first { $0.hasPrefix("--") } ?? names[0]
        return String(name.drop { $0 == "-" })
    }
}

/// A command's declared interface: name, texts, options and positional arguments.
public struct CommandConfiguration: Sendable {
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// Paragraphs printed after the options in `--help`.
    public var discussion: String
    /// The positional arguments' placeholder (`INPUT...`).
    public var arguments: String
    /// The fewest and most positional arguments.
    public var argumentCount: ClosedRange<Int>
    public var options: [OptionSpec]
    /// The exit codes the command can give, listed at the end of its `--help` (DESIGN.md "Exit
    /// codes"; 70, an internal error, any command can give).
    public var exitCodes: [ExitStatus]
    /// What an exit code means for this command where the general meaning (`ExitCodes.meanings`)
    /// would mislead (`diff`'s 1: the inputs differ).
    public var exitMeanings: [ExitStatus: String]

    public init(
        name: String, abstract: String, discussion: String = "", arguments: String = "",
        argumentCount: ClosedRange<Int> = 0...0, options: [OptionSpec], exitCodes: [ExitStatus],
        exitMeanings: [ExitStatus: String] = [:]
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.argumentCount = argumentCount
        self.options = options + [OptionSpec(["--help", "-h"], help: "Show this help and exit.")]
        self.exitCodes = exitCodes
        self.exitMeanings = exitMeanings
    }
}
