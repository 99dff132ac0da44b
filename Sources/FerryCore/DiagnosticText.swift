/// Makes text taken from the input (values, keys, file and member names) safe to print inside a
/// one-line diagnostic: data must never be able to end the line, rewrite it on a terminal, make a
/// log look binary or forge a second diagnostic (Docs/diagnostics.md "Escaping").
public enum DiagnosticText {
    /// `text` with every character that could break or disguise a line written as an escape:
    /// `\n`, `\r`, `\t`, and `\uXXXX` (upper-case hex) for the other C0 controls (NUL included),
    /// DEL, the C1 controls (U+0080...U+009F), U+2028 and U+2029, and U+FFFD standing for a lone
    /// surrogate. Everything else, backslashes and quotes included, is kept as it is, so escaping
    /// an already escaped text changes nothing.
    public static func escaped(_ text: String) -> String {
        // Most text needs nothing: one scan over the UTF-8 bytes and no copy.
        guard text.utf8.contains(where: needsLook) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars { append(scalar, to: &out, quotes: false) }
        return out
    }

    /// `text` as a quoted string for a message: `"` + the text + `"`, with `"` and `\` escaped as
    /// `\"` and `\\`, and the controls as `escaped(_:)` writes them. `title "a \"b\""` reads back.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars { append(scalar, to: &out, quotes: true) }
        out += "\""
        return out
    }

    /// True when `part`'s UTF-8 bytes stand in `text`'s (`text.contains(part)` for the text of
    /// messages): a byte search, where the standard library's builds a searcher per call (about a
    /// tenth of a run that reports an error for every record).
    public static func contains(_ text: String, _ part: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { haystack in part.withUTF8 { UTF8Text.contains(haystack, $0) } }
    }

    /// True for a UTF-8 byte that may start or be a character `escaped` rewrites: any control
    /// byte, DEL, and any byte of a multi-byte sequence (C1 controls, U+2028/2029 and U+FFFD
    /// are multi-byte; they are told apart by the scalar loop).
    @inline(__always)
    private static func needsLook(_ byte: UInt8) -> Bool { byte < 0x20 || byte >= 0x7F }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, quotes: Bool) {
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x22 where quotes: out += "\\\""
        case 0x5C where quotes: out += "\\\\"
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFD:
            // U+FFFD is what a lone surrogate becomes when the text is decoded; written as an
            // escape it stays visible instead of looking like the input's own character.
            out += "\\u"
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
}

extension DefaultStringInterpolation {
    /// `"\(quoted: value)"`: the value as `DiagnosticText.quoted` writes it, for messages that quote
    /// input text.
    public mutating func appendInterpolation(quoted text: String) {
        appendLiteral(DiagnosticText.quoted(text))
    }
}
