extension DecimalText {
    /// Powers of ten that a `Double` holds exactly (10^0 ... 10^22). Literals, so that the table
    /// is laid out when the program is built (no lazy initialization checked at every read).
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The value of short plain decimal text (`12.4`, `-0.91`, `3`: an optional `-`, digits, and
    /// optionally `.` and digits; no exponent), or nil for anything else (the caller then reads it
    /// with `Double(text)`).
    ///
    /// Exactly `Double(text)` for the text it accepts (Clinger's fast path): the digits make an
    /// integer below 2^53 and at most 22 of them follow the point, so the integer and the power of
    /// ten are both exact doubles and one correctly rounded division gives the correctly rounded
    /// value. Avoids `strtod` for the numbers records are made of (issue 7).
    static func fastDouble(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { fastDouble(utf8: $0) }
    }

    /// `fastDouble(_:)` over the text's UTF-8 bytes.
    package static func fastDouble(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        var i = 0
        let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var sawPoint = false
        var digitsBeforePoint = 0
        while i < count {
            let byte = bytes[i]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                // 19 digits always fit in UInt64; more cannot be below 2^53 unless they are
                // leading zeros, which the checked path handles.
                guard digitCount < 19 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                digitCount += 1
                if sawPoint { fractionDigits += 1 } else { digitsBeforePoint += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint, digitsBeforePoint > 0 {
                sawPoint = true
            } else {
                return nil
            }
            i += 1
        }
        // At least one digit on each side of a point; below 2^53; a power of ten a double holds.
        guard digitsBeforePoint > 0, !sawPoint || fractionDigits > 0 else { return nil }
        return exactDouble(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// `±mantissa × 10^-fractionDigits` when both the mantissa (below 2^53) and the power of ten
    /// (at most 22 digits) are exact doubles, so that one correctly rounded division gives the
    /// correctly rounded value (Clinger's fast path, the value `fastDouble` gives for such text);
    /// nil otherwise. For readers that gather a decimal's digits as they check its grammar.
    @inline(__always)
    package static func exactDouble(mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double? {
        guard mantissa < (1 << 53), fractionDigits <= 22 else { return nil }
        let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }
}

extension FieldReader {
    /// The `Double` a number field reads from JSON number text (RFC 8259 section 6 grammar, as
    /// UTF-8 bytes): exactly what the general path's `plainDouble` reads from `.number(text)`,
    /// `DecimalText.fastDouble(text) ?? Double(text)`. Nil when `Double(text)` is nil; may be
    /// infinite (the caller checks, as the general path does). For raw field sources (issue 7).
    public static func double(numberText bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let fast = DecimalText.fastDouble(utf8: bytes) { return fast }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
