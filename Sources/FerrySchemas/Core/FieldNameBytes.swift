/// A field name's UTF-8 held in two words, so that a reader of input bytes can tell whether a key
/// is the name with two loads and two compares, making no `String` (field names are short ASCII:
/// SCHEMAS.md's longest has 15 bytes; a name of more than 16 is compared as a `String`).
public struct FieldNameBytes: Sendable, Hashable {
    /// The name's length in UTF-8 bytes.
    public let count: Int
    /// The name's first bytes as `matches(_:)` loads them: eight from 8 bytes on, four from 4, all
    /// of a shorter name (little-endian).
    @usableFromInline let head: UInt64
    /// The name's last eight bytes from 8 bytes on, its last four from 4 (overlapping `head`), else 0.
    @usableFromInline let tail: UInt64

    /// The bytes of `name`.
    public init(_ name: String) {
        let utf8 = Array(name.utf8)
        count = utf8.count
        func word(_ start: Int, _ width: Int) -> UInt64 {
            var value: UInt64 = 0
            for k in 0..<width where start + k < utf8.count { value |= UInt64(utf8[start + k]) << UInt64(8 * k) }
            return value
        }
        switch count {
        case 8...: (head, tail) = (word(0, 8), word(count - 8, 8))
        case 4..<8: (head, tail) = (word(0, 4), word(count - 4, 4))
        default: (head, tail) = (word(0, count), 0)
        }
    }

    /// True when the name can be compared by `matches(_:)` (at most 16 bytes).
    @inlinable
    public var isShort: Bool { count <= 16 }

    /// True when the `count` bytes at `p` are the name (`isShort` names only). Reads those bytes
    /// and no others.
    @inlinable @inline(__always)
    public func matches(_ p: UnsafePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(p)
        if count >= 8 {
            return raw.loadUnaligned(as: UInt64.self) == head
                && raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == tail
        }
        if count >= 4 {
            return UInt64(raw.loadUnaligned(as: UInt32.self)) == head
                && UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) == tail
        }
        var value: UInt64 = 0
        for k in 0..<count { value |= UInt64(p[k]) << UInt64(8 * k) }
        return value == head
    }
}
