#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Renders CSV cells straight into a `ByteBuffer`, each as the spool holds it: a varint
/// `length << 1 | invalid`, then the cell's final bytes (quoted, escaped, csv-safe prefixed).
/// The texts are those `CSVWriter` documents; this only makes them cheap to produce:
/// a 256-entry table says which bytes need quoting, integers are rendered digit by digit, and
/// doubles' ECMAScript texts (`NumberText.ecmaScript`, which it calls on a miss) are cached by bit
/// pattern, since a dataset repeats the same few values (ratings, percentages) many times.
///
/// Owns manually allocated memory: its owner calls `deallocate()` once, in its `deinit`.
struct CSVCellEncoder {
    /// Per byte: 0 plain, 1 needs quoting (delimiter, CR, LF), 3 needs quoting and doubling (`"`).
    private let quoteTable: UnsafeMutablePointer<UInt8>
    private let csvSafe: Bool

    /// The double cache: `cacheSlots` slots, direct-mapped by a hash of the bit pattern. Slot `k`
    /// holds the bit pattern in `cacheKeys[k]` and the text in `cacheTexts[k * 32]`: a length
    /// byte (0 = empty slot), then up to 31 bytes.
    private let cacheKeys: UnsafeMutablePointer<UInt64>
    private let cacheTexts: UnsafeMutablePointer<UInt8>
    private static let cacheSlotBits = 12
    private static let cacheSlots = 1 << cacheSlotBits
    private static let slotSize = 32

