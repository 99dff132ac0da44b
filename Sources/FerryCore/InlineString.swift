/// Strings of at most 15 UTF-8 bytes made in place from bytes already checked as well-formed: a
/// string this short is stored inline, in two words (its bytes, then its length and kind in the
/// top byte), so it is made by writing those words, with no check, copy or count of its own.
/// Readers make most of their strings this way: ids, keys, kinds, names, dates in text.
///
/// The layout is the stable one of `String` on 64-bit little-endian platforms
/// (swift/stdlib/public/core/StringObject.swift: the discriminator's immortal, ASCII and small
/// bits, then the count); elsewhere the strings are made by `String(decoding:as:)`.
/// `InlineStringTests` compares the two for every length and kind of text.
public enum InlineString {
    /// The string of the well-formed UTF-8 `bytes[start..<start + length]` (`length` at most 15).
    /// `bytes` must hold 16 bytes from `start`: they are read as two words.
    @inlinable @inline(__always)
    public static func make(_ bytes: UnsafePointer<UInt8>, start: Int, length: Int) -> String {
        let raw = UnsafeRawPointer(bytes + start)
        var low = raw.loadUnaligned(as: UInt64.self)
        var high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if length < 8 {
            low &= (1 &<< UInt64(8 &* length)) &- 1
            high = 0
        } else {
            high &= (1 &<< UInt64(8 &* (length &- 8))) &- 1
        }
        return make(low: low, high: high, UnsafeBufferPointer(start: bytes + start, count: length))
    }

    /// The string of the well-formed UTF-8 `bytes` (at most 15 of them), where nothing may be
    /// read past their end (a CSV cell, an XML text): they are copied into two words first.
    @inlinable @inline(__always)
    public static func make(copying bytes: UnsafeBufferPointer<UInt8>) -> String {
        var words: (low: UInt64, high: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return make(low: words.low, high: words.high, bytes)
    }

    /// The string of `bytes` (at most 15), whose first 16 bytes, zero past the end, are `low` and
    /// `high` (little-endian words).
    @inlinable @inline(__always)
    static func make(low: UInt64, high: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        #if _endian(little) && _pointerBitWidth(_64)
        let isASCII = (low | high) & 0x8080_8080_8080_8080 == 0
        let discriminator: UInt64 = (isASCII ? 0xE0 : 0xA0) | UInt64(truncatingIfNeeded: bytes.count)
        return unsafeBitCast((low, high | discriminator &<< 56), to: String.self)
        #else
        return String(decoding: bytes, as: UTF8.self)
        #endif
    }
}
