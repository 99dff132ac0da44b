/// XML 1.0 (Fifth Edition) names, section 2.3 productions [4] and [4a], without `:` (Namespaces in
/// XML 1.0, NCName): the keys the writer can use as element names. Others go into
/// `<field name="...">` (SCHEMAS.md "Formats").
enum XMLName {
    /// True when `text` is a non-empty NCName.
    static func isNCName(_ text: String) -> Bool {
        // ASCII keys (nearly all) are decided on their bytes; others by their scalars.
        if let decided = text.utf8.withContiguousStorageIfAvailable(asciiDecision), let decided { return decided }
        var ascii = true
        var first = true
        for byte in text.utf8 {
            guard byte < 0x80 else {
                ascii = false
                break
            }
            let ok = first ? isNameStart(UInt32(byte)) : (isNameStart(UInt32(byte)) || isNameOnly(UInt32(byte)))
            if !ok { return false }
            first = false
        }
        if ascii { return !first }
        first = true
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let ok = first ? isNameStart(v) : (isNameStart(v) || isNameOnly(v))
            if !ok { return false }
            first = false
        }
        return !first
    }

    /// The answer for ASCII `bytes` from the name character classes below; nil when a byte is not
    /// ASCII.
    private static func asciiDecision(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let first = bytes.first else { return false }
        guard first < 0x80 else { return nil }
        var ok = isASCIIName(first, start: true)
        for index in 1..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x80 else { return nil }
            if !isASCIIName(byte, start: false) { ok = false }
        }
        return ok
    }

    /// True for an ASCII name start character (`start`: letters and `_`) or name character (also
    /// digits, `-` and `.`), read from two 64-bit masks of the byte values (no table to load).
    @inline(__always)
    private static func isASCIIName(_ byte: UInt8, start: Bool) -> Bool {
        // Bytes 64...127: `A`-`Z` (bits 1-26), `_` (31), `a`-`z` (33-58).
        let letters: UInt64 = (1 << 26 - 1) << 1 | 1 << 31 | (1 << 26 - 1) << 33
        // Bytes 0...63: `-` (45), `.` (46), `0`-`9` (48-57).
        let others: UInt64 = 1 << 45 | 1 << 46 | (1 << 10 - 1) << 48
        if byte >= 64 { return letters >> UInt64(byte &- 64) & 1 != 0 }
        return !start && others >> UInt64(byte) & 1 != 0
    }

    private static func isNameStart(_ v: UInt32) -> Bool {
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
             0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
             0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    private static func isNameOnly(_ v: UInt32) -> Bool {
        switch v {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
        default: return false
        }
    }
}
