import CByteMasks
import FerryCore

/// 64 bytes of input looked at together, the first stage of simdjson (Langdale and Lemire,
/// "Parsing Gigabytes of JSON per Second", 2019): each comparison of the block against one byte
/// value gives a 64-bit mask, bit `i` for byte `i`, so the scans that use it (`BracketScan`,
/// `ByteBlock.advance`) handle a whole block in a few dozen instructions and look at single bytes
/// only where a mask has a bit. The masks come from `CByteMasks` (SSE2's compares and move masks
/// on x86-64, a portable loop elsewhere).
struct ByteBlock {
    /// Bytes in a block.
    static let size = 64

    let pointer: UnsafePointer<UInt8>

    /// The 64 bytes at `pointer` (no alignment needed).
    @inline(__always)
    init(_ pointer: UnsafeRawPointer) {
        self.pointer = pointer.assumingMemoryBound(to: UInt8.self)
    }

    /// Bit `i` set where byte `i` is `value`.
    @inline(__always)
    func mask(_ value: UInt8) -> UInt64 { CByteMasks_equal(pointer, value) }

    /// The masks of the quotes, backslashes and brackets (`{`, `[`, `}`, `]`), from one load of
    /// the block.
    @inline(__always)
    var jsonMasks: CByteMasksJSON { CByteMasks_json(pointer) }

    /// The number of bytes that are `value`.
    @inline(__always)
    func count(_ value: UInt8) -> Int { mask(value).nonzeroBitCount }

    /// The number of UTF-8 continuation bytes (`0x80...0xBF`, below -64 as signed bytes: one
    /// comparison): the characters a block without a line feed adds to a column are its bytes
    /// less these, as `JSONSyntax.position` counts them.
    @inline(__always)
    func continuationCount() -> Int { continuationMask().nonzeroBitCount }

    /// Bit `i` set where byte `i` is a UTF-8 continuation byte (`continuationCount`'s).
    @inline(__always)
    func continuationMask() -> UInt64 { CByteMasks_signedBelow(pointer, -64) }

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
    /// blocks only count their line feeds; the rest, and the column from the last line feed, are
    /// counted in the 64 bytes that end at the offset (else by looking back for that line feed).
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
        // The rest, under 64 bytes, through the block that ends at `stop` (its first bytes were
        // counted already): its line feeds counted, and the column counted from the last line feed
        // in it, which indented JSON nearly always has (between two elements, `},` and the next
        // line's indentation).
        let window = ByteBlock(UnsafeRawPointer(base + stop - size))
        let lineFeeds = window.mask(JSONSyntax.newline)
        newlines += (lineFeeds & (~0 << UInt64(i - (stop - size)))).nonzeroBitCount
        if lineFeeds != 0 {
            let last = size - 1 - lineFeeds.leadingZeroBitCount
            let after: UInt64 = last == size - 1 ? 0 : ~0 << UInt64(last + 1)
            let characters = (after & ~window.continuationMask()).nonzeroBitCount
            return TextPosition(line: position.line + newlines, column: 1 + characters)
        }
        var lineStart = i
        while base[lineStart - 1] != JSONSyntax.newline { lineStart -= 1 }
        return JSONSyntax.position(
            in: bytes, from: lineStart, at: TextPosition(line: position.line + newlines, column: 1), to: stop)
    }
}
