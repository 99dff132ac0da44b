/// Byte searches the CSV scanners run over every input byte, eight bytes at a time (SWAR: "SIMD
/// within a register"). `stops` marks every byte a scanner must look at in one word, exactly,
/// so that a scanner walks from one marked byte to the next with `trailingZeroBitCount` and reads
/// each word once, however short its cells are.
enum CSVByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080
    private static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The eight bytes at `p + i`, the first one in the lowest bits.
    @inline(__always)
    static func word(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// `byte` in every byte of a word.
    @inline(__always)
    static func broadcast(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// The high bit of every byte of `x` that is not zero, exactly (no borrow or carry crosses
    /// bytes: `x & 0x7F.. + 0x7F..` stays below 0x100 per byte).
    @inline(__always)
    private static func nonzeroBytes(_ x: UInt64) -> UInt64 { ((x & lows) &+ lows) | x }

    /// Bit 7 of byte `k` (bit `8k + 7`) set for every byte of `w` that is `a`, `b` (both given
    /// with `broadcast`) or below 0x0E (CR, LF, and the rare other control bytes, which the caller
    /// reads and passes over), all others clear.
    @inline(__always)
    static func stops(_ w: UInt64, _ a: UInt64, _ b: UInt64) -> UInt64 {
        // Bit 7 of `(w & 0x7F) + 0x72` is set for a byte of 0x0E...0x7F; `| w` adds 0x80...0xFF.
        let notControl = ((w & lows) &+ 0x7272_7272_7272_7272) | w
        return ~(nonzeroBytes(w ^ a) & nonzeroBytes(w ^ b) & notControl) & highs
    }

    /// `stops(_:_:_:)` with one byte to find besides the control bytes.
    @inline(__always)
    static func stops(_ w: UInt64, _ a: UInt64) -> UInt64 {
        let notControl = ((w & lows) &+ 0x7272_7272_7272_7272) | w
        return ~(nonzeroBytes(w ^ a) & notControl) & highs
    }

    /// `stops(_:_:_:)` of the `count - i` bytes from `p + i` (one to seven: the end of the bytes
    /// held), reading no byte past them. `i < count`.
    @inline(__always)
    static func stops(tailOf p: UnsafePointer<UInt8>, at i: Int, count: Int, _ a: UInt64, _ b: UInt64) -> UInt64 {
        var w: UInt64 = 0
        var k = 0
        while i + k < count {
            w |= UInt64(p[i + k]) &<< UInt64(8 * k)
            k += 1
        }
        return stops(w, a, b) & (UInt64.max &>> UInt64(64 - 8 * k))
    }

    /// The index of the first byte in `p[i..<end]` that is `byte` (`broadcast` in every byte of
    /// `bytes`) or below 0x0E (`stops(_:_:)`); `end` when none is. Reads only bytes before `end`.
    @inline(__always)
    static func firstStop(in p: UnsafePointer<UInt8>, from i: Int, to end: Int, _ byte: UInt8, _ bytes: UInt64) -> Int {
        var i = i
        while i &+ 8 <= end {
            let m = stops(word(p, i), bytes)
            if m != 0 { return i &+ m.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < end {
            let x = p[i]
            if x == byte || x < 0x0E { return i }
            i &+= 1
        }
        return end
    }

    /// The high bits of the eight bytes of `x`, which has no other bits set, as bits 0 to 7 (bit
    /// `k` for byte `k`): the multiplication moves bit `8k + 7` to bit `56 + k`, and no two of the
    /// partial products meet there.
    @inline(__always)
    static func highBits(_ x: UInt64) -> UInt64 { (x &* 0x0002_0408_1020_4081) &>> 56 }

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
