import FerryCore

/// 64 bytes of input looked at together with Swift's SIMD types, the first stage of simdjson
/// (Langdale and Lemire, "Parsing Gigabytes of JSON per Second", 2019): each comparison of the
/// block against one byte value gives a 64-bit mask, bit `i` for byte `i`, so the scans that
/// use it (`BracketScan`, `ByteBlock.advance`) handle a whole block in a few dozen instructions
/// and look at single bytes only where a mask has a bit.
///
/// Only portable SIMD operations are used (no intrinsics, no compiler flags): the comparisons
/// compile to SSE2 or NEON vector compares, and the masks are gathered from the compare results
/// eight bytes at a time by one multiplication (`bits(_:)`). Everything after the comparisons
/// works on the result's eight words: Swift's `|`, `&` and `wrappedSum()` on vectors are
/// lane-by-lane loops (only the comparisons and `&+`, `&-`, `&*` have vector forms), and were
/// slower than the byte-at-a-time scans (callgrind).
struct ByteBlock {
    /// Bytes in a block.
    static let size = 64

    let bytes: SIMD64<UInt8>

    /// The 64 bytes at `pointer` (no alignment needed).
    @inline(__always)
    init(_ pointer: UnsafeRawPointer) {
        bytes = pointer.loadUnaligned(as: SIMD64<UInt8>.self)
    }

    /// Bit `i` set where byte `i` is `value`.
    @inline(__always)
    func mask(_ value: UInt8) -> UInt64 {
        Self.bits(bytes .== SIMD64(repeating: value))
    }

    /// Bit `i` set where byte `i` is `{`, `[`, `}` or `]`: four comparisons, their words joined
    /// before one gathering (`|` on SIMD vectors is a lane-by-lane loop; the comparisons are not).
    @inline(__always)
    var brackets: UInt64 {
        let a = Self.words(bytes .== SIMD64(repeating: JSONSyntax.openBrace))
        let b = Self.words(bytes .== SIMD64(repeating: JSONSyntax.openBracket))
        let c = Self.words(bytes .== SIMD64(repeating: JSONSyntax.closeBrace))
        let d = Self.words(bytes .== SIMD64(repeating: JSONSyntax.closeBracket))
        return Self.gather((a.0 | b.0 | c.0 | d.0, a.1 | b.1 | c.1 | d.1, a.2 | b.2 | c.2 | d.2, a.3 | b.3 | c.3 | d.3,
                            a.4 | b.4 | c.4 | d.4, a.5 | b.5 | c.5 | d.5, a.6 | b.6 | c.6 | d.6, a.7 | b.7 | c.7 | d.7))
    }

    /// True when some byte is `value` (cheaper than its mask).
    @inline(__always)
    func contains(_ value: UInt8) -> Bool {
        let w = Self.words(bytes .== SIMD64(repeating: value))
        return w.0 | w.1 | w.2 | w.3 | w.4 | w.5 | w.6 | w.7 != 0
    }

    /// The number of bytes that are `value`.
    @inline(__always)
    func count(_ value: UInt8) -> Int {
        let w = Self.words(bytes .== SIMD64(repeating: value))
        // Each matching byte is 0xFF: its low bit counts it, and a multiplication sums a word's.
        @inline(__always) func sum(_ word: UInt64) -> UInt64 { word & JSONSyntax.lowBits }
        let total = sum(w.0) &+ sum(w.1) &+ sum(w.2) &+ sum(w.3) &+ sum(w.4) &+ sum(w.5) &+ sum(w.6) &+ sum(w.7)
        return Int((total &* JSONSyntax.lowBits) >> 56)
    }

    /// The number of UTF-8 continuation bytes (`0x80...0xBF`, below -64 as signed bytes: one
    /// comparison): the characters a block without a line feed adds to a column are its bytes
    /// less these, as `JSONSyntax.position` counts them.
    @inline(__always)
    func continuationCount() -> Int {
        let signed = unsafeBitCast(bytes, to: SIMD64<Int8>.self)
        let w = Self.words(signed .< SIMD64(repeating: -64))
        @inline(__always) func sum(_ word: UInt64) -> UInt64 { word & JSONSyntax.lowBits }
        let total = sum(w.0) &+ sum(w.1) &+ sum(w.2) &+ sum(w.3) &+ sum(w.4) &+ sum(w.5) &+ sum(w.6) &+ sum(w.7)
        return Int((total &* JSONSyntax.lowBits) >> 56)
    }

