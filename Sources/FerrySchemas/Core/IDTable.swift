#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// The ids of one collection seen so far, with where each was first seen, held compactly: a
/// million ids take about 29 MB instead of the 200 MB of a `[String: (Int?, JSONPointer?)]`
/// (issue 7: memory must not grow much with the input).
///
/// Each entry is a run of bytes in an arena of 1 MiB chunks (never moved, so growing never
/// copies it): a flag byte (known, and whether the id is a packed UUID), the id (a canonical
/// lower-case UUID packed into 16 bytes, or its UTF-8 length + 1 then its bytes), the record
/// index + 1 of the first record when its pointer is the usual `/<collection>/<index>` (0: another
/// pointer), the first line: 0 for none, else 1 + the zigzag difference from that index (one byte
/// for JSON Lines and CSV, where lines follow records) or 1 + the line, and for another pointer
/// its offset in `PackedPointers` (a nested Firestore document's).
///
/// An open-addressing table (linear probing) finds them. Each 32-bit slot holds the entry's arena
/// position in its low bits and, in the bits positions do not need yet, the top bits of the id's
/// hash (a tag): a probe passes over other ids by their tag without reading the arena (each such
/// read is a cache miss at a million ids), and growing re-reads the arena in order, not at random.
final class IDTable {
    /// Where an id was first seen.
    struct FirstSeen {
        var line: Int?
        var field: JSONPointer?
    }

    private static let chunkShift = 20
    private static let chunkSize = 1 << chunkShift
    private static let knownFlag: UInt8 = 1
    private static let uuidFlag: UInt8 = 2
    private static let uuidSize = 16

    /// The table's mutable state, behind a pointer: a stored `var` of a class is checked for
    /// exclusive access at run time on every access (a call into the runtime, several per probe
    /// and about a tenth of the calling thread's work in a run whose records name others), a
    /// pointer's pointee is not. The accessors below give each field its old name.
    private struct State {
        var chunks: [UnsafeMutablePointer<UInt8>] = []
        /// Bytes used in the last chunk. The first chunk's first byte is left unused: no entry is
        /// at position 0, so a 0 slot is empty.
        var used = 0
        /// Bytes used in each chunk before the last.
        var filledSizes: [Int] = []
        /// Each entry's arena position (the bits of `positionMask`) and its tag (the other bits:
        /// those of the hash's top 32 bits), 0 when empty; found from the hash's low bits.
        var slots = [UInt32](repeating: 0, count: 1024)
        /// The bits of a slot that hold the position: enough for every position of the arena so
        /// far (widened as chunks are added, which takes a bit from each tag).
        var positionMask = UInt32(chunkSize - 1)
        var entryCount = 0
        /// The record pointers that are not `/<pointerCollection>/<index>` (their entries hold
        /// the offset of each).
        var packedPointers = PackedPointers()
        /// The collection named by the usual record pointers (the first one seen).
        var pointerCollection: String?
        /// Entries past 4 GiB of arena (never reached in practice; kept correct anyway).
        var overflow: [String: (known: Bool, seen: FirstSeen)] = [:]
    }

    private let state: UnsafeMutablePointer<State>

