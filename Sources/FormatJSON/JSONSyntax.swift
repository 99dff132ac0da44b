import FerryCore

/// Byte-level facts of the JSON grammar (RFC 8259) shared by the parser, the streaming readers and
/// the field locator: byte constants, whitespace, positions, UTF-8 well-formedness and a fast
/// skip over values already known to be well-formed.
///
/// Public (the byte constants, whitespace, digits, the eight-bytes-at-a-time string scan and
/// UTF-8 well-formedness) for the typed path's JSON Lines scanner (FerryTypedPath,
/// `JSONRecordScan`), which must accept exactly what `JSONParser` accepts.
public enum JSONSyntax {
    /// The ASCII bytes of the JSON grammar (RFC 8259 sections 2 to 7), by name.
    public static let quote: UInt8 = 0x22
    public static let backslash: UInt8 = 0x5C
    public static let slash: UInt8 = 0x2F
    public static let comma: UInt8 = 0x2C
    public static let colon: UInt8 = 0x3A
    public static let openBrace: UInt8 = 0x7B
    public static let closeBrace: UInt8 = 0x7D
    public static let openBracket: UInt8 = 0x5B
    public static let closeBracket: UInt8 = 0x5D
    public static let minus: UInt8 = 0x2D
    public static let plus: UInt8 = 0x2B
    public static let dot: UInt8 = 0x2E
    public static let zero: UInt8 = 0x30
    public static let nine: UInt8 = 0x39
    public static let newline: UInt8 = 0x0A
    public static let carriageReturn: UInt8 = 0x0D
    public static let space: UInt8 = 0x20
    public static let tab: UInt8 = 0x09

    /// RFC 8259 section 2 `ws`: space, horizontal tab, line feed, carriage return.
    @inlinable @inline(__always)
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == carriageReturn || byte == tab
    }

    @inlinable @inline(__always)
    public static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    /// True for bytes that end a bare scalar (number or literal) while scanning for its extent.
    @inline(__always)
    static func endsScalar(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == comma || byte == closeBracket || byte == closeBrace || byte == colon
            || byte == openBracket || byte == openBrace || byte == quote
    }

    // MARK: - Eight bytes at a time (little-endian words; the lowest flagged byte is exact)

    public static let lowBits: UInt64 = 0x0101_0101_0101_0101
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// High bit set in each byte of `word` that is zero (exact for the lowest such byte).
    @inlinable @inline(__always)
    public static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- lowBits) & ~word & highBits }

    /// True when a byte of `word` is `"`, `\` or below 0x20.
    @inlinable @inline(__always)
    public static func hasStringSpecial(_ word: UInt64) -> Bool {
        let quotes = zeroBytes(word ^ (lowBits &* UInt64(quote)))
        let backslashes = zeroBytes(word ^ (lowBits &* UInt64(backslash)))
        let controls = (word &- lowBits &* 0x20) & ~word & highBits
        return quotes | backslashes | controls != 0
    }

    /// The position of `bytes[offset]`, counting from `bytes[baseOffset]` at `base`. Lines end at
    /// LF; columns count Unicode scalars, so UTF-8 continuation bytes (`10xxxxxx`) do not count.
    static func position(
        in bytes: UnsafeBufferPointer<UInt8>, from baseOffset: Int, at base: TextPosition, to offset: Int
    ) -> TextPosition {
        var line = base.line
        var column = base.column
        var i = baseOffset
        let stop = min(offset, bytes.count)
        guard let pointer = bytes.baseAddress else { return base }
        let newlines = lowBits &* UInt64(newline)
        while i < stop {
            if i + 8 <= stop {
                let word = UnsafeRawPointer(pointer + i).loadUnaligned(as: UInt64.self)
                if zeroBytes(word ^ newlines) == 0 {
                    // Continuation bytes have bit 7 set and bit 6 clear.
                    let continuations = word & ~(word << 1) & highBits
                    column += 8 - continuations.nonzeroBitCount
                    i += 8
                    continue
                }
            }
            let byte = pointer[i]
            if byte == newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return TextPosition(line: line, column: column)
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence in `range`, or nil when
    /// the range is well-formed (Unicode 15, Table 3-7: no overlongs, no surrogates, nothing above
    /// U+10FFFF).
    public static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            offset < end && bytes[offset] >= low && bytes[offset] <= high
        }
        while i < end {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            var length = 0
            switch b {
            case 0xC2...0xDF:
                if continuation(i + 1) { length = 2 }
            case 0xE0:
                if continuation(i + 1, 0xA0, 0xBF), continuation(i + 2) { length = 3 }
            case 0xE1...0xEC, 0xEE...0xEF:
                if continuation(i + 1), continuation(i + 2) { length = 3 }
            case 0xED:
                if continuation(i + 1, 0x80, 0x9F), continuation(i + 2) { length = 3 }
            case 0xF0:
                if continuation(i + 1, 0x90, 0xBF), continuation(i + 2), continuation(i + 3) { length = 4 }
            case 0xF1...0xF3:
                if continuation(i + 1), continuation(i + 2), continuation(i + 3) { length = 4 }
            case 0xF4:
                if continuation(i + 1, 0x80, 0x8F), continuation(i + 2), continuation(i + 3) { length = 4 }
            default:
                break
            }
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// Why the first bytes of an input are not UTF-8 JSON (a UTF-16 byte order mark, or the NUL
    /// pattern of UTF-16 / UTF-32 text, RFC 8259 section 8.1), or nil when they may be.
    static func encodingProblem(_ prefix: UnsafeBufferPointer<UInt8>) -> String? {
        let n = prefix.count
        if n >= 2, (prefix[0] == 0xFE && prefix[1] == 0xFF) || (prefix[0] == 0xFF && prefix[1] == 0xFE) {
            return "the input starts with a UTF-16 byte order mark; JSON must be UTF-8 (RFC 8259 section 8.1)"
        }
        let looksWide =
            (n >= 4 && ((prefix[0] == 0 && prefix[2] == 0) || (prefix[1] == 0 && prefix[3] == 0)))
            || (n >= 2 && prefix[0] == 0 && prefix[1] != 0)
        if looksWide {
            return "the input looks like UTF-16 or UTF-32 text; JSON must be UTF-8 (RFC 8259 section 8.1)"
        }
        return nil
    }

    /// True when the input starts with the UTF-8 byte order mark `EF BB BF`.
    static func hasByteOrderMark(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        prefix.count >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF
    }

    /// The offset just past the value starting at `start` (whitespace already skipped), in bytes
    /// known to be well-formed JSON (`endOfValue`; the bytes' end where it finds none). Used by the
    /// field locator, never on unvalidated input.
    static func skipValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        endOfValue(in: bytes, from: start) ?? bytes.count
    }

    /// Skips whitespace from `start`; returns the first offset that is not whitespace.
    @inline(__always)
    static func skipWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        while i < end, isWhitespace(bytes[i]) { i += 1 }
        return i
    }
}
