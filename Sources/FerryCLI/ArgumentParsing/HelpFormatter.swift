/// Builds `--help` text from a command's declaration, so help and parsing never disagree.
public enum HelpFormatter {
    /// The usage line: `ferry convert INPUT... [options]`.
    public static func usage(_ configuration: CommandConfiguration) -> String {
        var line = "ferry \(configuration.name)"
        if !configuration.arguments.isEmpty { line += " \(configuration.arguments)" }
        return line + " [options]"
    }

    /// What `SOURCE_DATE_EPOCH` does, for the help of a command that reads it (DESIGN.md
    /// "Limits": the one variable of the environment that changes what is written).
    static let sourceDateEpoch = """
        ENVIRONMENT:
          SOURCE_DATE_EPOCH  Whole seconds since 1970-01-01T00:00:00Z, written where a clock's time would be
                             (a bundle's createdAt and members' times, an HTML report's date), so that the
                             output is reproducible; any other value, an empty one included, is a usage error.
        """

    /// The full help: abstract, usage, options with their help, discussion, the environment it
    /// reads when `readsSourceDateEpoch` (`FerryCommand.readsSourceDateEpoch`), the exit codes the
    /// command can give.
    public static func help(_ configuration: CommandConfiguration, readsSourceDateEpoch: Bool = false) -> String {
        var out = "OVERVIEW: \(configuration.abstract)\n\nUSAGE: \(usage(configuration))\n\nOPTIONS:\n"
        let rows = configuration.options.map { spec -> (String, String) in
            var left = spec.names.joined(separator: ", ")
            if spec.kind != .flag { left += " \(spec.valueName)" }
            return (left, spec.help)
        }
        let width = min(34, (rows.map(\.0.count).max() ?? 0) + 2)
        for (left, help) in rows {
            if left.count + 2 > width {
                out += "  \(left)\n" + String(repeating: " ", count: width + 2) + help + "\n"
            } else {
                out += "  " + left + String(repeating: " ", count: width - left.count) + help + "\n"
            }
        }
        if !configuration.discussion.isEmpty { out += "\n" + configuration.discussion + "\n" }
        if readsSourceDateEpoch { out += "\n" + sourceDateEpoch + "\n" }
        return out + "\n" + ExitCodes.help(configuration) + "\n"
    }
}