    /// The mask of a comparison: each lane of `mask` is all ones or all zeros, so each byte's high
    /// bit is its lane; multiplying a word's high bits (at bits 7, 15, ..., 63) by 0x02040810204081
    /// moves bit `8k + 7` to bit `56 + k`, with no carries between them.
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD64<Int8>>) -> UInt64 { gather(words(mask)) }

    /// The high bit of each byte of the eight words, bit `i` for byte `i`.
    @inline(__always)
    static func gather(_ w: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
        @inline(__always) func gathered(_ word: UInt64) -> UInt64 { ((word & JSONSyntax.highBits) &* 0x0002_0408_1020_4081) >> 56 }
        return gathered(w.0) | gathered(w.1) << 8 | gathered(w.2) << 16 | gathered(w.3) << 24
            | gathered(w.4) << 32 | gathered(w.5) << 40 | gathered(w.6) << 48 | gathered(w.7) << 56
    }

    /// The eight little-endian words of a comparison's result.
    @inline(__always)
    static func words(_ mask: SIMDMask<SIMD64<Int8>>) -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        unsafeBitCast(mask, to: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64).self)
    }

    /// Bit `i` set where an odd number of bits `0...i` of `mask` are set: between a quote that
    /// opens a string (included) and the quote that closes it (excluded).
    @inline(__always)
    static func prefixXor(_ mask: UInt64) -> UInt64 {
        var x = mask
        x ^= x << 1
        x ^= x << 2
        x ^= x << 4
        x ^= x << 8
        x ^= x << 16
        x ^= x << 32
        return x
    }

    /// The bytes a backslash escapes, given the block's backslashes and whether the block's first
    /// byte is escaped (the last block ended with an escaping backslash); `carry` becomes whether
    /// the next block's first byte is. A run of backslashes escapes every other one, and its last
    /// escapes the byte after it when the run's length is odd (simdjson's `json_escape_scanner`:
    /// a subtraction sorts the runs that start on even bytes from those that start on odd ones).
    @inline(__always)
    static func escaped(by backslashes: UInt64, carry: inout Bool) -> UInt64 {
        let first: UInt64 = carry ? 1 : 0
        guard backslashes != 0 else {
            carry = false
            return first
        }
        let oddBits: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
        let potential = backslashes & ~first
        let maybeEscaped = potential << 1
        let codes = ((maybeEscaped | oddBits) &- potential) ^ oddBits
        let escaped = codes ^ (backslashes | first)
        carry = (codes & backslashes) >> 63 != 0
        return escaped
    }

    /// The position of `bytes[offset]`, counting from `bytes[from]` at `position`, as
    /// `JSONSyntax.position` counts it (lines end at LF, columns count Unicode scalars). Whole
    /// blocks only count their line feeds (no mask needed); the column is then counted from the
    /// last line feed, found by looking back from the end, which in indented JSON is a few bytes.
    static func advance(
        _ position: TextPosition, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to offset: Int
    ) -> TextPosition {
        let stop = min(offset, bytes.count)
        guard let base = bytes.baseAddress, stop - from >= size else {
            return JSONSyntax.position(in: bytes, from: from, at: position, to: stop)
        }
        var newlines = 0
        var i = from
        while stop - i >= size {
            newlines += ByteBlock(UnsafeRawPointer(base + i)).count(JSONSyntax.newline)
            i += size
        }
        guard newlines > 0 else {
            // One long line (a compact document): its whole blocks' characters counted a block
            // at a time, a few times faster than `JSONSyntax.position`'s eight bytes at a time.
            var column = position.column
            var j = from
            while j < i {
                column += size - ByteBlock(UnsafeRawPointer(base + j)).continuationCount()
                j += size
            }
            return JSONSyntax.position(in: bytes, from: i, at: TextPosition(line: position.line, column: column), to: stop)
        }
        var lineStart = i
        while base[lineStart - 1] != JSONSyntax.newline { lineStart -= 1 }
        return JSONSyntax.position(
            in: bytes, from: lineStart, at: TextPosition(line: position.line + newlines, column: 1), to: stop)
    }
}
