import FerryCore

/// Guesses a format from an input's first bytes when neither `--from` nor the file name says it.
enum FormatSniffer {
    /// `json`, `jsonl`, `xml` or `csv`, from the first non-blank bytes (a UTF-8 BOM skipped):
    /// `<` is XML; `{` or `[` is JSON, unless the first line is a whole object and the next line starts
    /// another (JSON Lines); anything else is CSV.
    static func formatName(forHead head: [UInt8]) -> String {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            // UTF-16 with a BOM: XML declares itself; other text is taken for CSV.
            return bytes.contains(UInt8(ascii: "<")) ? "xml" : "csv"
        }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return "json" }
        switch bytes[first] {
        case UInt8(ascii: "<"):
            return "xml"
        case UInt8(ascii: "{"):
            return looksLikeJSONLines(bytes[first...]) ? "jsonl" : "json"
        case UInt8(ascii: "["):
            return "json"
        default:
            return "csv"
        }
    }

    /// True when `head` starts with a tar header: `ustar` at offset 257 (POSIX ustar and pax
    /// `ustar\0`, GNU tar `ustar  `). Old v7 archives carry no magic and are not recognised.
    static func isTar(_ head: [UInt8]) -> Bool {
        head.count >= 262 && head[257..<262].elementsEqual("ustar".utf8)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// True when the first line closes the object it opens and the next non-blank line opens another.
    private static func looksLikeJSONLines(_ bytes: ArraySlice<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { break }
            } else if byte == 0x0A {
                return false
            }
            index += 1
        }
        guard index < bytes.endIndex else { return false }
        let rest = bytes[(index + 1)...]
        guard let newline = rest.firstIndex(of: 0x0A) else { return false }
        let between = rest[..<newline]
        guard between.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { return false }
        return rest[(newline + 1)...].first(where: { !isBlank($0) }) == UInt8(ascii: "{")
    }
}
