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

    /// The answer for ASCII `bytes` from a table; nil when a byte is not ASCII.
    private static func asciiDecision(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let first = bytes.first else { return false }
        guard first < 0x80 else { return nil }
        var ok = asciiClass[Int(first)] == 2
        for byte in bytes.dropFirst() {
            guard byte < 0x80 else { return nil }
            if asciiClass[Int(byte)] == 0 { ok = false }
        }
        return ok
    }

    /// Per ASCII byte: 2 a name start character, 1 a name character that cannot start a name, 0 neither.
    private static let asciiClass: [UInt8] = (0..<128).map { byte in
        isNameStart(UInt32(byte)) ? 2 : isNameOnly(UInt32(byte)) ? 1 : 0
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
