import FerryCore

/// A subcommand: declared options, checked arguments (`init` is swift-argument-parser's
/// `validate()`), then `run()`.
protocol FerryCommand {
    static var configuration: CommandConfiguration { get }
    /// Reads and checks the parsed arguments.
    /// - Throws: `UsageError` for arguments that do not fit together.
    init(_ arguments: ParsedArguments) throws
    /// Does the work and returns the exit status (DESIGN.md "Exit codes").
    func run() throws -> ExitStatus
    /// What the command may write `SOURCE_DATE_EPOCH`'s time as (`a bundle's createdAt`, `an HTML
    /// report's date`), for its `--help`; nil when it writes no time. A command that may write one
    /// refuses a malformed value as a usage error before anything is read, whatever this run
    /// writes, as the reproducible-builds specification asks.
    static var sourceDateEpochStamps: String? { get }
}

extension FerryCommand {
    static var sourceDateEpochStamps: String? { nil }

    /// True when the command may write `SOURCE_DATE_EPOCH`'s time (`sourceDateEpochStamps`).
    static var readsSourceDateEpoch: Bool { sourceDateEpochStamps != nil }
}
