/// Byte searches the CSV scanners run over every input byte, eight bytes at a time (SWAR: "SIMD
/// within a register"): a word with a zero byte is found with `(x - 0x01..) & ~x & 0x80..`, whose
/// lowest set bit marks the first zero byte exactly (borrows only set bits above it).
enum CSVByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of every byte of `x` that is zero, plus maybe some above the first one.
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// The eight bytes at `p + i`, the first one in the lowest bits.
    @inline(__always)
    private static func word(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// The index of the first byte in `p[i..<end]` equal to `a`, `b`, `c` or `d`; `end` when none is.
    /// Reads only bytes before `end`.
    @inline(__always)
    static func first(in p: UnsafePointer<UInt8>, from i: Int, to end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int {
        var i = i
        let ma = ones &* UInt64(a), mb = ones &* UInt64(b), mc = ones &* UInt64(c), md = ones &* UInt64(d)
        while i + 8 <= end {
            let w = word(p, i)
            let m = zeroBytes(w ^ ma) | zeroBytes(w ^ mb) | zeroBytes(w ^ mc) | zeroBytes(w ^ md)
            if m != 0 { return i + m.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            let x = p[i]
            if x == a || x == b || x == c || x == d { return i }
            i += 1
        }
        return end
    }

    /// The index of the first byte in `p[i..<end]` equal to `a`, `b` or `c`; `end` when none is.
    @inline(__always)
    static func first(in p: UnsafePointer<UInt8>, from i: Int, to end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        first(in: p, from: i, to: end, a, b, c, c)
    }

    /// The number of Unicode scalars starting in `p[i..<end]`: the bytes that are not UTF-8
    /// continuation bytes (`10xxxxxx`), as column numbers count them.
    static func scalarCount(in p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        var continuations = 0
        while i + 8 <= end {
            let w = word(p, i)
            // Bit 7 set and bit 6 clear, per byte (the shift brings bit 6 under bit 7).
            continuations += (w & ~(w << 1) & highs).nonzeroBitCount
            i += 8
        }
        while i < end {
            if p[i] & 0xC0 == 0x80 { continuations += 1 }
            i += 1
        }
        return max(end - start, 0) - continuations
    }
}
