import FerryCore

/// A filter that cannot be used: a syntax error, an unknown key, an operator that does not fit a
/// field's type, a bad regular expression, an unset variable. A usage error (exit 2, DESIGN.md
/// "Exit codes").
///
/// Positions are 1-based columns in Unicode scalars of the filter text, and a length, so a front
/// end can draw a caret under the offending part (`caretLine(for:)`).
public struct FilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, and where it helps, what would fit (`unknown key 'ratng'; did you mean 'rating'? ...`).
    public var message: String
    /// 1-based column, in Unicode scalars, of the offending part.
    public var column: Int
    /// Length, in Unicode scalars, of the offending part (at least 1).
    public var length: Int

    /// Creates an error at a column with a length.
    public init(_ message: String, column: Int, length: Int = 1) {
        self.message = message
        self.column = max(1, column)
        self.length = max(1, length)
    }

    /// Creates an error covering a source range.
    public init(_ message: String, at range: FilterSourceRange) {
        self.init(message, column: range.column, length: range.length)
    }

    /// The range the error covers.
    public var range: FilterSourceRange { FilterSourceRange(column: column, length: length) }

    /// `column N: message`.
    public var description: String { "column \(column): \(message)" }

    /// Two lines: the filter text, escaped as every diagnostic is (`DiagnosticText.escaped`: a
    /// line break or control in the text is shown as `\n`, `\u0007`, so the text stays one line
    /// and cannot forge one), then `^~~~` under the offending part, padded by the width each
    /// character before it takes once escaped, so the caret stays under it. No trailing newline.
    /// - Parameter source: the filter text the error was found in.
    public func caretLine(for source: String) -> String {
        var marker = ""
        var index = 1
        for scalar in source.unicodeScalars {
            guard index < column else { break }
            let width = DiagnosticText.escaped(String(scalar)).unicodeScalars.count
            marker += String(repeating: " ", count: width)
            index += 1
        }
        while index < column {
            marker += " "
            index += 1
        }
        marker += "^" + String(repeating: "~", count: length - 1)
        return DiagnosticText.escaped(source) + "\n" + marker
    }

    /// The error as a usage diagnostic: `filter:1:COL: error: MESSAGE [usage]`.
    /// - Parameter file: the name given as the diagnostic's file (`--where` by default).
    public func diagnostic(file: String = "--where") -> Diagnostic {
        .error(.usage, message, at: SourceLocation(file: file, line: 1, column: column))
    }
}
