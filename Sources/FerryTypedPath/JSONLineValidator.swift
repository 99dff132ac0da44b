import FormatJSON

/// Checks JSON text against exactly the grammar `FormatJSON`'s `JSONParser` accepts (RFC 8259):
/// whitespace (section 2), objects and arrays without trailing commas (sections 4, 5), the number
/// grammar (section 6), strings with the escapes of section 7 where a high surrogate escape must
/// be followed by a low one and no other surrogate escape is allowed, no raw control characters,
/// well-formed UTF-8 (section 8.1), the literals, and nesting at most `maximumDepth` deep.
///
/// Builds nothing: each function returns the offset just past what it checked, or nil where the
/// parser would throw. Every read is bounds-checked against `end`.
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
        var high: UInt64 = 0
        var escaped = false
        while true {
            // Eight bytes at a time: the lowest flagged byte of a word is exact
            // (`JSONSyntax.zeroBytes`); the bytes before it count for the UTF-8 check.
            while j + 8 <= end {
                let word = UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self)
                let flags = Self.specials(word)
                if flags != 0 {
                    let before = flags.trailingZeroBitCount >> 3
                    high |= word & ((1 << UInt64(before << 3)) &- 1)
                    j += before
                    break
                }
                high |= word
                j += 8
            }
            while j < end {
                let byte = p[j]
                if byte == JSONSyntax.quote || byte == JSONSyntax.backslash || byte < 0x20 { break }
                high |= UInt64(byte)
                j += 1
            }
            guard j < end else { return nil }  // unterminated
            let byte = p[j]
            if byte == JSONSyntax.quote { break }
            guard byte == JSONSyntax.backslash, let next = escape(j) else { return nil }  // control character or bad escape
            escaped = true
            j = next
        }
        if high & JSONSyntax.highBits != 0,
            JSONSyntax.firstInvalidUTF8(in: UnsafeBufferPointer(start: p, count: end), (i + 1)..<j) != nil
        {
            return nil
        }
        return (j + 1, escaped)
    }

    /// The high bit of each byte of `word` that is `"`, `\` or a control character (exact for
    /// the lowest one).
    @inline(__always)
    private static func specials(_ word: UInt64) -> UInt64 {
        let quotes = JSONSyntax.zeroBytes(word ^ (JSONSyntax.lowBits &* UInt64(JSONSyntax.quote)))
        let backslashes = JSONSyntax.zeroBytes(word ^ (JSONSyntax.lowBits &* UInt64(JSONSyntax.backslash)))
        let controls = (word &- JSONSyntax.lowBits &* 0x20) & ~word & JSONSyntax.highBits
        return quotes | backslashes | controls
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

    /// `true`, `false` or `null` at `i` (whichever its first byte starts); the offset past it.
    func literal(_ i: Int) -> Int? {
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

    // MARK: Values

    /// Checks the value at `start` (leading whitespace allowed) inside `depth` open containers;
    /// the offset past it. Iterative: `stack` holds one bit per open container (1: an object) and
    /// has room for `maximumDepth` bits.
    func value(from start: Int, depth outer: Int, stack: UnsafeMutablePointer<UInt64>) -> Int? {
        var i = start
        var depth = 0
        parsing: while true {
            i = skipWhitespace(i)
            guard i < end else { return nil }
            switch p[i] {
            case JSONSyntax.openBrace, JSONSyntax.openBracket:
                let isObject = p[i] == JSONSyntax.openBrace
                guard outer + depth + 1 <= maximumDepth else { return nil }  // too deep
                i = skipWhitespace(i + 1)
                guard i < end else { return nil }
                if p[i] == (isObject ? JSONSyntax.closeBrace : JSONSyntax.closeBracket) {
                    i += 1
                } else {
                    Self.set(stack, depth, isObject)
                    depth += 1
                    if isObject {
                        guard let next = memberKey(i) else { return nil }
                        i = next
                    }
                    continue parsing
                }
            case JSONSyntax.quote:
                guard let next = string(i)?.end else { return nil }
                i = next
            case JSONSyntax.minus, JSONSyntax.zero...JSONSyntax.nine:
                guard let next = number(i) else { return nil }
                i = next
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                guard let next = literal(i) else { return nil }
                i = next
            default:
                return nil
            }
            // A value is complete: go on in its container, closing containers as they end.
            while depth > 0 {
                i = skipWhitespace(i)
                guard i < end else { return nil }
                let isObject = Self.get(stack, depth - 1)
                if p[i] == JSONSyntax.comma {
                    i = skipWhitespace(i + 1)
                    if isObject {
                        guard let next = memberKey(i) else { return nil }
                        i = next
                    } else if i < end, p[i] == JSONSyntax.closeBracket {
                        return nil  // trailing comma
                    }
                    continue parsing
                }
                guard p[i] == (isObject ? JSONSyntax.closeBrace : JSONSyntax.closeBracket) else { return nil }
                i += 1
                depth -= 1
            }
            return i
        }
    }

    /// `"key" :` at `i`; the offset past the colon.
    func memberKey(_ i: Int) -> Int? {
        guard i < end, p[i] == JSONSyntax.quote, let keyEnd = string(i)?.end else { return nil }
        let colon = skipWhitespace(keyEnd)
        guard colon < end, p[colon] == JSONSyntax.colon else { return nil }
        return colon + 1
    }

    @inline(__always)
    private static func set(_ stack: UnsafeMutablePointer<UInt64>, _ index: Int, _ flag: Bool) {
        let bit: UInt64 = 1 << UInt64(index & 63)
        if flag { stack[index >> 6] |= bit } else { stack[index >> 6] &= ~bit }
    }

    @inline(__always)
    private static func get(_ stack: UnsafeMutablePointer<UInt64>, _ index: Int) -> Bool {
        stack[index >> 6] & (1 << UInt64(index & 63)) != 0
    }
}
