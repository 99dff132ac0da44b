import CByteMasks
import FerrySchemas
import FormatJSON

/// Checks JSON text against exactly the grammar `FormatJSON`'s `JSONParser` accepts (RFC 8259):
/// whitespace (section 2), objects and arrays without trailing commas (sections 4, 5), the number
/// grammar (section 6), strings with the escapes of section 7 where a high surrogate escape must
/// be followed by a low one and no other surrogate escape is allowed, no raw control characters,
/// well-formed UTF-8 (section 8.1), the literals, and nesting at most `maximumDepth` deep.
///
/// Builds nothing: each function returns the offset just past what it checked, or nil where the
/// parser would throw. Every read is bounds-checked against `end`. The typed path checks a line
/// piece by piece as `JSONLineCursor` reads it (structure: `JSONLineCursor`, `JSONRecordScan`).
struct JSONLineValidator {
    let p: UnsafePointer<UInt8>
    /// One past the last byte.
    let end: Int
    let maximumDepth: Int

    /// The first offset from `i` that is not whitespace.
    @inline(__always)
    func skipWhitespace(_ i: Int) -> Int {
        var i = i
        while i < end, JSONSyntax.isWhitespace(p[i]) { i += 1 }
        return i
    }

    // MARK: Strings

    /// Checks the string whose opening quote is at `i`: the offset past its closing quote and
    /// whether it holds an escape; nil when the parser refuses it.
    func string(_ i: Int) -> (end: Int, escaped: Bool)? {
        var j = i + 1
        var nonASCII: UInt32 = 0
        var escaped = false
        while true {
            // Sixteen bytes at a time (`CByteMasks_stringStops`); the bytes before the first stop
            // count for the UTF-8 check.
            while j + 16 <= end {
                let masks = CByteMasks_stringStops(p + j)
                let stops = masks & 0xFFFF
                if stops != 0 {
                    let before = stops.trailingZeroBitCount
                    nonASCII |= (masks >> 16) & ((1 << UInt32(before)) &- 1)
                    j += before
                    break
                }
                nonASCII |= masks
                j += 16
            }
            while j < end {
                let byte = p[j]
                if byte == JSONSyntax.quote || byte == JSONSyntax.backslash || byte < 0x20 { break }
                nonASCII |= UInt32(byte & 0x80)
                j += 1
            }
            guard j < end else { return nil }  // unterminated
            let byte = p[j]
            if byte == JSONSyntax.quote { break }
            guard byte == JSONSyntax.backslash, let next = escape(j) else { return nil }  // control character or bad escape
            escaped = true
            j = next
        }
        if nonASCII != 0,
            JSONSyntax.firstInvalidUTF8(in: UnsafeBufferPointer(start: p, count: end), (i + 1)..<j) != nil
        {
            return nil
        }
        return (j + 1, escaped)
    }

    /// Checks the escape whose backslash is at `i`; the offset past it.
    private func escape(_ i: Int) -> Int? {
        guard i + 1 < end else { return nil }
        switch p[i + 1] {
        case JSONSyntax.quote, JSONSyntax.backslash, JSONSyntax.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            guard let code = hex4(i + 2) else { return nil }
            if code >= 0xDC00 && code <= 0xDFFF { return nil }  // a low surrogate alone
            guard code >= 0xD800 && code <= 0xDBFF else { return i + 6 }
            // A high surrogate: a low one must follow as `\uXXXX` (RFC 8259 section 8.2).
            guard i + 7 < end, p[i + 6] == JSONSyntax.backslash, p[i + 7] == UInt8(ascii: "u"),
                let low = hex4(i + 8), low >= 0xDC00 && low <= 0xDFFF
            else { return nil }
            return i + 12
        default:
            return nil
        }
    }

    /// The four hexadecimal digits at `i`, or nil.
    func hex4(_ i: Int) -> UInt32? {
        guard i + 4 <= end else { return nil }
        var result: UInt32 = 0
        for k in i..<(i + 4) {
            guard let digit = Self.hexDigit(p[k]) else { return nil }
            result = result << 4 | digit
        }
        return result
    }

    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    // MARK: Numbers and literals

    /// `number = [ minus ] int [ frac ] [ exp ]` (RFC 8259 section 6) from `i`; the offset past it.
    func number(_ i: Int) -> Int? {
        var j = i
        if j < end, p[j] == JSONSyntax.minus { j += 1 }
        guard j < end, JSONSyntax.isDigit(p[j]) else { return nil }
        if p[j] == JSONSyntax.zero {
            j += 1
            if j < end, JSONSyntax.isDigit(p[j]) { return nil }  // leading zeros
        } else {
            while j < end, JSONSyntax.isDigit(p[j]) { j += 1 }
        }
        if j < end, p[j] == JSONSyntax.dot {
            j += 1
            guard j < end, JSONSyntax.isDigit(p[j]) else { return nil }
            while j < end, JSONSyntax.isDigit(p[j]) { j += 1 }
        }
        if j < end, p[j] | 0x20 == UInt8(ascii: "e") {
            j += 1
            if j < end, p[j] == JSONSyntax.plus || p[j] == JSONSyntax.minus { j += 1 }
            guard j < end, JSONSyntax.isDigit(p[j]) else { return nil }
            while j < end, JSONSyntax.isDigit(p[j]) { j += 1 }
        }
        return j
    }

