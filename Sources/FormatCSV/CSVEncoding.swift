/// The character encodings the CSV reader accepts (`--encoding`). Everything is transcoded to
/// UTF-8 before scanning, so the scanner only ever sees UTF-8 bytes.
public enum CSVEncoding: String, Sendable, Hashable, CaseIterable {
    /// UTF-8 (the default); a leading UTF-8 BOM (`EF BB BF`) is skipped.
    case utf8 = "utf-8"
    /// UTF-16 with a BOM saying the byte order; without one, the order the first bytes show (a NUL
    /// after each ASCII character: little endian), else big-endian (RFC 2781 section 4.3).
    case utf16 = "utf-16"
    /// UTF-16 little-endian; a leading BOM `FF FE` is skipped.
    case utf16LE = "utf-16le"
    /// UTF-16 big-endian; a leading BOM `FE FF` is skipped.
    case utf16BE = "utf-16be"
    /// ISO-8859-1: every byte is the code point of the same number.
    case latin1 = "latin1"
    /// Windows-1252: ISO-8859-1 with printable characters in 0x80...0x9F (WHATWG Encoding table;
    /// its five unassigned bytes map to the C1 controls of the same number, as WHATWG does).
    case windows1252 = "windows-1252"

    /// Parses a `--encoding` name, case-insensitively, ignoring `-` and `_`: `utf-8`, `utf8`,
    /// `utf-16`, `utf-16le`, `utf-16be`, `latin1`, `latin-1`, `iso-8859-1`, `windows-1252`, `cp1252`.
    /// Returns nil for any other name.
    public init?(name: String) {
        let key = String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
        switch key {
        case "utf8": self = .utf8
        case "utf16": self = .utf16
        case "utf16le": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "latin1", "iso88591", "l1": self = .latin1
        case "windows1252", "cp1252": self = .windows1252
        default: return nil
        }
    }
}