    private var chunks: [UnsafeMutablePointer<UInt8>] {
        _read { yield state.pointee.chunks }
        _modify { yield &state.pointee.chunks }
    }
    private var used: Int {
        _read { yield state.pointee.used }
        _modify { yield &state.pointee.used }
    }
    private var filledSizes: [Int] {
        _read { yield state.pointee.filledSizes }
        _modify { yield &state.pointee.filledSizes }
    }
    private var slots: [UInt32] {
        _read { yield state.pointee.slots }
        _modify { yield &state.pointee.slots }
    }
    private var positionMask: UInt32 {
        _read { yield state.pointee.positionMask }
        _modify { yield &state.pointee.positionMask }
    }
    private var entryCount: Int {
        _read { yield state.pointee.entryCount }
        _modify { yield &state.pointee.entryCount }
    }
    private var packedPointers: PackedPointers {
        _read { yield state.pointee.packedPointers }
        _modify { yield &state.pointee.packedPointers }
    }
    private var pointerCollection: String? {
        _read { yield state.pointee.pointerCollection }
        _modify { yield &state.pointee.pointerCollection }
    }
    private var overflow: [String: (known: Bool, seen: FirstSeen)] {
        _read { yield state.pointee.overflow }
        _modify { yield &state.pointee.overflow }
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Queries

    /// Records `id` as seen first here, unless it was seen before: then returns where, and marks
    /// it known when `known` (ids of records as read; derived ids are not known to references).
    /// - Parameters:
    ///   - line: the line of the id field.
    ///   - collection, index: the record's collection and index when its pointer is
    ///     `/<collection>/<index>`; otherwise nil, and `pointer` gives it.
    func insert(_ id: String, known: Bool, line: Int?, collection: String?, index: Int?,
        pointer: () -> JSONPointer) -> FirstSeen?
    {
        insert(id, key: Key(id), known: known, line: line, collection: collection, index: index, pointer: pointer)
    }

    /// `insert(_:known:line:collection:index:pointer:)` with the id's key built ahead
    /// (`key` must be `Key(id)`).
    func insert(_ id: String, key: Key, known: Bool, line: Int?, collection: String?, index: Int?,
        pointer: () -> JSONPointer) -> FirstSeen?
    {
        if !overflow.isEmpty, let existing = overflow[id] {
            if known { overflow[id]?.known = true }
            return existing.seen
        }
        if let uuid = key.uuid {
            let (slot, position) = probe(key.hash) { self.matches(uuid, at: $0) }
            if let position { return seenAgain(at: position, idEnd: position + 1 + Self.uuidSize, known: known) }
            return add(at: slot, hash: key.hash, id: id, flags: Self.uuidFlag, keySize: Self.uuidSize, known: known,
                line: line, collection: collection, index: index, pointer: pointer)
            {
                UnsafeMutableRawPointer($0).storeBytes(of: uuid, as: (UInt64, UInt64).self)
            }
        }
        // One view of the id's bytes for the probe and the entry (a short id is copied out of its
        // string for each).
        var text = id
        return text.withUTF8 { utf8 in
            let header = UInt64(utf8.count) + 1
            let keySize = Self.varintSize(header) + utf8.count
            let (slot, position) = probe(key.hash) { self.matches(utf8, at: $0) }
            if let position { return seenAgain(at: position, idEnd: position + 1 + keySize, known: known) }
            return add(at: slot, hash: key.hash, id: id, flags: 0, keySize: keySize,
                known: known, line: line, collection: collection, index: index, pointer: pointer)
            { start in
                let bytes = Self.writeVarint(header, at: start)
                if let source = utf8.baseAddress { bytes.update(from: source, count: utf8.count) }
            }
        }
    }

    /// Where an id found again was first seen, marked known first when `known`.
    private func seenAgain(at position: Int, idEnd: Int, known: Bool) -> FirstSeen {
        if known { setKnown(at: position) }
        return firstSeen(at: position, after: idEnd)
    }

    /// True when `id` was recorded, known or not.
    func isRecorded(_ id: String) -> Bool {
        if !overflow.isEmpty, overflow[id] != nil { return true }
        return locate(id, Key(id)).found != nil
    }

    /// True when `id` was recorded as known.
    func isKnown(_ id: String) -> Bool { isKnown(id, key: Key(id)) }

    /// `isKnown(_:)` with the id's key built ahead (`key` must be `Key(id)`).
    func isKnown(_ id: String, key: Key) -> Bool {
        if !overflow.isEmpty, let existing = overflow[id] { return existing.known }
        guard let found = locate(id, key).found else { return false }
        return pointer(at: found.position).pointee & Self.knownFlag != 0
    }

    /// Marks a recorded `id` as not known (its record was not kept after all); nothing for an id
    /// not recorded.
    func markUnknown(_ id: String) {
        if !overflow.isEmpty, overflow[id] != nil {
            overflow[id]?.known = false
            return
        }
        guard let found = locate(id, Key(id)).found else { return }
        pointer(at: found.position).pointee &= ~Self.knownFlag
    }

    // MARK: Probing

    /// Where the id stands: its entry's position and the position just past its id there, or
    /// nil and the empty slot it goes in.
    private func locate(_ id: String, _ key: Key) -> (slot: Int, found: (position: Int, idEnd: Int)?) {
        if let uuid = key.uuid {
            let (slot, position) = probe(key.hash) { self.matches(uuid, at: $0) }
            return (slot, position.map { ($0, $0 + 1 + Self.uuidSize) })
        }
        var text = id
        return text.withUTF8 { utf8 in
            let (slot, position) = probe(key.hash) { self.matches(utf8, at: $0) }
            let idSize = Self.varintSize(UInt64(utf8.count) + 1) + utf8.count
            return (slot, position.map { ($0, $0 + 1 + idSize) })
        }
    }

    /// Reads the slots where probes for `keys` start, so that the probes of the records that
    /// follow find them in the cache (at a million ids the table is far bigger than the cache, and
    /// loads issued one after another in a tight loop overlap where each probe's one load cannot).
    /// Returns the slots' values combined, for the caller to keep the loads from being dropped.
    func warm<Keys: Sequence<Key>>(_ keys: Keys) -> UInt32 {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var sink: UInt32 = 0
            for key in keys { sink ^= slots[Int(truncatingIfNeeded: key.hash) & mask] }
            return sink
        }
    }