    /// `number(_:)` from `i`, also reading the value of a plain decimal as its digits go by: the
    /// offset past the number, and its value when it has no exponent and at most 19 digits whose
    /// value `DecimalText.exactDouble` gives exactly (then the same double as
    /// `FieldReader.double(numberText:)` reads from the text; nil: read the text that way).
    @inline(__always)
    func decimal(_ i: Int) -> (value: Double?, end: Int)? {
        var j = i
        let negative = j < end && p[j] == JSONSyntax.minus
        if negative { j += 1 }
        guard j < end, JSONSyntax.isDigit(p[j]) else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        if p[j] == JSONSyntax.zero {
            j += 1
            digits = 1
            if j < end, JSONSyntax.isDigit(p[j]) { return nil }  // leading zeros
        } else {
            while j < end, JSONSyntax.isDigit(p[j]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[j] &- JSONSyntax.zero) }
                digits += 1
                j += 1
            }
        }
        var fractionDigits = 0
        if j < end, p[j] == JSONSyntax.dot {
            j += 1
            guard j < end, JSONSyntax.isDigit(p[j]) else { return nil }
            while j < end, JSONSyntax.isDigit(p[j]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[j] &- JSONSyntax.zero) }
                digits += 1
                fractionDigits += 1
                j += 1
            }
        }
        if j < end, p[j] | 0x20 == UInt8(ascii: "e") {
            guard let exponentEnd = number(i) else { return nil }
            return (nil, exponentEnd)
        }
        guard digits <= 19 else { return (nil, j) }
        return (DecimalText.exactDouble(mantissa: mantissa, fractionDigits: fractionDigits, negative: negative), j)
    }

    /// `true`, `false` or `null` at `i` (whichever its first byte starts); the offset past it.
    func literal(_ i: Int) -> Int? {
        guard i < end else { return nil }
        let text: StaticString
        switch p[i] {
        case UInt8(ascii: "t"): text = "true"
        case UInt8(ascii: "f"): text = "false"
        default: text = "null"
        }
        let count = text.utf8CodeUnitCount
        guard i + count <= end else { return nil }
        for k in 0..<count where p[i + k] != text.utf8Start[k] { return nil }
        return i + count
    }

    // MARK: Objects and arrays

    /// Where a container goes on: at the next member or element, or closed.
    enum Next {
        /// A member's key or an element starts at the offset (not whitespace, before `end`).
        case item(Int)
        /// The container closed: the offset just past its closing bracket.
        case closed(Int)
    }

    /// What follows the opening bracket at `open` of a container that `close` (`}` or `]`) closes.
    @inline(__always)
    func firstItem(afterOpen open: Int, close: UInt8) -> Next? {
        let i = skipWhitespace(open + 1)
        guard i < end else { return nil }
        return p[i] == close ? .closed(i + 1) : .item(i)
    }

    /// What follows a member or element ending at `i` in a container that `close` closes: a comma
    /// and the next item (never `close`: no trailing comma), or `close`; nil for anything else.
    @inline(__always)
    func afterItem(_ i: Int, close: UInt8) -> Next? {
        var j = skipWhitespace(i)
        guard j < end else { return nil }
        if p[j] == close { return .closed(j + 1) }
        guard p[j] == JSONSyntax.comma else { return nil }
        j = skipWhitespace(j + 1)
        guard j < end, p[j] != close else { return nil }
        return .item(j)
    }

    /// The offset of a member's value, after its key ends at `keyEnd` (past the closing quote):
    /// whitespace, the colon, whitespace; nil without a colon or a value there.
    @inline(__always)
    func memberValue(afterKey keyEnd: Int) -> Int? {
        let colon = skipWhitespace(keyEnd)
        guard colon < end, p[colon] == JSONSyntax.colon else { return nil }
        let value = skipWhitespace(colon + 1)
        return value < end ? value : nil
    }

    // MARK: Nesting

    /// True when a container may open at nesting `level` (1: the top-level value), as the
    /// parser's `too-deep` limit allows (`ReadOptions.maximumDepth`, Docs/json.md "Limits").
    @inline(__always)
    func allowsContainer(atLevel level: Int) -> Bool {
        level <= maximumDepth
    }
}
