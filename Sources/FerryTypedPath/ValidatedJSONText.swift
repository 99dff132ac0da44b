import FormatJSON

/// The text of one string that `JSONLineValidator.string` just accepted, unescaped as
/// `JSONParser` unescapes it (RFC 8259 section 7): its content is `p[start ..< end]` (`end` is
/// the offset of the closing quote). Reads stay bounds-checked against `end`; the grammar needs
/// no checking again.
struct ValidatedJSONText {
    let p: UnsafePointer<UInt8>
    /// The offset of the closing quote (one past the content).
    let end: Int

    /// The content from `start` as a `String`; `escaped` as `JSONLineValidator.string` told.
    @inline(__always)
    func text(from start: Int, escaped: Bool) -> String {
        guard escaped else {
            // No escape: the text is the bytes themselves (one copy, already known to be UTF-8).
            return String(decoding: UnsafeBufferPointer(start: p + start, count: max(end - start, 0)), as: UTF8.self)
        }
        return unescaped(from: start)
    }

    /// The offset of the first backslash at or after `i` (`end` when none).
    @inline(__always)
    private func backslash(from i: Int) -> Int {
        var j = i
        // Eight bytes at a time; the lowest flagged byte of a word is exact (`JSONSyntax.zeroBytes`).
        while j + 8 <= end {
            let word = UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self)
            let flags = JSONSyntax.zeroBytes(word ^ Self.backslashes)
            if flags != 0 { return j + flags.trailingZeroBitCount >> 3 }
            j += 8
        }
        while j < end, p[j] != JSONSyntax.backslash { j += 1 }
        return j
    }

    private static let backslashes = JSONSyntax.lowBits &* UInt64(JSONSyntax.backslash)

    /// Content holding escapes: unescaped straight into the new `String`'s storage (never longer
    /// than the escaped text: `\n` is one byte, `\uXXXX` at most three, a surrogate pair four).
    private func unescaped(from start: Int) -> String {
        String(unsafeUninitializedCapacity: max(end - start, 0)) { out in
            var n = 0
            var j = start
            while j < end {
                // The run up to the next escape (or the end), copied as it is.
                let stop = backslash(from: j)
                if stop > j, let target = out.baseAddress {
                    (target + n).update(from: p + j, count: stop - j)
                    n += stop - j
                    j = stop
                }
                if j < end { j = unescape(at: j, into: out, &n) }
            }
            return n
        }
    }

    /// Writes the unescaped form of the escape at `j` (a backslash) at `out[n]`; the offset past it.
    private func unescape(at j: Int, into out: UnsafeMutableBufferPointer<UInt8>, _ n: inout Int) -> Int {
        guard j + 1 < end else { return end }
        let simple: UInt8
        switch p[j + 1] {
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var scalar = hex4(j + 2)
            var length = 6
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                // Validated: a low surrogate escape follows.
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(j + 8) &- 0xDC00)
                length = 12
            }
            appendUTF8(scalar, into: out, &n)
            return j + length
        default: simple = p[j + 1]  // `"`, `\` and `/` stand for themselves
        }
        out[n] = simple
        n += 1
        return j + 2
    }

    /// The four (validated) hexadecimal digits at `i`.
    private func hex4(_ i: Int) -> UInt32 {
        var result: UInt32 = 0
        for k in i..<min(i + 4, end) { result = result << 4 | (JSONLineValidator.hexDigit(p[k]) ?? 0) }
        return result
    }

    /// Writes the UTF-8 form of `scalar` (never a surrogate) at `out[n]`.
    private func appendUTF8(_ scalar: UInt32, into out: UnsafeMutableBufferPointer<UInt8>, _ n: inout Int) {
        switch scalar {
        case 0..<0x80:
            out[n] = UInt8(scalar)
            n += 1
        case 0x80..<0x800:
            out[n] = UInt8(0xC0 | (scalar >> 6))
            out[n + 1] = UInt8(0x80 | (scalar & 0x3F))
            n += 2
        case 0x800..<0x10000:
            out[n] = UInt8(0xE0 | (scalar >> 12))
            out[n + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            out[n + 2] = UInt8(0x80 | (scalar & 0x3F))
            n += 3
        default:
            out[n] = UInt8(0xF0 | (scalar >> 18))
            out[n + 1] = UInt8(0x80 | ((scalar >> 12) & 0x3F))
            out[n + 2] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            out[n + 3] = UInt8(0x80 | (scalar & 0x3F))
            n += 4
        }
    }
}
