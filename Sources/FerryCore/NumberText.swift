/// Number text in the forms SCHEMAS.md fixes ("Values: Numbers").
public enum NumberText {
    /// The ECMAScript `Number::toString` form of a finite double, which RFC 8785 section 3.2.2.3
    /// adopts for JSON: `13` not `13.0`, `0.5`, `1e-7`, `1e+21`, and `-0` written `0`.
    ///
    /// Swift's `description` already yields the shortest digits that round-trip; this only re-lays
    /// them out. Returns nil for NaN and infinities, which have no JSON form.
    public static func ecmaScript(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return "0" }
        // Whole numbers up to 2^53 are their integer's digits (every integer there is a double, so no
        // shorter decimal reads as the same one); Swift's description of 10^15 ... 2^53 ends in `.0`.
        if let exact = Int64(exactly: value), exact.magnitude <= 9_007_199_254_740_992 { return String(exact) }  // magnitude: abs(Int64.min) traps
        // A fraction Swift writes without an exponent (1e-4 <= |value| < 2^53) has the same
        // shortest digits in the same places as the ECMAScript form.
        let description = value.description
        if !description.utf8.contains(UInt8(ascii: "e")) { return description }
        var (digits, exponent) = decimalDigits(of: abs(value))
        // digits × 10^(exponent - digits.count) == |value|; n is the position of the decimal point.
        while digits.count > 1, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        let k = digits.count
        let n = exponent
        var out = value < 0 ? "-" : ""
        let text = String(decoding: digits, as: UTF8.self)
        if k <= n && n <= 21 {
            out += text + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            out += String(text.prefix(n)) + "." + String(text.dropFirst(n))
        } else if -6 < n && n <= 0 {
            out += "0." + String(repeating: "0", count: -n) + text
        } else {
            let e = n - 1
            let sign = e < 0 ? "-" : "+"
            out += String(text.prefix(1))
            if k > 1 { out += "." + String(text.dropFirst()) }
            out += "e" + sign + String(abs(e))
        }
        return out
    }

    /// Splits Swift's shortest description into significant digits (no leading zeros) and the
    /// position `n` of the decimal point relative to them.
    private static func decimalDigits(of value: Double) -> ([UInt8], Int) {
        let description = Array(value.description.utf8)
        var mantissa = description[...]
        var exponent = 0
        if let e = description.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = description[..<e]
            exponent = Int(String(decoding: description[(e + 1)...], as: UTF8.self)) ?? 0
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        for byte in mantissa {
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        var n = (pointPosition ?? digits.count) + exponent
        while digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        return (digits, n)
    }

    /// True when JSON number text denotes an integer exactly: no fraction digits other than zeros
    /// and no negative exponent that would leave a fraction (`1.0`, `10e0`, `1e2` are integral;
    /// `1.5`, `1e-1` are not).
    public static func isIntegral(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var mantissaEnd = bytes.endIndex
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissaEnd = e
            guard let parsed = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self)) else { return false }
            exponent = parsed
        }
        guard let point = bytes[..<mantissaEnd].firstIndex(of: UInt8(ascii: ".")) else { return exponent >= 0 }
        var fraction = Array(bytes[(point + 1)..<mantissaEnd])
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        return fraction.count <= exponent
    }
}
