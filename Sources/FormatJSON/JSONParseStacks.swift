import FerryCore

/// The stacks a `JSONParser` builds containers on, and its cache of short strings: reused from
/// one value to the next (a reader keeps one for its whole input), so parsing a record allocates
/// only the record's own arrays and its longer strings.
///
/// The stacks are raw memory: a member or element is moved in when parsed and moved out into its
/// container's array when the container closes, with no reference counting on the way.
final class JSONParseStacks {
    /// One open container: an object (its members from `start` on `members`) or an array (its
    /// elements from `start` on `elements`).
    struct Frame {
        var isObject: Bool
        var start: Int
    }

    var frames = UnsafeStack<Frame>()
    /// Members of the open objects; the last one of an object being filled holds its key and a
    /// placeholder value until its value is parsed.
    var members = UnsafeStack<ValueObject.Member>()
    var elements = UnsafeStack<Value>()
    /// Strings of up to 15 bytes seen lately (nil: none kept, for one-off parsers).
    let strings: ShortStringCache?

    /// - Parameter cachesStrings: keep a cache of short strings (keys and the like repeat from
    ///   one record to the next); worth it for a parser that reads many values.
    init(cachesStrings: Bool = false) {
        strings = cachesStrings ? ShortStringCache() : nil
    }

    deinit {
        frames.release()
        members.release()
        elements.release()
    }
}

/// A stack in raw memory, of elements moved in and out. Its owner calls `release()` once.
struct UnsafeStack<Element> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var count = 0

    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        if let base { (base + count).initialize(to: element) }
        count &+= 1
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = max(capacity * 2, 64)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }

    /// The element on top (the stack is not empty).
    @inline(__always)
    var top: UnsafeMutablePointer<Element>? { base.map { $0 + (count - 1) } }

    /// Moves the elements from `start` on into a new array of exactly their number.
    mutating func popArray(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0, let base else { return [] }
        // `reserveCapacity` and `append` are specialized for the element type; the
        // `unsafeUninitializedCapacity` initializer allocates through generic code at several
        // times the cost.
        var array: [Element] = []
        array.reserveCapacity(n)
        for i in start..<count { array.append((base + i).move()) }
        count = start
        return array
    }

    /// Lowers the count by `n` without destroying anything: the caller moved or destroyed the
    /// top `n` elements itself.
    mutating func forget(_ n: Int) {
        count -= n
    }

    /// Removes (and destroys) the elements from `start` on.
    mutating func drop(from start: Int) {
        guard start < count, let base else { return }
        (base + start).deinitialize(count: count - start)
        count = start
    }

    /// Destroys the elements and frees the memory.
    mutating func release() {
        drop(from: 0)
        base?.deallocate()
        base = nil
        capacity = 0
    }
}

/// The strings of up to 15 bytes a parser made lately, by their bytes: object keys and short
/// values repeat from one record to the next, and a hit costs a hash and two compares instead of
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
            let hash = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length)
            let slot = entries + Int(truncatingIfNeeded: (hash ^ (hash &>> 29)) % UInt64(ShortStringCache.slotCount))
            if slot.pointee.length == length, slot.pointee.low == low, slot.pointee.high == high {
                return slot.pointee.string
            }
            let string = String(decoding: UnsafeBufferPointer(start: bytes + start, count: length), as: UTF8.self)
            slot.pointee = Entry(low: low, high: high, length: length, string: string)
            return string
        }
    }
}
