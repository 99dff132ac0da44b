/// The strings of up to 15 bytes a reader made lately, by their bytes (a JSON parser's keys and
/// short values, the typed path's, an XML reader's element text): they repeat from one record to
/// the next, and a hit costs a hash and two compares instead of
/// a UTF-8 check and a new `String`. (Strings this short are stored inline, so sharing one costs
/// no reference counting either.) Used by one thread at a time.
public final class ShortStringCache {
    @usableFromInline
    struct Entry {
        @usableFromInline var low: UInt64
        @usableFromInline var high: UInt64
        @usableFromInline var length: Int
        @usableFromInline var string: String

        @usableFromInline
        init(low: UInt64, high: UInt64, length: Int, string: String) {
            self.low = low
            self.high = high
            self.length = length
            self.string = string
        }
    }

    @usableFromInline static let slotCount = 512
    @usableFromInline let entries: UnsafeMutablePointer<Entry>

    /// An empty cache of `slotCount` slots.
    public init() {
        entries = .allocate(capacity: Self.slotCount)
        entries.initialize(repeating: Entry(low: 0, high: 0, length: -1, string: ""), count: Self.slotCount)
    }

    deinit {
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
    }

    /// The cache's slots, to look strings up by without holding the cache (a parser keeps the
    /// cache alive through its stacks): a lookup then retains and releases nothing.
    @inlinable
    public var slots: Slots { Slots(entries: entries) }

    /// The string of the well-formed UTF-8 `bytes[start..<start + length]` (length at most 15),
    /// from the cache or made and kept. `bytes` must hold 16 bytes from `start`.
    @inlinable @inline(__always)
    public func string(_ bytes: UnsafePointer<UInt8>, start: Int, length: Int) -> String {
        slots.string(bytes, start: start, length: length)
    }

    /// The slots of a `ShortStringCache`, valid while the cache lives; used by one thread at a time.
    @frozen
    public struct Slots {
        @usableFromInline let entries: UnsafeMutablePointer<Entry>

        @inlinable
        init(entries: UnsafeMutablePointer<Entry>) {
            self.entries = entries
        }

        /// `ShortStringCache.string(_:start:length:)`.
        @inlinable @inline(__always)
        public func string(_ bytes: UnsafePointer<UInt8>, start: Int, length: Int) -> String {
            let raw = UnsafeRawPointer(bytes + start)
            var low = raw.loadUnaligned(as: UInt64.self)
            var high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if length < 8 {
                low &= (1 &<< UInt64(8 &* length)) &- 1
                high = 0
            } else {
                high &= (1 &<< UInt64(8 &* (length &- 8))) &- 1
            }
            return string(low: low, high: high, UnsafeBufferPointer(start: bytes + start, count: length))
        }

        /// The string of the well-formed UTF-8 `bytes` (at most 15 of them), from the cache or made
        /// and kept, where nothing may be read past their end (a CSV cell): they are copied out
        /// first, which `string(_:start:length:)` spares.
        @inlinable @inline(__always)
        public func string(copying bytes: UnsafeBufferPointer<UInt8>) -> String {
            var words: (low: UInt64, high: UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return string(low: words.low, high: words.high, bytes)
        }

        /// The cached string of `bytes`, whose first 16 bytes (zero past the end) are `low` and `high`.
        @inlinable @inline(__always)
        func string(low: UInt64, high: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
            let length = bytes.count
            let hash = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length)
            let slot = entries + Int(truncatingIfNeeded: (hash ^ (hash &>> 29)) % UInt64(ShortStringCache.slotCount))
            if slot.pointee.length == length, slot.pointee.low == low, slot.pointee.high == high {
                return slot.pointee.string
            }
            let string = String(decoding: bytes, as: UTF8.self)
            slot.pointee = Entry(low: low, high: high, length: length, string: string)
            return string
        }
    }
}
