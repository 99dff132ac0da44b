/// The values of up to 15 bytes the record reader made lately, by their bytes: short values
/// (categories, labels, flags, numbers) repeat from one record to the next, and a hit costs a
/// hash and three compares instead of a UTF-8 check and a new `String`. Strings this short are
/// stored inline, so handing the same one out again costs no reference counting either.
/// Used by the one thread that runs the parse.
struct XMLShortStrings {
    private struct Entry {
        var low: UInt64
        var high: UInt64
        var length: Int
        var string: String
    }

    private static let slotCount = 256
    private let entries: UnsafeMutablePointer<Entry>

    /// An empty cache; `release()` frees it.
    init() {
        entries = .allocate(capacity: Self.slotCount)
        entries.initialize(repeating: Entry(low: 0, high: 0, length: -1, string: ""), count: Self.slotCount)
    }

    /// Frees the slots (the owner's `deinit`).
    func release() {
        entries.deinitialize(count: Self.slotCount)
        entries.deallocate()
    }

    /// The string of the well-formed UTF-8 `bytes[0..<length]` (`length` at most 15), from the
    /// cache or made and kept. `bytes` must hold 16 initialized bytes.
    @inline(__always)
    func string(_ bytes: UnsafePointer<UInt8>, length: Int) -> String {
        let raw = UnsafeRawPointer(bytes)
        var low = raw.loadUnaligned(as: UInt64.self)
        var high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if length < 8 {
            low &= (1 &<< UInt64(8 &* length)) &- 1
            high = 0
        } else {
            high &= (1 &<< UInt64(8 &* (length &- 8))) &- 1
        }
        let hash = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(length)
        let slot = entries + Int(truncatingIfNeeded: (hash ^ (hash &>> 29)) % UInt64(Self.slotCount))
        if slot.pointee.length == length, slot.pointee.low == low, slot.pointee.high == high {
            return slot.pointee.string
        }
        let string = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        slot.pointee = Entry(low: low, high: high, length: length, string: string)
        return string
    }
}
