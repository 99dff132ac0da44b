/// One problem found in the input, with its position: what validation collects and what the CLI
/// prints compiler-style (`FILE[:MEMBER]:LINE:COL: error: MESSAGE [code]`, DESIGN.md "Errors").
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is. Errors fail the run (exit 1 or the code's own status); warnings and notes do not.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var code: Code
    /// What went wrong, and where it helps, what to do about it. No position in it: that is `location`.
    public var message: String
    public var location: SourceLocation
    /// Lines of the input that show where the problem is, with a caret line under it (a filter
    /// expression: `ratng > 4` then `^~~~~`); printed below the diagnostic line.
    public var excerpt: String?

    public init(
        _ severity: Severity, _ code: Code, _ message: String, at location: SourceLocation = SourceLocation(),
        excerpt: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.excerpt = excerpt
    }

    /// An error diagnostic.
    public static func error(_ code: Code, _ message: String, at location: SourceLocation = SourceLocation()) -> Diagnostic {
        Diagnostic(.error, code, message, at: location)
    }

    /// A warning diagnostic.
    public static func warning(_ code: Code, _ message: String, at location: SourceLocation = SourceLocation()) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location)
    }

    /// A note (information such as the date strategy assumed).
    public static func note(_ code: Code, _ message: String, at location: SourceLocation = SourceLocation()) -> Diagnostic {
        Diagnostic(.note, code, message, at: location)
    }

    /// The exit status this diagnostic asks for: 0 for warnings and notes, else the code's status.
    public var exitStatus: ExitStatus { severity == .error ? code.exitStatus : .success }

    /// The compiler-style line: `notes.json:14:7: error: rating 7 is out of range 0...5 [out-of-range]`,
    /// followed by the excerpt's lines, indented, when there is one.
    public var description: String {
        let prefix = location.description
        let line = (prefix.isEmpty ? "ferry" : prefix) + ": \(severity.rawValue): \(message) [\(code.rawValue)]"
        guard let excerpt else { return line }
        return line + excerpt.split(separator: "\n", omittingEmptySubsequences: false).map { "\n    " + $0 }.joined()
    }
}
