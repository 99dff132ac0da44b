/// UTF-8 checks shared by the CSV readers (the general decoder and the typed path), so that both
/// refuse exactly the same bytes.
public enum UTF8Text {
    /// The text of `bytes` when they are well-formed UTF-8, else nil: ASCII is checked eight
    /// bytes at a time, anything else sequence by sequence (`validSequenceLength`).
    /// (The standard library's `String(validating:as:)` costs more here: it is not specialized.)
    @inlinable
    public static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return "" }
        let count = bytes.count
        var i = 0
        while i + 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        while i < count {
            if base[i] < 0x80 {
                i += 1
                continue
            }
            let length = validSequenceLength(base + i, count - i)
            if length == 0 { return nil }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of the valid UTF-8 sequence at `p` (1...4), or 0 when it is not valid
    /// (RFC 3629 section 4: no overlongs, no surrogates, nothing above U+10FFFF).
    @inlinable
    public static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let b0 = p[0]
        if b0 < 0x80 { return 1 }
        func cont(_ k: Int) -> Bool { k < available && p[k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0...0xEF:
            guard cont(1), cont(2) else { return 0 }
            if b0 == 0xE0 && p[1] < 0xA0 { return 0 }
            if b0 == 0xED && p[1] > 0x9F { return 0 }
            return 3
        case 0xF0...0xF4:
            guard cont(1), cont(2), cont(3) else { return 0 }
            if b0 == 0xF0 && p[1] < 0x90 { return 0 }
            if b0 == 0xF4 && p[1] > 0x8F { return 0 }
            return 4
        default:
            return 0
        }
    }
}
