import FerryCore

/// The pieces a renderer writes for every member (`,"key":` and a plain string value), in line
/// at the caller: the general pieces in `JSONTextAppending.swift` are calls across the module
/// boundary with a closure each, about half of what a string member cost. The bytes are the same
/// as those pieces write; anything unusual (a long key, a key or text with something to escape)
/// falls back to them.
extension ByteBuffer {
    /// Appends `,` when `comma`, then `"key":`: the bytes `append(JSONSyntax.comma)`,
    /// `appendJSONString(key)` and `append(JSONSyntax.colon)` append, for any key. A key of up to
    /// 16 bytes with nothing to escape (a field name) is checked and stored as two words with the
    /// comma, under one `reserve`.
    @inlinable @inline(__always)
    public mutating func appendJSONMember(_ key: String, comma: Bool) {
        let done = key.utf8.withContiguousStorageIfAvailable { appendPlainShortKey($0, comma: comma) }
        if done != true {
            if comma { append(0x2C) }
            appendJSONString(key)
            append(0x3A)
        }
    }

    /// Appends `,` when `comma`, then `"key":`, for a key of 16 bytes or fewer with nothing to
    /// escape; false, appending nothing, for any other key.
    @inlinable @inline(__always)
    mutating func appendPlainShortKey(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool) -> Bool {
        let count = utf8.count
        guard count <= 16, let start = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        // The key as one word padded with spaces under eight bytes (`shortWord`), else as its
        // first eight bytes and its last eight (overlapping when shorter than 16).
        let first = count >= 8 ? raw.loadUnaligned(as: UInt64.self) : Self.shortWord(start, count: count)
        guard !JSONSyntax.hasStringSpecial(first) else { return false }
        let last = count > 8 ? raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) : first
        if count > 8, JSONSyntax.hasStringSpecial(last) { return false }
        // Room for the comma, the quotes, the colon and a whole word past a short key.
        reserve(20)
        var target = UnsafeMutableRawPointer(base + self.count)
        if comma {
            target.storeBytes(of: 0x2C, as: UInt8.self)  // ,
            target += 1
            self.count += 1
        }
        target.storeBytes(of: 0x22, as: UInt8.self)  // "
        target.storeBytes(of: first, toByteOffset: 1, as: UInt64.self)
        if count > 8 { target.storeBytes(of: last, toByteOffset: 1 + count - 8, as: UInt64.self) }
        target.storeBytes(of: 0x3A22, toByteOffset: 1 + count, as: UInt16.self)  // ":
        self.count += count + 3
        return true
    }

    /// Appends `text` in quotes as `appendJSONString(_:)` does (the same bytes for every string),
    /// copying a text with nothing to escape eight bytes at a time in line, checking as it copies;
    /// a text with a quote, a backslash or a control character, or without contiguous UTF-8,
    /// takes `appendJSONString(_:)`.
    @inlinable @inline(__always)
    public mutating func appendJSONStringInline(_ text: String) {
        let done = text.utf8.withContiguousStorageIfAvailable { appendPlainQuoted($0) }
        if done != true { appendJSONString(text) }
    }

    /// Appends `"text"` when no byte of `utf8` needs an escape; false, appending nothing (the
    /// bytes past `count` may have been written over), when one does.
    @inlinable @inline(__always)
    mutating func appendPlainQuoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        // The quotes, the text, and a whole word past a short text.
        reserve(count &+ 10)
        let target = base + self.count
        guard let source = utf8.baseAddress, count > 0 else {
            UnsafeMutableRawPointer(target).storeBytes(of: 0x2222, as: UInt16.self)  // ""
            self.count += 2
            return true
        }
        target[0] = 0x22
        if count < 8 {
            let word = Self.shortWord(source, count: count)
            guard !JSONSyntax.hasStringSpecial(word) else { return false }
            UnsafeMutableRawPointer(target + 1).storeBytes(of: word, as: UInt64.self)
        } else {
            var i = 0
            while i &+ 8 <= count {
                let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                guard !JSONSyntax.hasStringSpecial(word) else { return false }
                UnsafeMutableRawPointer(target + 1 + i).storeBytes(of: word, as: UInt64.self)
                i &+= 8
            }
            if i < count {
                // The last eight bytes hold the rest (the ones before them were checked already).
                let word = UnsafeRawPointer(source + (count &- 8)).loadUnaligned(as: UInt64.self)
                guard !JSONSyntax.hasStringSpecial(word) else { return false }
                UnsafeMutableRawPointer(target + 1 + (count &- 8)).storeBytes(of: word, as: UInt64.self)
            }
        }
        target[1 + count] = 0x22
        self.count += count &+ 2
        return true
    }

    /// Appends `double` exactly as `appendJSONNumber(_:)` does (false, appending nothing, for NaN
    /// and infinities), with its two usual cases in line: a whole number below 10^15 (its integer's
    /// digits; `-0` and `0` as `0`) and a number one decimal spells (`13.5`, `-0.5`), found as
    /// `appendJSONNumber`'s one-decimal step finds it (`double × 10` rounded half away from zero,
    /// below 2^50, divided back to `double`), so the bytes are the same; any other number takes
    /// `appendJSONNumber(_:)`.
    @inlinable @inline(__always)
    public mutating func appendJSONNumberInline(_ double: Double) -> Bool {
        // NaN fails the comparison and goes to the general path, as infinities do.
        guard double.magnitude < 1e15 else { return appendJSONNumber(double) }
        let whole = Int64(double)
        if Double(whole) == double {
            appendJSONInteger(whole)
            return true
        }
        let tenths = double * 10
        if tenths.magnitude < 0x1p50 {
            let nearest = Int64(tenths + (tenths < 0 ? -0.5 : 0.5))
            if Double(nearest) / 10 == double {
                appendTenths(nearest)
                return true
            }
        }
        return appendJSONNumber(double)
    }

    /// Appends `value × 10^-1` in fixed notation (`-`, the integer digits or `0`, `.`, one digit),
    /// as `appendDecimal(value, decimals: 1)` writes it; `value` is not a multiple of 10.
    @inlinable
    mutating func appendTenths(_ value: Int64) {
        var magnitude = value.magnitude
        let last = UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
        // Sign, up to 15 integer digits, the point and the digit: written backwards into two
        // words' room past the reserved end, then moved into place.
        reserve(24)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let length = withUnsafeMutableBytes(of: &digits) { raw -> Int in
            var i = raw.count - 1
            raw[i] = 0x30 &+ last
            i -= 1
            raw[i] = 0x2E  // .
            repeat {
                i -= 1
                raw[i] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                i -= 1
                raw[i] = 0x2D  // -
            }
            let length = raw.count - i
            (base + count).update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + i, count: length)
            return length
        }
        count += length
    }
}
