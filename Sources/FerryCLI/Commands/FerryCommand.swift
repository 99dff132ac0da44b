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
}
