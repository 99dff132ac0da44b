#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer written through a raw pointer, for the CSV writer's hot loops: the
/// caller reserves room once (`reserve`) and then stores bytes with no per-byte capacity checks.
///
/// A value type holding manually allocated memory: its owner keeps exactly one copy and calls
/// `deallocate()` once, in its `deinit`.
struct CSVByteBuffer {
    /// The first byte; `count` bytes are in use, `capacity` are allocated.
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes in use. Lowering it drops bytes from the end; raise it only over bytes written
    /// within room made by `reserve`.
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Frees the memory; the buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    /// The bytes in use.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes after `count`.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        _ = memcpy(newBase, base, count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        _ = memcpy(base + count, source, n)
        count += n
    }

    /// Appends a string's UTF-8 bytes.
    mutating func append(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            if let start = utf8.baseAddress { append(start, count: utf8.count) }
        }
        if done == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends `value` as a LEB128 varint (7 bits a byte, low bits first).
    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var v = value
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            count += 1
            v >>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: v)
        count += 1
    }

    /// Drops the first `n` bytes, moving the rest to the front.
    mutating func removeFirst(_ n: Int) {
        let kept = count - n
        // The regions may overlap: memmove.
        if kept > 0 { _ = memmove(base, base + n, kept) }
        count = max(kept, 0)
    }
}
