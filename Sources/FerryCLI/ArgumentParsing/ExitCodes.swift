import FerryCore

/// The exit codes of DESIGN.md "Exit codes" as `--help` prints them: each command lists the ones
/// it can give (`CommandConfiguration.exitCodes`), `ferry --help` all of them.
enum ExitCodes {
    /// Every exit code with its meaning, in numeric order.
    static let meanings: [(status: ExitStatus, meaning: String)] = [
        (.success, "done (warnings allowed)"),
        (.invalidData, "invalid data, or lossy under --strict"),
        (.usage, "usage: a bad flag, argument or filter"),
        (.malformedInput, "an input unreadable or malformed"),
        (.unknown, "unknown format, domain or version (no down-migration)"),
        (.outputUnwritable, "the output is not writable"),
        (.internalError, "internal error"),
    ]

    /// Every exit code.
    static let all = meanings.map(\.status)

    /// The `EXIT CODES` section listing `statuses` (in numeric order, whatever their order here),
    /// each with its meaning in `meanings` unless `overrides` gives another.
    /// Where a command reads inputs (it can give 3), several of them may fail differently (a folder
    /// of datasets is several): the header says the highest wins.
    static func help(_ statuses: [ExitStatus], overrides: [ExitStatus: String] = [:]) -> String {
        var out = statuses.contains(.malformedInput) ? "EXIT CODES (for several inputs the highest wins):" : "EXIT CODES:"
        for (status, meaning) in meanings where statuses.contains(status) {
            out += "\n  " + String(status.rawValue).padding(to: 4) + (overrides[status] ?? meaning)
        }
        return out
    }

    /// A command's `EXIT CODES` section, with its own meanings (`exitMeanings`) where it has them.
    static func help(_ configuration: CommandConfiguration) -> String {
        help(configuration.exitCodes, overrides: configuration.exitMeanings)
    }
}