    /// `warm(_:)` for ids looked up rather than added (references): also reads the entry each
    /// home slot points at when its tag is the key's, which confirming the id reads next (at
    /// random in the arena: a miss of its own). Slots first, then entries, each pass loads only,
    /// so that the misses of a pass overlap.
    func warmLookups(_ keys: UnsafeBufferPointer<Key>) -> UInt32 {
        guard !keys.isEmpty else { return 0 }
        let positionMask = self.positionMask
        return slots.withUnsafeBufferPointer { slots in
            chunks.withUnsafeBufferPointer { chunks in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: keys.count) { values in
                    let mask = slots.count - 1
                    for i in keys.indices { values[i] = slots[Int(truncatingIfNeeded: keys[i].hash) & mask] }
                    var sink: UInt32 = 0
                    for i in keys.indices {
                        // The probe's walk, over slots now cached, to the first with the key's tag.
                        let tag = Self.tag(keys[i].hash, positionMask)
                        var slot = Int(truncatingIfNeeded: keys[i].hash) & mask
                        var value = values[i]
                        while value != 0 && value & ~positionMask != tag {
                            slot = (slot + 1) & mask
                            value = slots[slot]
                        }
                        sink ^= value
                        guard value != 0 else { continue }
                        let position = Int(value & positionMask)
                        sink ^= UInt32(chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)])
                    }
                    return sink
                }
            }
        }
    }

    /// The position of the entry with `hash` that `matches`, or nil and the empty slot it goes
    /// in. Entries whose tag differs are passed over without reading the arena.
    @inline(__always)
    private func probe(_ hash: UInt64, _ matches: (Int) -> Bool) -> (slot: Int, position: Int?) {
        // A local copy of the table: one property access for the whole probe. It ends with this
        // function, so `add` still finds the table uniquely referenced (no copy on write).
        let slots = self.slots
        let mask = slots.count - 1
        let positionMask = self.positionMask
        let tag = Self.tag(hash, positionMask)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let value = slots[slot]
            if value == 0 { return (slot, nil) }
            if value & ~positionMask == tag {
                let position = Int(value & positionMask)
                if matches(position) { return (slot, position) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The tag bits of a slot for `hash`: the top bits of the hash that positions leave free.
    @inline(__always)
    private static func tag(_ hash: UInt64, _ positionMask: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32) & ~positionMask
    }

    /// Appends the entry of an absent id (whose `keySize` bytes `writeKey` writes) and puts it in
    /// the empty `slot`.
    private func add(at slot: Int, hash: UInt64, id: String, flags: UInt8, keySize: Int, known: Bool, line: Int?,
        collection: String?, index: Int?, pointer: () -> JSONPointer, writeKey: (UnsafeMutablePointer<UInt8>) -> Void)
        -> FirstSeen?
    {
        var standardIndex: Int?
        if let collection, let index, index >= 0 {
            if pointerCollection == nil { pointerCollection = collection }
            if UTF8Text.equalHolding(&pointerCollection!, collection) { standardIndex = index }
        }
        let storedIndex = UInt64(standardIndex.map { $0 + 1 } ?? 0)
        let storedLine = Self.encodeLine(line, index: standardIndex)
        let packedOffset = standardIndex == nil ? UInt64(packedPointers.append(pointer())) : nil
        let size = 1 + keySize + Self.varintSize(storedIndex) + Self.varintSize(storedLine)
            + (packedOffset.map { Self.varintSize($0) } ?? 0)
        guard let position = reserve(size) else {
            overflow[id] = (known, FirstSeen(line: line, field: pointer()))
            return nil
        }
        let start = self.pointer(at: position)
        start.pointee = flags | (known ? Self.knownFlag : 0)
        writeKey(start + 1)
        let afterLine = Self.writeVarint(storedLine, at: Self.writeVarint(storedIndex, at: start + 1 + keySize))
        if let packedOffset { Self.writeVarint(packedOffset, at: afterLine) }
        // After `reserve`, which may have widened the positions (the slot stays empty).
        slots[slot] = Self.tag(hash, positionMask) | UInt32(position)
        entryCount += 1
        if entryCount * 10 > slots.count * 7 { grow() }
        return nil
    }

    /// Doubles the table and puts every entry back, reading the arena in order (not at random
    /// from the old table, which is freed first: the new one is the only one held).
    ///
    /// A block of entries at a time: their hashes first, then their home slots read in a row
    /// (independent loads, whose misses in a table bigger than the cache overlap), then the
    /// probes, which find those slots cached. One entry after another, each probe's miss was
    /// waited for in turn.
    private func grow() {
        let count = slots.count * 2
        slots = []
        var bigger = [UInt32](repeating: 0, count: count)
        let mask = count - 1
        let positionMask = self.positionMask
        // Through buffers: an array written in the loop was checked for uniqueness and bounds
        // at every slot.
        bigger.withUnsafeMutableBufferPointer { bigger in
            withUnsafeTemporaryAllocation(of: (hash: UInt64, slot: UInt32).self, capacity: Self.growBlock) { block in
                var pending = 0
                func putBack() {
                    var seen: UInt32 = 0
                    for i in 0..<pending { seen |= bigger[Int(truncatingIfNeeded: block[i].hash) & mask] }
                    for i in 0..<pending {
                        var slot = Int(truncatingIfNeeded: block[i].hash) & mask
                        // The first entry's home slot is empty when all were as read above (nothing
                        // written since): so the reads are used, and kept.
                        if i > 0 || seen != 0 {
                            while bigger[slot] != 0 { slot = (slot + 1) & mask }
                        }
                        bigger[slot] = Self.tag(block[i].hash, positionMask) | block[i].slot
                    }
                    pending = 0
                }
                for (chunkIndex, chunk) in chunks.enumerated() {
                    var offset = chunkIndex == 0 ? 1 : 0
                    let end = chunkIndex < filledSizes.count ? filledSizes[chunkIndex] : used
                    while offset < end {
                        let (hash, size) = Self.hashAndSize(ofEntryAt: chunk + offset)
                        block[pending] = (hash, UInt32(chunkIndex << Self.chunkShift | offset))
                        pending += 1
                        if pending == Self.growBlock { putBack() }
                        offset += size
                    }
                }
                putBack()
            }
        }
        slots = bigger
    }

    /// Entries put back together on growing (`grow`): enough loads to keep the memory busy.
    private static let growBlock = 64

    // MARK: Hashing

    /// The hash of the entry at `start` (as `Key` gives it) and the entry's size in bytes.
    private static func hashAndSize(ofEntryAt start: UnsafeMutablePointer<UInt8>) -> (hash: UInt64, size: Int) {
        var cursor = UnsafePointer(start + 1)
        let hash: UInt64
        if start.pointee & uuidFlag != 0 {
            hash = Self.hash(UnsafeRawPointer(cursor).loadUnaligned(as: (UInt64, UInt64).self))
            cursor += uuidSize
        } else {
            let length = Int(readVarint(&cursor) - 1)
            hash = Self.hash(UnsafeBufferPointer(start: cursor, count: length))
            cursor += length
        }
        let storedIndex = readVarint(&cursor)
        _ = readVarint(&cursor)
        if storedIndex == 0 { _ = readVarint(&cursor) }
        return (hash, cursor - UnsafePointer(start))
    }

    // MARK: Arena

    private func pointer(at position: Int) -> UnsafeMutablePointer<UInt8> {
        chunks[position >> Self.chunkShift] + (position & (Self.chunkSize - 1))
    }

    private func setKnown(at position: Int) { pointer(at: position).pointee |= Self.knownFlag }

    /// Room for an entry of `size` bytes: its position, or nil past 4 GiB of arena or for an
    /// entry longer than a chunk (entries never span chunks).
    private func reserve(_ size: Int) -> Int? {
        if chunks.isEmpty || used + size > Self.chunkSize {
            guard (chunks.count + 1) * Self.chunkSize < Int(UInt32.max), size < Self.chunkSize else { return nil }
            if !chunks.isEmpty { filledSizes.append(used) }
            chunks.append(UnsafeMutablePointer<UInt8>.allocate(capacity: Self.chunkSize))
            used = chunks.count == 1 ? 1 : 0
            let lastPosition = UInt64(chunks.count * Self.chunkSize - 1)
            while lastPosition & ~UInt64(positionMask) != 0 { widenPositions() }
        }
        let position = (chunks.count - 1) << Self.chunkShift | used
        used += size
        return position
    }

    /// Gives positions one more bit of each slot, taken from the tag (its lowest bit): the tags
    /// stay the top bits of each hash, with no arena read.
    private func widenPositions() {
        let widened = positionMask << 1 | 1
        let takenBit = widened & ~positionMask
        for i in slots.indices { slots[i] &= ~takenBit }
        positionMask = widened
    }

    /// True when the entry at `position` holds the packed UUID `packed`.
    private func matches(_ packed: (UInt64, UInt64), at position: Int) -> Bool {
        let start = pointer(at: position)
        // A UUID entry holds 16 bytes after its flag (entries never span chunks).
        guard start.pointee & Self.uuidFlag != 0 else { return false }
        let stored = UnsafeRawPointer(start + 1).loadUnaligned(as: (UInt64, UInt64).self)
        return stored.0 == packed.0 && stored.1 == packed.1
    }

    /// True when the entry at `position` holds the id whose bytes are `utf8` (not packed).
    @inline(__always)
    private func matches(_ utf8: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let start = pointer(at: position)
        guard start.pointee & Self.uuidFlag == 0 else { return false }
        var cursor = UnsafePointer(start + 1)
        // A text entry holds its length + 1, then that many bytes (entries never span chunks).
        guard Self.readVarint(&cursor) == UInt64(utf8.count) + 1 else { return false }
        guard let base = utf8.baseAddress else { return true }
        return memcmp(cursor, base, utf8.count) == 0
    }

    private func firstSeen(at position: Int, after idEnd: Int) -> FirstSeen {
        var cursor = UnsafePointer(pointer(at: idEnd))
        let storedIndex = Self.readVarint(&cursor)
        let line = Self.readVarint(&cursor)
        var field: JSONPointer?
        var index: Int?
        if storedIndex == 0 {
            field = packedPointers.pointer(at: Int(Self.readVarint(&cursor)))
        } else {
            index = Int(storedIndex - 1)
            var tokens: [String] = []
            if let pointerCollection { tokens.append(pointerCollection) }
            tokens.append(String(storedIndex - 1))
            field = JSONPointer(tokens: tokens)
        }
        return FirstSeen(line: Self.decodeLine(line, index: index), field: field)
    }
}
