#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer that encoders append to through a raw pointer (the JSON serializer, the
/// CSV writer and its spool): one capacity check per append, or none after `reserve`, and, because
/// it cannot be copied, no copy-on-write uniqueness check at all (an `[UInt8]` pays both on every
/// `append`). The memory is freed when the buffer ends.
///
/// Writers that render in place write at `base + count` within room made by `reserve`, then raise
/// `count` over the bytes written.
public struct ByteBuffer: ~Copyable {
    /// The first byte; `capacity` bytes are allocated.
    public private(set) var base: UnsafeMutablePointer<UInt8>
    public private(set) var capacity: Int
    /// Bytes in use. Lowering it drops bytes from the end; raise it only over bytes written
    /// within room made by `reserve`.
    public var count = 0

    /// An empty buffer with room for `capacity` bytes (at least 64).
    public init(capacity: Int) {
        self.capacity = max(capacity, 64)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inlinable public var isEmpty: Bool { count == 0 }

    /// The bytes in use (valid until the next change to the buffer).
    @inlinable public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes after `count`, so that many `appendReserved` calls need no check.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(to: count + extra) }
    }

    @usableFromInline @inline(never)
    mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    /// Appends a byte where `reserve` already made room for it.
    @inlinable @inline(__always)
    public mutating func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        appendReserved(source, count: length)
    }

    /// Appends bytes where `reserve` already made room for them.
    @inlinable @inline(__always)
    public mutating func appendReserved(_ source: UnsafePointer<UInt8>, count length: Int) {
        (base + count).update(from: source, count: length)
        count &+= length
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        append(source, count: bytes.count)
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends a string's UTF-8 bytes.
    public mutating func append(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
        if done == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    /// Appends `value` as a LEB128 varint (7 bits a byte, low bits first).
    @inlinable @inline(__always)
    public mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var v = value
        while v >= 0x80 {
            appendReserved(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        appendReserved(UInt8(truncatingIfNeeded: v))
    }

    /// Drops everything from `mark` on (a `count` taken earlier).
    public mutating func truncate(to mark: Int) {
        if mark < count { count = max(mark, 0) }
    }

    public mutating func removeAll() { count = 0 }

    /// Drops the first `n` bytes, moving the rest to the front.
    public mutating func removeFirst(_ n: Int) {
        let kept = count - n
        // The regions may overlap: memmove.
        if kept > 0 { _ = memmove(base, base + n, kept) }
        count = max(kept, 0)
    }

    /// Calls `body` with the bytes in use.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes in use.
    public var array: [UInt8] { withBytes { Array($0) } }
}
