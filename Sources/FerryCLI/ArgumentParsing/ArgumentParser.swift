import FerryCore

/// Parses arguments against a `CommandConfiguration`: `--name value`, `--name=value`, `-o value`,
/// `-ovalue` (getopt's form: `-j2`), `-o=value` (as the long form takes it: `-j=2`; a value
/// starting with `=` goes after a space: `-o '=x'`), flags, `--` to end options, and `-` as a
/// positional (standard input or output).
public enum ArgumentParser {
    /// Thrown (and caught by the entry point) when `--help` is given.
    public struct HelpRequested: Error, Sendable {}

    /// - Throws: `UsageError` for an unknown option (with the nearest known name), a missing value,
    ///   a one-value option given twice, or a positional count outside the command's range; `HelpRequested` for `--help`.
    public static func parse(_ arguments: [String], for configuration: CommandConfiguration) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2, !configuration.options.contains(where: { $0.names.contains(argument) }),
                      configuration.options.contains(where: { $0.kind != .flag && $0.names.contains(String(argument.prefix(2))) })
            {
                // A short option's value may follow it in the same argument, as getopt takes it
                // (`-j2`), or after `=` as the long form's does (`-j=2`).
                name = String(argument.prefix(2))
                let rest = argument.dropFirst(2)
                inlineValue = String(rest.first == "=" ? rest.dropFirst() : rest)
            }
            guard let spec = configuration.options.first(where: { $0.names.contains(name) }) else {
                throw UsageError(unknownOptionMessage(name, configuration: configuration))
            }
            if spec.key == "help" { throw HelpRequested() }
            parsed.spellings[spec.key] = name
            switch spec.kind {
            case .flag:
                if inlineValue != nil { throw UsageError("\(name) takes no value") }
                parsed.flags.insert(spec.key)
            case .single, .repeating:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value (\(spec.valueName))") }
                    value = arguments[index]
                    index += 1
                }
                // A second value of a one-value option would silently replace the first (a second -o).
                if spec.kind == .single, let first = parsed.values[spec.key]?.first {
                    throw UsageError("\(name) given twice ('\(first)', then '\(value)'); give it once")
                }
                parsed.values[spec.key, default: []].append(value)
            }
        }
        let count = parsed.positionals.count
        if !configuration.argumentCount.contains(count) {
            if count < configuration.argumentCount.lowerBound {
                throw UsageError("missing \(configuration.arguments)")
            }
            throw UsageError("too many arguments: '\(parsed.positionals[configuration.argumentCount.upperBound])'")
        }
        return parsed
    }

    private static func unknownOptionMessage(_ name: String, configuration: CommandConfiguration) -> String {
        // An option of other commands (`validate --lenient`): say so, rather than suggest a near name.
        var takers: [String] = []
        for command in FerryMain.commands where command.configuration.options.contains(where: { $0.names.contains(name) }) {
            takers.append(command.configuration.name)
        }
        takers.sort()
        if let last = takers.last {
            let list = takers.count == 1 ? last : takers.dropLast().joined(separator: ", ") + " and " + last
            return "unknown option '\(name)' for '\(configuration.name)' (\(list) \(takers.count == 1 ? "takes" : "take") it)"
        }
        if let nearest = EditDistance.suggestion(for: name, among: configuration.options.flatMap(\.names)) {
            return "unknown option '\(name)'; did you mean '\(nearest)'?"
        }
        return "unknown option '\(name)'"
    }
}
