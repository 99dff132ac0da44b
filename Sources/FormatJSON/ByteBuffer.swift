#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer that encoders append to through a raw pointer: one capacity check per
/// append and, because it cannot be copied, no copy-on-write uniqueness check at all (an `[UInt8]`
/// pays both on every `append`).
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Makes room for `extra` more bytes, so that many `appendReserved` calls need no check.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends a byte where `reserve` already made room for it.
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Appends bytes where `reserve` already made room for them.
    @inline(__always)
    mutating func appendReserved(_ source: UnsafePointer<UInt8>, count length: Int) {
        (base + count).update(from: source, count: length)
        count &+= length
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Drops everything from `mark` on (a `count` taken earlier).
    mutating func truncate(to mark: Int) {
        if mark < count { count = max(mark, 0) }
    }

    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes written.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// A copy of the bytes written.
    var array: [UInt8] { withBytes { Array($0) } }
}
