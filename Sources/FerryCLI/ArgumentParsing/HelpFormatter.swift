/// Builds `--help` text from a command's declaration, so help and parsing never disagree.
public enum HelpFormatter {
    /// The usage line: `ferry convert INPUT... [options]`.
    public static func usage(_ configuration: CommandConfiguration) -> String {
        var line = "ferry \(configuration.name)"
        if !configuration.arguments.isEmpty { line += " \(configuration.arguments)" }
        return line + " [options]"
    }

    /// The ENVIRONMENT section of a command that may write `SOURCE_DATE_EPOCH`'s time as `stamps`
    /// (DESIGN.md "Limits": the one variable of the environment that changes what is written).
    static func sourceDateEpoch(_ stamps: String) -> String {
        let text = "Whole seconds since 1970-01-01T00:00:00Z, 0 to 253402300799 (9999-12-31T23:59:59Z): the time "
            + "written as " + stamps + ", in place of the clock's, so that the output is reproducible; any other "
            + "value, an empty one included, is a usage error."
        let name = "  SOURCE_DATE_EPOCH  "
        let lines = wrapped(text, width: 100 - name.count)
        return "ENVIRONMENT:\n" + lines.enumerated().map { index, line in
            (index == 0 ? name : String(repeating: " ", count: name.count)) + line
        }.joined(separator: "\n")
    }

    /// `text`'s words in lines of at most `width` characters (a longer word alone on its line).
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The full help: abstract, usage, options with their help, discussion, the environment it
    /// reads when it may write `SOURCE_DATE_EPOCH`'s time as `sourceDateEpochStamps`
    /// (`FerryCommand.sourceDateEpochStamps`), the exit codes the command can give.
    public static func help(_ configuration: CommandConfiguration, sourceDateEpochStamps: String? = nil) -> String {
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
        if let stamps = sourceDateEpochStamps { out += "\n" + sourceDateEpoch(stamps) + "\n" }
        return out + "\n" + ExitCodes.help(configuration) + "\n"
    }
}
