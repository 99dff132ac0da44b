/// The integers the byte cursors read without the checked path: `-?(0|[1-9][0-9]{0,17})`, which
/// cannot overflow Int64 and reads as the checked path reads it (`Value.int64Value` for JSON, the
/// text rules for CSV); anything else (`1.0`, `1e3`, leading zeros, 19 digits) takes that path.
enum PlainInteger {
    /// The integer `bytes` spell exactly; nil for any other text.
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = bytes.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        let digits = bytes.count - i
        guard digits >= 1, digits <= 18, digits == 1 || bytes[i] != UInt8(ascii: "0") else { return nil }
        var magnitude: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ Int64(digit)
            i += 1
        }
        return negative ? -magnitude : magnitude
    }
}
