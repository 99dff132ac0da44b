/// Builds `--help` text from a command's declaration, so help and parsing never disagree.
public enum HelpFormatter {
    /// The usage line: `ferry convert INPUT... [options]`.
    public static func usage(_ configuration: CommandConfiguration) -> String {
        var line = "ferry \(configuration.name)"
        if !configuration.arguments.isEmpty { line += " \(configuration.arguments)" }
        return line + " [options]"
    }

    /// The full help: abstract, usage, options with their help, discussion, the exit codes the
    /// command can give.
    public static func help(_ configuration: CommandConfiguration) -> String {
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
        return out + "\n" + ExitCodes.help(configuration) + "\n"
    }
}
