import FerryCore

/// The pieces of JSON text that `JSONSerializer` writes, as appends to a `ByteBuffer`, so that a
/// writer that does not hold a `Value` (the typed path's `JSONLinesFieldSink`, issue 7) writes
/// exactly the same bytes: strings escaped as SCHEMAS.md "Formats: JSON document" says, integers as
/// decimal digits, doubles in the ECMAScript form (`NumberText.ecmaScript`).
extension ByteBuffer {
    /// Appends `text` in quotes, raw UTF-8 with only `"`, `\` and control characters escaped
    /// (`\b \f \n \r \t`, others `\u00xx` in lower-case hex); `/` and U+2028 are not escaped.
    public mutating func appendJSONString(_ text: String) {
        // Native strings (and small ones) hand out their UTF-8 without a copy of the string.
        if text.utf8.withContiguousStorageIfAvailable({ appendJSONQuoted($0) }) == nil {
            var copy = text
            copy.withUTF8 { appendJSONQuoted($0) }
        }
    }

    /// Appends UTF-8 text in quotes, escaped as `appendJSONString(_:)` escapes it.
    public mutating func appendJSONQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        // Room for the quotes and the text as it is (the usual string has nothing to escape), and
        // the slack `copyPlainJSONText` stores a short text's last word into.
        reserve(count + 2 + Self.plainCopySlack)
        appendReserved(JSONSyntax.quote)
        guard let start = utf8.baseAddress, count > 0 else {
            appendReserved(JSONSyntax.quote)
            return
        }
        let copied = Self.copyPlainJSONText(start, count: count, to: base + self.count)
        self.count += copied
        if copied < count { appendJSONEscaping(start, from: copied, count: count) }
        append(JSONSyntax.quote)
    }

    /// The bytes `copyPlainJSONText` may write past the text: a text shorter than eight bytes is
    /// stored as one whole word.
    @usableFromInline static let plainCopySlack = 7

    /// Copies bytes of `source` to `target` up to the first one JSON must escape, eight at a time
    /// while none of the eight needs it (checking and copying in one pass, no call to memcpy for
    /// the short strings records are made of); returns how many were copied. `target` has room
    /// for `count + plainCopySlack` bytes (the bytes after the copied ones are left undefined).
    @inline(__always)
    static func copyPlainJSONText(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        if count < 8 {
            // One word gathered without a byte loop, checked, and stored whole into the slack.
            let word = shortWord(source, count: count)
            if !JSONSyntax.hasStringSpecial(word) {
                UnsafeMutableRawPointer(target).storeBytes(of: word, as: UInt64.self)
                return count
            }
        }
        var i = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
            if JSONSyntax.hasStringSpecial(word) { break }
            UnsafeMutableRawPointer(target + i).storeBytes(of: word, as: UInt64.self)
            i += 8
        }
        // Fewer than eight bytes left, none special so far: the last eight bytes of the text, when
        // it has eight, hold them (the bytes before were checked already and are the same).
        if i < count, i + 8 > count, count >= 8 {
            let word = UnsafeRawPointer(source + (count - 8)).loadUnaligned(as: UInt64.self)
            if !JSONSyntax.hasStringSpecial(word) {
                UnsafeMutableRawPointer(target + (count - 8)).storeBytes(of: word, as: UInt64.self)
                return count
            }
        }
        while i < count, !needsJSONEscape(source[i]) {
            target[i] = source[i]
            i += 1
        }
        return i
    }

    /// The `count` bytes (0...7) at `source` as a little-endian word, read by two overlapping
    /// loads (never past `source + count`); the bytes above them are spaces (nothing to escape).
    @inlinable @inline(__always)
    static func shortWord(_ source: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(source)
        let word: UInt64
        if count >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            word = low | high << UInt64(8 * (count - 4))
        } else if count >= 2 {
            let low = UInt64(raw.loadUnaligned(as: UInt16.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self))
            word = low | high << UInt64(8 * (count - 2))
        } else {
            word = count == 1 ? UInt64(source[0]) : 0
        }
        let spaces: UInt64 = 0x2020_2020_2020_2020
        return word | spaces << UInt64(8 * count)
    }

    /// Appends the decimal digits of an integer (`-` first when negative).
    public mutating func appendJSONInteger(_ value: Int64) {
        var magnitude = value.magnitude
        if magnitude < 10 {
            reserve(2)
            if value < 0 { appendReserved(JSONSyntax.minus) }
            appendReserved(JSONSyntax.zero &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits without allocating
        withUnsafeMutableBytes(of: &digits) { raw in
            // Digits are written backwards from the end of `raw`, then copied in one piece.
            var first = raw.count
            while magnitude > 0 {
                first -= 1
                raw[first] = JSONSyntax.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            reserve(raw.count - first + 1)
            if value < 0 { appendReserved(JSONSyntax.minus) }
            if let base = raw.baseAddress {
                appendReserved(base.assumingMemoryBound(to: UInt8.self) + first, count: raw.count - first)
            }
        }
    }

    /// Appends a finite double in the ECMAScript form (`13`, `0.5`, `1e-7`, `1e+21`; `-0` as `0`),
    /// without building a `String` for whole numbers. The cases follow `NumberText.ecmaScript`,
    /// which does the rare exponent forms.
    /// - Returns: false, appending nothing, for NaN and infinities (no JSON form: RFC 8259 section 6).
    public mutating func appendJSONNumber(_ double: Double) -> Bool {
        guard double.isFinite else { return false }
        // Whole numbers up to 2^53 are their integer's digits (every integer there is a double, so
        // no shorter decimal reads as the same one; tested by one conversion and its way back, not
        // `Int64(exactly:)`'s call to `trunc`). Above, the shortest digits are padded with zeros,
        // and Swift's `description` of 10^15 ... 2^53 would end in `.0`.
        let whole = double.magnitude <= 9_007_199_254_740_992 ? Int64(double) : nil
        if double == 0 {
            append(JSONSyntax.zero)
        } else if let whole, Double(whole) == double {
            appendJSONInteger(whole)
        } else if appendShortDecimal(double) {
            // One to three decimals (4.5, 13.5, 0.55): written without building a `String`.
        } else {
            let description = double.description
            // Swift writes 1e-4 <= |value| < 2^53 without an exponent, in the ECMAScript form.
            if !description.utf8.contains(UInt8(ascii: "e")) {
                append(description)
            } else if let text = NumberText.ecmaScript(double) {
                append(text)
            }
        }
        return true
    }

    /// Appends a number that one to three decimals spell exactly as Swift's shortest round-trip
    /// form would (`4.5`, `13.5`, `0.55`, `-0.125`); false, appending nothing, for any other.
    ///
    /// Why the bytes are the `description`'s: for the fewest decimals `k` at which `m / 10^k`
    /// (`m` = `double × 10^k` rounded) divides back to `double`, the decimal `m × 10^-k` reads back
    /// as `double` (IEEE division and decimal reading both round the same real number correctly).
    /// With `|m| < 2^50` the spacing of doubles near `double` is under a quarter of `10^-k`, so no
    /// other `k`-decimal number reads back as it, and none with fewer decimals does (`m` would have
    /// been found at that `k`): it is the unique shortest form, which `description` writes in
    /// fixed notation for `1e-4 <= |double| < 2^53` (here `|double| >= 0.001`), with no trailing zero
    /// (`m` ending in 0 would have been found one decimal earlier).
    ///
    /// `m` is found by converting `double × 10^k ± 0.5` to an integer (no call to `round`): the
    /// nearest integer, half away from zero, as `rounded()` gives it, except where the addition
    /// itself rounds (tiny products); any `m` is checked by dividing it back, and by the above
    /// only the one `m` can pass, so a rounding slip only sends the number on to the next `k`.
    private mutating func appendShortDecimal(_ double: Double) -> Bool {
        var scale = 1.0
        for decimals in 1...3 {
            scale *= 10
            let product = double * scale
            guard product.magnitude < 0x1p50 else { return false }
            let nearest = Int64(product + (product < 0 ? -0.5 : 0.5))
            if Double(nearest) / scale == double {
                appendDecimal(nearest, decimals: decimals)
                return true
            }
        }
        return false
    }

    /// Appends `value × 10^-decimals` in fixed notation: `-`, the integer digits (`0` when none),
    /// `.`, exactly `decimals` digits. `value` is not 0 and `|value| < 2^50`. The digits are
    /// counted first and written backwards in place.
    private mutating func appendDecimal(_ value: Int64, decimals: Int) {
        var magnitude = value.magnitude
        var digits = 1
        var power: UInt64 = 10
        while digits < 19, magnitude >= power {
            digits += 1
            power &*= 10
        }
        digits = max(digits, decimals + 1)  // a 0 before the point when there are no integer digits
        let length = digits + 1 + (value < 0 ? 1 : 0)
        reserve(length)
        var i = count + length - 1
        for written in 0..<digits {
            if written == decimals {
                base[i] = JSONSyntax.dot
                i -= 1
            }
            base[i] = JSONSyntax.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            i -= 1
        }
        if value < 0 { base[i] = JSONSyntax.minus }
        count += length
    }

    /// Appends `value` as compact JSON, exactly as `JSONLinesWriter` writes a value inside a line.
    /// - Parameter depth: how deep the value stands in what the writer writes, as it counts it
    ///   (0 for the record or for a member of a line with `$collection`, 1 for a member of a line
    ///   without; one more for each object or list around it).
    /// - Throws: `FerryError(.invalidValue)` for NaN and infinities; `FerryError(.tooDeep)` when a
    ///   container stands deeper than 512 levels. On a throw the buffer holds part of the value.
    public mutating func appendJSONValue(_ value: Value, depth: Int = 0) throws {
        // The serializer owns its buffer: lend it this one for the call (a swap moves no bytes).
        var serializer = JSONSerializer(pretty: false, capacity: 0)
        swap(&serializer.bytes, &self)
        defer { swap(&serializer.bytes, &self) }
        try serializer.appendValue(value, indent: 0, depth: depth)
    }

    /// Appends `value` in the pretty form (`JSON.stringify(value, null, 2)`), exactly as
    /// `JSONDocumentWriter` writes a value whose first line is already indented at `indent` levels.
    /// - Parameter depth: how deep the value stands in the record the writer writes, as it counts
    ///   it (0 for the record, 1 for one of its members; one more for each object or list around it).
    /// - Throws: as `appendJSONValue(_:depth:)`. On a throw the buffer holds part of the value.
    public mutating func appendPrettyJSONValue(_ value: Value, depth: Int, indent: Int) throws {
        var serializer = JSONSerializer(pretty: true, capacity: 0)
        swap(&serializer.bytes, &self)
        defer { swap(&serializer.bytes, &self) }
        try serializer.appendValue(value, indent: indent, depth: depth)
    }

    /// Appends UTF-8 text escaped as `appendJSONQuoted(_:)` escapes it, without the quotes. The
    /// escaping is byte by byte, so a text split anywhere (inside a multi-byte character too) and
    /// appended piece by piece gives the same bytes as the whole.
    mutating func appendJSONEscapedPiece(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        guard let start = utf8.baseAddress, count > 0 else { return }
        reserve(count + Self.plainCopySlack)
        let copied = Self.copyPlainJSONText(start, count: count, to: base + self.count)
        self.count += copied
        if copied < count { appendJSONEscaping(start, from: copied, count: count) }
    }

    @inline(__always)
    static func needsJSONEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == JSONSyntax.quote || byte == JSONSyntax.backslash
    }

    private static let jsonHexDigits: StaticString = "0123456789abcdef"

    /// Appends `start[from..<count]`, escaping what needs it (the rare part of a string).
    private mutating func appendJSONEscaping(_ start: UnsafePointer<UInt8>, from: Int, count: Int) {
        var i = from
        var runStart = from
        while i < count {
            let byte = start[i]
            guard Self.needsJSONEscape(byte) else {
                i += 1
                continue
            }
            append(UnsafeBufferPointer(start: start + runStart, count: i - runStart))
            reserve(6)
            appendReserved(JSONSyntax.backslash)
            switch byte {
            case JSONSyntax.quote: appendReserved(JSONSyntax.quote)
            case JSONSyntax.backslash: appendReserved(JSONSyntax.backslash)
            case 0x08: appendReserved(UInt8(ascii: "b"))
            case 0x0C: appendReserved(UInt8(ascii: "f"))
            case 0x0A: appendReserved(UInt8(ascii: "n"))
            case 0x0D: appendReserved(UInt8(ascii: "r"))
            case 0x09: appendReserved(UInt8(ascii: "t"))
            default:
                let hex = Self.jsonHexDigits.utf8Start
                appendReserved(UInt8(ascii: "u"))
                appendReserved(JSONSyntax.zero)
                appendReserved(JSONSyntax.zero)
                appendReserved(hex[Int(byte >> 4)])
                appendReserved(hex[Int(byte & 0x0F)])
            }
            i += 1
            runStart = i
        }
        append(UnsafeBufferPointer(start: start + runStart, count: count - runStart))
    }
}
