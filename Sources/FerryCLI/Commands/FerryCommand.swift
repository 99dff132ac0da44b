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
    /// True when the command may write `SOURCE_DATE_EPOCH`'s time (a bundle's `createdAt`, an
    /// HTML report's date): a malformed value is then a usage error before anything is read,
    /// whatever this run writes, as the reproducible-builds specification asks.
    static var readsSourceDateEpoch: Bool { get }
}

extension FerryCommand {
    static var readsSourceDateEpoch: Bool { false }
}