    init(delimiter: UInt8, csvSafe: Bool) {
        quoteTable = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        quoteTable.initialize(repeating: 0, count: 256)
        quoteTable[Int(delimiter)] = 1
        quoteTable[0x0D] = 1
        quoteTable[0x0A] = 1
        quoteTable[0x22] = 3
        self.csvSafe = csvSafe
        delimiterWord = 0x0101_0101_0101_0101 &* UInt64(delimiter)
        cacheKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.cacheSlots)
        cacheKeys.initialize(repeating: 0, count: Self.cacheSlots)
        cacheTexts = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.cacheSlots * Self.slotSize)
        cacheTexts.initialize(repeating: 0, count: Self.cacheSlots * Self.slotSize)
    }

    /// True when `byte` makes a string cell that holds it quoted: the delimiter, `"`, CR, LF.
    func needsQuoting(_ byte: UInt8) -> Bool { quoteTable[Int(byte)] != 0 }

    func deallocate() {
        quoteTable.deallocate()
        cacheKeys.deallocate()
        cacheTexts.deallocate()
    }

    /// The delimiter repeated in each byte of a word, for `mayNeedQuoting`.
    private let delimiterWord: UInt64

    /// False when none of the word's eight bytes is the delimiter, `"`, CR or LF (the classic
    /// "has a zero byte" test on the word xor each byte repeated; exact for this yes/no question).
    @inline(__always)
    private func mayNeedQuoting(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        return hasZeroByte(word ^ delimiterWord) | hasZeroByte(word ^ (ones &* 0x22))
            | hasZeroByte(word ^ (ones &* 0x0D)) | hasZeroByte(word ^ (ones &* 0x0A)) != 0
    }

    // MARK: - Cells

    /// Appends a scalar's cell: length word and bytes. `.null` (and a container, which has none)
    /// is an empty cell. A double with no CSV form (NaN, infinity) is marked invalid, its text
    /// the one the error at `finish()` names.
    @inline(__always)
    func appendCell(_ value: Value, into out: inout ByteBuffer) {
        switch value {
        case .null, .object, .array:
            out.append(0)
        case .bool(let b):
            appendRaw(b ? "true" : "false", into: &out)
        case .integer(let i):
            appendInteger(i, into: &out)
        case .double(let d):
            appendDouble(d, into: &out)
        case .number(let text):
            appendRaw(text, into: &out)
        case .string(let text):
            appendString(text, into: &out)
        }
    }

    /// Text as it is: length word, then the UTF-8 bytes.
    private func appendRaw(_ text: String, into out: inout ByteBuffer) {
        out.appendVarint(UInt64(text.utf8.count) << 1)
        out.append(text)
    }

    /// An integer's decimal digits, as `String(i)` writes them.
    @inline(__always)
    func appendInteger(_ i: Int64, into out: inout ByteBuffer) {
        let negative = i < 0
        var magnitude = i.magnitude
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20, magnitude >= bound {
            digits += 1
            if digits < 20 { bound &*= 10 }
        }
        let length = digits + (negative ? 1 : 0)
        out.appendVarint(UInt64(length) << 1)
        out.reserve(length)
        let start = out.base + out.count
        if negative { start[0] = UInt8(ascii: "-") }
        var position = length - 1
        repeat {
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
            start[position] = UInt8(truncatingIfNeeded: remainder) &+ 0x30
            magnitude = quotient
            position -= 1
        } while magnitude > 0
        out.count += length
    }

    /// A double's `NumberText.ecmaScript` text, from the cache when it holds the value.
    func appendDouble(_ d: Double, into out: inout ByteBuffer) {
        guard d.isFinite else {
            // No CSV form: the invalid mark, with the number as the error message will name it.
            let text = "\(d)"
            out.appendVarint(UInt64(text.utf8.count) << 1 | 1)
            out.append(text)
            return
        }
        let key = d.bitPattern
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.cacheSlotBits))
        let cached = cacheTexts + slot * Self.slotSize
        if cached[0] != 0, cacheKeys[slot] == key {
            let length = Int(cached[0])
            out.appendVarint(UInt64(length) << 1)
            out.append(cached + 1, count: length)
            return
        }
        let text = NumberText.ecmaScript(d) ?? d.description
        let start = out.count
        appendRaw(text, into: &out)
        let length = text.utf8.count
        guard length > 0, length < Self.slotSize else { return }
        // Copy what was just written (the text follows a one-byte length word) into the slot.
        cacheKeys[slot] = key
        cached[0] = UInt8(length)
        _ = memcpy(cached + 1, out.base + start + 1, length)
    }

    /// A string cell: `""` when empty, the csv-safe `'` when asked, quoted with `""` for each `"`
    /// when it holds the delimiter, a quote, CR or LF (RFC 4180 section 2.6, 2.7).
    /// `lengthWord` false leaves out the spool's length word (for the header line).
    @inline(__always)
    func appendString(_ text: String, into out: inout ByteBuffer, lengthWord: Bool = true) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            appendString(utf8, into: &out, lengthWord: lengthWord)
        }
        if done == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendString($0, into: &out, lengthWord: lengthWord) }
        }
    }

    /// What `appendString` makes of a string's bytes, without writing it: the cell's length, and
    /// whether it is quoted and csv-safe prefixed.
    struct StringCell {
        var length: Int
        var quoted: Bool
        var prefixed: Bool
    }

    /// `StringCell` of `utf8` (not empty), in one pass over its bytes.
    func measureString(_ utf8: UnsafeBufferPointer<UInt8>) -> StringCell {
        var flags: UInt8 = 0
        var quotes = 0
        for byte in utf8 {
            let entry = quoteTable[Int(byte)]
            flags |= entry
            quotes &+= Int(entry >> 1)
        }
        let first = utf8.first ?? 0
        let prefixed = csvSafe && (first == UInt8(ascii: "=") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: "-") || first == UInt8(ascii: "@") || first == 0x09 || first == 0x0D)
        let quoted = flags != 0
        return StringCell(length: utf8.count + (prefixed ? 1 : 0) + (quoted ? 2 + quotes : 0), quoted: quoted, prefixed: prefixed)
    }

    /// Writes the cell `appendString` would append for `utf8` (without the length word) through
    /// `write`, `piece` input bytes at a time rendered in `scratch`: a long string costs `scratch`
    /// (at most twice `piece`), not a second copy of itself.
    func writeString(_ utf8: UnsafeBufferPointer<UInt8>, as cell: StringCell, piece: Int, scratch: inout ByteBuffer,
                     write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let source = utf8.baseAddress else { return }
        scratch.count = 0
        if cell.quoted { scratch.append(0x22) }
        if cell.prefixed { scratch.append(UInt8(ascii: "'")) }
        var k = 0
        while k < utf8.count {
            let m = min(utf8.count - k, piece)
            scratch.reserve(2 * m + 1)
            var p = scratch.base + scratch.count
            if cell.quoted {
                p = Self.copyDoublingQuotes(source + k, count: m, to: p)
            } else {
                _ = memcpy(p, source + k, m)
                p += m
            }
            k += m
            if k == utf8.count && cell.quoted {
                p[0] = 0x22
                p += 1
            }
            scratch.count = p - scratch.base
            try write(scratch.bytes)
            scratch.count = 0
        }
    }

    /// `appendString` on the string's bytes.
    func appendString(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout ByteBuffer, lengthWord: Bool) {
        let n = utf8.count
        guard n > 0, let source = utf8.baseAddress else {
            if lengthWord { out.appendVarint(2 << 1) }
            out.append(0x22)
            out.append(0x22)
            return
        }
        let first = source[0]
        let prefix = csvSafe && (first == UInt8(ascii: "=") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: "-") || first == UInt8(ascii: "@") || first == 0x09 || first == 0x0D)
        // Most strings need no quoting: eight bytes at a time (the last eight once more, overlapping),
        // then, only when a word may need it, the table from that word on: any byte needing quotes,
        // and how many to double.
        var flags: UInt8 = 0
        var quotes = 0
        let raw = UnsafeRawPointer(source)
        var start = 0
        var mayNeed = false
        while n &- start >= 8 {
            if mayNeedQuoting(raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)) {
                mayNeed = true
                break
            }
            start &+= 8
        }
        if !mayNeed, start < n {
            if n >= 8 {
                mayNeed = mayNeedQuoting(raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self))
            } else {
                for k in 0..<n { flags |= quoteTable[Int(source[k])] }
                mayNeed = flags != 0
                flags = 0
            }
        }
        if mayNeed {
            for k in start..<n {
                let entry = quoteTable[Int(source[k])]
                flags |= entry
                quotes &+= Int(entry >> 1)
            }
        }
        let quoted = flags != 0
        let length = n + (prefix ? 1 : 0) + (quoted ? 2 + quotes : 0)
        if lengthWord { out.appendVarint(UInt64(length) << 1) }
        out.reserve(length)
        var p = out.base + out.count
        if quoted {
            p[0] = 0x22
            p += 1
        }
        if prefix {
            p[0] = UInt8(ascii: "'")
            p += 1
        }
        if quotes == 0 {
            p.copyShort(from: source, count: n)
            p += n
        } else {
            // Each byte, and each quote again (such cells are short: a byte loop beats a search and
            // a copy per quote).
            p = Self.copyDoublingQuotes(source, count: n, to: p)
        }
        if quoted { p[0] = 0x22 }
        out.count += length
    }

    /// Copies `count` bytes from `source` to `target`, each `"` twice (RFC 4180 section 2.7);
    /// returns the position after the last byte written.
    @inline(__always)
    private static func copyDoublingQuotes(_ source: UnsafePointer<UInt8>, count: Int,
                                           to target: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = target
        for k in 0..<count {
            let byte = source[k]
            p[0] = byte
            p += 1
            if byte == 0x22 {
                p[0] = 0x22
                p += 1
            }
        }
        return p
    }
}
