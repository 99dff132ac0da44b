/// The text of CSV cells for the typed path.
enum CSVCellText {
    /// The text of `bytes` when they are well-formed UTF-8 (RFC 3629 section 4: no overlongs, no
    /// surrogates, nothing above U+10FFFF), else nil: the general path stops reading at such a
    /// cell (`invalid-encoding`), so the typed path must never take it. ASCII is checked eight
    /// bytes at a time.
    static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return "" }
        let count = bytes.count
        var i = 0
        while i + 8 <= count, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
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

    /// The length of the valid UTF-8 sequence at `p` (2...4) whose first byte is not ASCII, or 0
    /// when it is not valid; `available` bytes may be read from `p`.
    private static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let b0 = p[0]
        func continuation(_ k: Int) -> Bool { k < available && p[k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0...0xEF:
            guard continuation(1), continuation(2) else { return 0 }
            if b0 == 0xE0 && p[1] < 0xA0 { return 0 }
            if b0 == 0xED && p[1] > 0x9F { return 0 }
            return 3
        case 0xF0...0xF4:
            guard continuation(1), continuation(2), continuation(3) else { return 0 }
            if b0 == 0xF0 && p[1] < 0x90 { return 0 }
            if b0 == 0xF4 && p[1] > 0x8F { return 0 }
            return 4
        default:
            return 0
        }
    }

    /// The value of a cell of plain integer text (`-?[0-9]{1,18}`: what `Int64(text)` reads
    /// exactly, as `Value.int64Value` does), nil for anything else.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = bytes.count - i
        guard digits >= 1, digits <= 18 else { return nil }
        var value: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// True when `bytes` spell `word` exactly.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        for k in 0..<bytes.count where bytes[k] != w[k] { return false }
        return true
    }
}
