import FerryCore

/// Tells an input cut short inside a value from a value that is wrong, and words the error of
/// the cut the same way in every JSON reader: where the input ends, which record it ends inside
/// and where that record opens (as XML names the element left open).
enum JSONCutShort {
    /// Whether the bytes in `range` are the start of a JSON value that more bytes could complete,
    /// so that a syntax error found at their end only says the input stopped there: a parse
    /// that may go on past `range` (`isFinal: false`) asks for more instead of failing.
    static func endsInsideValue(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, maximumDepth: Int, initialDepth: Int = 0) -> Bool {
        var parser = JSONParser(
            bytes: bytes, range: range, location: SourceLocation(), maximumDepth: maximumDepth,
            initialDepth: initialDepth, isFinal: false)
        do {
            _ = try parser.parseDocument()
        } catch is JSONNeedsMoreInput {
            return true
        } catch {
            return false
        }
        return false
    }

    /// The error of an input cut inside a record: at `end` (where the input ends), saying what the
    /// parser expected there, then `"the input ends inside RECORD, which opens at line L, column C
    /// and is not closed (the input is cut short)"` (without the opening when `open` is nil).
    /// - Parameters:
    ///   - diagnostic: the parser's error at the cut (`unterminated string`, `invalid literal`,
    ///     `unexpected end of input, ...`); its file and member are kept.
    ///   - record: how the record is named (`record 2 of wineNotes`, `document "kanji-1" of
    ///     wordBooks`, `the record on line 201`).
    static func diagnostic(_ diagnostic: Diagnostic, endingAt end: TextPosition, inside record: String, opensAt open: TextPosition?) -> Diagnostic {
        var cut = diagnostic
        cut.code = .malformedJSON
        cut.location.position = end
        let opening = open.map { ", which opens at line \($0.line), column \($0.column) and" } ?? ", which"
        cut.message = endMessage(diagnostic.message) + ": the input ends inside \(record)\(opening) is not closed (the input is cut short)"
        return cut
    }

    /// The error of a JSON Lines line that does not parse: when it is the input's last line, with
    /// no line break after it, and ends inside its value, the input is cut short there (the
    /// record on that line is named); otherwise the parser's error as it is.
    /// - Parameters:
    ///   - bytes: the buffer holding the line at `range` (without its line break).
    ///   - number: the line's 1-based number.
    static func lineError(
        _ error: FerryError, bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, number: Int, endsInput: Bool, maximumDepth: Int
    ) -> Diagnostic {
        guard endsInput, isEndError(error.diagnostic), endsInsideValue(bytes, range, maximumDepth: maximumDepth)
        else { return error.diagnostic }
        let end = JSONSyntax.position(in: bytes, from: range.lowerBound, at: TextPosition(line: number, column: 1), to: range.upperBound)
        return diagnostic(error.diagnostic, endingAt: end, inside: "the record on line \(number)", opensAt: nil)
    }

    /// True for the errors the parser gives where the input runs out (in a string, a literal, an
    /// escape, or between tokens), not for a byte that is wrong (a stray `é` near the end also
    /// asks a parser that may go on for more bytes, to tell a split character from a bad one).
    static func isEndError(_ diagnostic: Diagnostic) -> Bool {
        guard diagnostic.code == .malformedJSON else { return false }
        let message = diagnostic.message
        return message.hasPrefix("unexpected end of input") || message.hasPrefix("unterminated string")
            || message.hasPrefix("invalid literal") || message.hasPrefix("invalid \\u escape")
    }

    /// The parser's message for an error met at the end of the input, said as the end it is.
    private static func endMessage(_ message: String) -> String {
        if message.hasPrefix("unexpected end of input") { return message }
        if message.hasPrefix("unterminated string") { return "unexpected end of input inside a string" }
        if message.hasPrefix("invalid literal") { return "unexpected end of input inside true, false or null" }
        return "unexpected end of input"
    }
}
