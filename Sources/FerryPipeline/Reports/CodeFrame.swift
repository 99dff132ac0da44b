/// The source lines around a diagnostic's position, read back from its input file or bundle
/// member (`CodeFrameReader`), for a report that shows where a problem stands: up to
/// `CodeFrameReader.contextLines` lines either side of the diagnostic's line, every line cut to
/// the same window of columns so that the lines stay aligned.
public struct CodeFrame: Sendable, Equatable {
    /// One line of the frame: its text inside the window and whether the line goes on past the
    /// window on either side.
    public struct Line: Sendable, Equatable {
        /// The 1-based line number in the input (or member).
        public var number: Int
        /// The line's text from column `CodeFrame.firstColumn` on, at most
        /// `CodeFrameReader.windowWidth` Unicode scalars, without its line break (a CR before the
        /// LF is dropped); invalid UTF-8 is shown as U+FFFD.
        public var text: String
        /// True when the line has columns before the window.
        public var clippedBefore: Bool
        /// True when the line has columns after the window.
        public var clippedAfter: Bool
    }

    /// The lines, in order; the diagnostic's own line is among them.
    public var lines: [Line]
    /// The diagnostic's line.
    public var line: Int
    /// The diagnostic's 1-based column (Unicode scalars, SCHEMAS.md "Positions"); nil when it
    /// names a line only.
    public var column: Int?
    /// The input column of the first scalar of every line's `text`.
    public var firstColumn: Int

    /// The diagnostic's own line, when the input has it.
    public var focus: Line? { lines.first { $0.number == line } }

    /// The part of the focus line to highlight, as offsets in Unicode scalars into its `text`: the
    /// token that starts at the column (a quoted string to its closing quote, an XML tag to its
    /// `>`, a bracket alone, else the run of characters up to the next delimiter of JSON, CSV or
    /// XML), at least one scalar; nil when the column lies past the line's end.
    public var highlight: Range<Int>? {
        guard let focus, let column else { return nil }
        let scalars = Array(focus.text.unicodeScalars)
        let start = column - firstColumn
        guard start >= 0, start < scalars.count else { return nil }
        return start..<Self.tokenEnd(scalars, from: start)
    }

    /// The end (exclusive) of the token starting at `start`.
    static func tokenEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        switch scalars[start] {
        case "\"", "'":
            let quote = scalars[start]
            var index = start + 1
            while index < scalars.count {
                if scalars[index] == "\\" && quote == "\"" {
                    index += 2
                    continue
                }
                if scalars[index] == quote {
                    // A doubled quote is CSV's escaped quote (in JSON a string never ends just
                    // before another quote).
                    if index + 1 < scalars.count && scalars[index + 1] == quote {
                        index += 2
                        continue
                    }
                    return index + 1
                }
                index += 1
            }
            return scalars.count
        case "<":
            var index = start + 1
            while index < scalars.count && scalars[index] != ">" { index += 1 }
            return min(index + 1, scalars.count)
        case "{", "}", "[", "]", ",", ";", ":", ">", " ", "\t":
            return start + 1
        default:
            var index = start + 1
            while index < scalars.count && !delimiters.contains(scalars[index]) { index += 1 }
            return index
        }
    }

    /// Characters that end an unquoted token in JSON, CSV or XML.
    private static let delimiters: Set<Unicode.Scalar> = [",", ";", "}", "]", "<", ">", " ", "\t", "\""]
}
