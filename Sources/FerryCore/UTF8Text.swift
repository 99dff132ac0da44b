/// UTF-8 checks shared by the CSV readers (the general decoder and the typed path), so that both
/// refuse exactly the same bytes, and byte-level string tests shared by the readers and counters.
public enum UTF8Text {
    /// True when `held` equals `other`. When the two are equal in different storage, `held`
    /// becomes `other`: a caller keeping a string to compare with is usually given the same one
    /// each time, whose next compare then takes one step (the same bits) rather than a byte
    /// comparison.
    @inline(__always)
    public static func equalHolding(_ held: inout String, _ other: String) -> Bool {
        if unsafeBitCast(held, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self) { return true }
        guard held == other else { return false }
        held = other
        return true
    }

    /// True when `part` stands in `bytes` (true for an empty `part`): a plain byte search, where
    /// the standard library's `contains` builds a searcher per call.
    public static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = part.first else { return true }
        guard part.count <= bytes.count else { return false }
        var start = 0
        let last = bytes.count - part.count
        while start <= last {
            if bytes[start] == first {
                var matched = 1
                while matched < part.count, bytes[start + matched] == part[matched] { matched += 1 }
                if matched == part.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The text of `bytes` when they are well-formed UTF-8, else nil: all-ASCII text is found by
    /// one check of whole words (`isASCII`), anything else is read sequence by sequence
    /// (`validSequenceLength`).
    /// (The standard library's `String(validating:as:)` costs more here: it is not specialized.)
    @inlinable
    public static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// True when `bytes` are well-formed UTF-8 (all-ASCII text by one check of whole words, anything
    /// else sequence by sequence: `validSequenceLength`), without making a text.
    @inlinable
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        if isASCII(base, count) { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < count {
            // The ASCII between multi-byte characters (most of a Latin text's), a word at a time.
            if i + 8 <= count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            if base[i] < 0x80 {
                i += 1
                continue
            }
            let length = validSequenceLength(base + i, count - i)
            if length == 0 { return false }
            i += length
        }
        return true
    }

    /// True when the `count` bytes at `base` are all below 0x80: cells of up to eight bytes are
    /// read as one word (two overlapping loads, never past the end), longer ones eight bytes at a time.
    @inlinable @inline(__always)
    static func isASCII(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            // Whole words, then the last eight bytes (overlapping what was checked).
            var i = 0
            var seen: UInt64 = 0
            while i + 8 <= count {
                seen |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            seen |= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return seen & high == 0
        } else if count >= 4 {
            let seen = raw.loadUnaligned(as: UInt32.self) | raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return seen & 0x8080_8080 == 0
        }
        for k in 0..<count where base[k] >= 0x80 { return false }
        return true
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
