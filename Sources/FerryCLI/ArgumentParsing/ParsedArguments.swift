/// What the parser found on the command line, looked up by option key (`output` for `-o`).
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    /// The name each option was given by, as typed (`-n` or `--records`), so that a message about
    /// its value names what the user wrote.
    var spellings: [String: String] = [:]

    /// The option's name as the user typed it (`-n`), else its long name (`--records`).
    public func name(_ key: String) -> String { spellings[key] ?? "--" + key }

    /// True when the flag was given.
    public func flag(_ key: String) -> Bool { flags.contains(key) }

    /// The last value of a single-value option, or nil.
    public func value(_ key: String) -> String? { values[key]?.last }

    /// Every value of a repeating option, in order.
    public func values(_ key: String) -> [String] { values[key] ?? [] }

    /// The value parsed as an integer.
    /// - Throws: `UsageError` naming the option when it is not an integer in `range`.
    public func integer(_ key: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(name(key)) expects a whole number\(Self.describe(range)), not '\(text)'")
        }
        return number
    }

    /// " from 1", " from 1 to 256", " up to 9" or "": the bounds `range` sets.
    static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound > Int.min, range.upperBound < Int.max) {
        case (true, true): " from \(range.lowerBound) to \(range.upperBound)"
        case (true, false): " from \(range.lowerBound)"
        case (false, true): " up to \(range.upperBound)"
        case (false, false): ""
        }
    }
}

/// A command line that does not fit the command: exit 2, with the usage line printed.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
