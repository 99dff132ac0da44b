/// One problem found in the input, with its position: what validation collects and what the CLI
/// prints compiler-style (`FILE[:MEMBER]:LINE:COL: error: POINTER: MESSAGE (id "ID") [code]`, DESIGN.md
/// "Errors").
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
    /// The other fields a check across fields compared, beside the one it is reported at
    /// (`birthDate` after the day of `createdAt`: `createdAt`), as pointers from the dataset root
    /// like `location.field`; empty for a check of one field. Not printed: a record with errors of
    /// its own holds stand-in values in the fields that failed to read, and a check that compared
    /// one of those says nothing about the data, so it is not reported.
    public var comparedFields: [JSONPointer] = []

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

    /// The compiler-style line, `FILE[:MEMBER][:LINE[:COL]]: SEVERITY: [POINTER: ]MESSAGE[ (id "ID")] [code]`:
    /// `notes.json:14:7: error: /wineTastingNotes/0/rating: rating 7 is out of range 0...5 (id "w1") [out-of-range]`,
    /// followed by the excerpt's lines, each indented by four spaces, when there is one. Every
    /// part is escaped (`DiagnosticText.escaped`), so the line is always one line whatever the
    /// input holds, and each excerpt line stays one line too.
    public var description: String {
        var line = headPosition + ": \(severity.rawValue): " + body + " [\(code.rawValue)]"
        guard let excerpt else { return line }
        for part in excerpt.split(separator: "\n", omittingEmptySubsequences: false) {
            line += "\n    " + DiagnosticText.escaped(String(part))
        }
        return line
    }

    /// The position part of the line, escaped: the location's prefix, or `ferry` when it has none.
    public var headPosition: String {
        let prefix = location.description
        return prefix.isEmpty ? "ferry" : prefix
    }

    /// The line after the severity, escaped, without the code: the field's JSON Pointer from the
    /// dataset root when the diagnostic is about a field of a record (`/words/3/studyState: `),
    /// the message, and the record's id when it has one (` (id "w-503")`). The GitHub and JUnit
    /// reports carry this same text.
    public var body: String {
        var text = ""
        if let field = location.field, !field.tokens.isEmpty {
            text += DiagnosticText.escaped(field.description) + ": "
        }
        text += DiagnosticText.escaped(message)
        // A message that quotes the id already (`duplicate id "b-1"`) does not repeat it.
        if let id = location.recordID, !DiagnosticText.contains(message, DiagnosticText.quoted(id)) {
            text += " (id " + DiagnosticText.quoted(id) + ")"
        }
        return text
    }
}
