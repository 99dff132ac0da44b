import FerryCore

/// The ids of one collection seen so far, with where each was first seen, held compactly: a
/// million ids take about 30 MB instead of the 200 MB of a `[String: (Int?, JSONPointer?)]`
/// (issue 7: memory must not grow much with the input).
///
/// Each entry is a run of bytes in an arena of 1 MiB chunks (never moved, so growing never
/// copies it): a flag byte, the id (0 then a canonical lower-case UUID packed into 16 bytes, or
/// its UTF-8 length + 1 then its bytes), the record index + 1 of the first record when its
/// pointer is the usual `/<collection>/<index>` (0: the pointer is in `otherPointers`), and the
/// first line: 0 for none, else 1 + the zigzag difference from that index (one byte for JSON
/// Lines and CSV, where lines follow records) or 1 + the line. An open-addressing table of arena
/// positions finds them.
final class IDTable {
    /// Where an id was first seen.
    struct FirstSeen {
        var line: Int?
        var field: JSONPointer?
    }

    private static let chunkSize = 1 << 20
    private static let knownFlag: UInt8 = 1

    private var chunks: [UnsafeMutablePointer<UInt8>] = []
    private var chunkSizes: [Int] = []
    /// Bytes used in the last chunk.
    private var used = 0
    /// Arena position + 1 of each entry (0: empty), found by the id's hash.
    private var slots: [UInt32]
    private var entryCount = 0
    /// The record pointers that are not `/<pointerCollection>/<index>`, by arena position.
    private var otherPointers: [UInt32: JSONPointer] = [:]
    /// The collection named by the usual record pointers (the first one seen).
    private var pointerCollection: String?
    /// Entries past 4 GiB of arena (never reached in practice; kept correct anyway).
    private var overflow: [String: (known: Bool, seen: FirstSeen)] = [:]
    /// The id being looked up, encoded as entries hold it.
    private var key: [UInt8] = []
    /// The entry being added (kept to reuse its storage).
    private var entry: [UInt8] = []

    init() {
        slots = [UInt32](repeating: 0, count: 1024)
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
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
        if !overflow.isEmpty, let existing = overflow[id] {
            if known { overflow[id]?.known = true }
            return existing.seen
        }
        var id = id
        if let uuid = id.withUTF8({ Self.packUUID($0) }) {
            return insertUUID(uuid, id: id, known: known, line: line, collection: collection, index: index, pointer: pointer)
        }
        encodeKey(id)
        let hash = Self.hash(key)
        var slot = hash & (slots.count - 1)
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if let end = matches(at: position) {
                if known { setKnown(at: position) }
                return firstSeen(at: position, after: end)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return add(at: slot, id: id, known: known, line: line, collection: collection, index: index, pointer: pointer) {
            $0.append(contentsOf: key)
        }
    }

    /// `insert` for an id that is a canonical UUID (the usual case): one hash probe over the two
    /// packed words, no key bytes built.
    private func insertUUID(_ uuid: (UInt64, UInt64), id: String, known: Bool, line: Int?, collection: String?, index: Int?,
        pointer: () -> JSONPointer) -> FirstSeen?
    {
        let (slot, found) = probe(uuid)
        if let position = found {
            if known { setKnown(at: position) }
            return firstSeen(at: position, after: position + 1 + Self.uuidKeySize)
        }
        return add(at: slot, id: id, known: known, line: line, collection: collection, index: index, pointer: pointer) {
            Self.appendUUIDKey(uuid, to: &$0)
        }
    }

    /// Where a packed UUID stands: its entry's position, or nil and the empty slot it goes in.
    private func probe(_ uuid: (UInt64, UInt64)) -> (slot: Int, position: Int?) {
        // A local copy of the table: one property access for the whole probe. It ends with this
        // function, so `add` still finds the table uniquely referenced (no copy on write).
        let slots = self.slots
        let mask = slots.count - 1
        var slot = Self.hash(uuid) & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if matches(uuid, at: position) { return (slot, position) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Appends the entry of an absent id (whose key `appendKey` writes) and puts it in the empty `slot`.
    private func add(at slot: Int, id: String, known: Bool, line: Int?, collection: String?, index: Int?,
        pointer: () -> JSONPointer, appendKey: (inout [UInt8]) -> Void) -> FirstSeen?
    {
        var standardIndex: Int?
        if let collection, let index, index >= 0 {
            if pointerCollection == nil { pointerCollection = collection }
            if pointerCollection == collection { standardIndex = index }
        }
        // The entry is built in a buffer kept between calls (no allocation per id).
        var entry = self.entry
        self.entry = []
        entry.removeAll(keepingCapacity: true)
        entry.append(known ? Self.knownFlag : 0)
        appendKey(&entry)
        Self.appendVarint(UInt64(standardIndex.map { $0 + 1 } ?? 0), to: &entry)
        Self.appendVarint(Self.encodeLine(line, index: standardIndex), to: &entry)
        let appended = append(entry)
        self.entry = entry
        guard let position = appended else {
            overflow[id] = (known, FirstSeen(line: line, field: pointer()))
            return nil
        }
        if standardIndex == nil { otherPointers[UInt32(position)] = pointer() }
        slots[slot] = UInt32(position + 1)
        entryCount += 1
        if entryCount * 10 > slots.count * 7 { grow() }
        return nil
    }

    /// True when `id` was recorded as known.
    func isKnown(_ id: String) -> Bool {
        if !overflow.isEmpty, let existing = overflow[id] { return existing.known }
        encodeKey(id)
        var slot = Self.hash(key) & (slots.count - 1)
        while slots[slot] != 0 {
            let position = Int(slots[slot] - 1)
            if matches(at: position) != nil { return byte(at: position) & Self.knownFlag != 0 }
            slot = (slot + 1) & (slots.count - 1)
        }
        return false
    }

    // MARK: Encoding

    /// `key` = 0 and the packed UUID, or the length + 1 (varint) and the id's bytes.
    private func encodeKey(_ id: String) {
        key.removeAll(keepingCapacity: true)
        var id = id
        id.withUTF8 { utf8 in
            if let packed = Self.packUUID(utf8) {
                Self.appendUUIDKey(packed, to: &key)
            } else {
                Self.appendVarint(UInt64(utf8.count) + 1, to: &key)
                key.append(contentsOf: utf8)
            }
        }
    }

    /// The bytes of a packed UUID's key: 0, then the two words as they lie in memory.
    private static let uuidKeySize = 17

    private static func appendUUIDKey(_ packed: (UInt64, UInt64), to bytes: inout [UInt8]) {
        bytes.append(0)
        withUnsafeBytes(of: packed) { bytes.append(contentsOf: $0) }
    }

    /// The line as stored: 0 for none; with an index, 1 + the zigzag of their difference.
    private static func encodeLine(_ line: Int?, index: Int?) -> UInt64 {
        guard let line else { return 0 }
        guard let index else { return UInt64(max(line, 0)) + 1 }
        let difference = Int64(line) - Int64(index)
        return UInt64(bitPattern: (difference << 1) ^ (difference >> 63)) + 1
    }

    private static func decodeLine(_ stored: UInt64, index: Int?) -> Int? {
        guard stored > 0 else { return nil }
        guard let index else { return Int(stored - 1) }
        let zigzag = stored - 1
        let difference = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        return Int(Int64(index) + difference)
    }

    /// The 16 bytes of a canonical lower-case UUID (`8-4-4-4-12` hex digits), or nil: the first
    /// 16 digits in the first word, the last 16 in the second.
    private static func packUUID(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard utf8.count == 36 else { return nil }
        let dash = UInt8(ascii: "-")
        guard utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else { return nil }
        guard let a = hexDigits(utf8, 0, 8), let b = hexDigits(utf8, 9, 4), let c = hexDigits(utf8, 14, 4),
            let d = hexDigits(utf8, 19, 4), let e = hexDigits(utf8, 24, 12)
        else { return nil }
        return (a << 32 | b << 16 | c, d << 48 | e)
    }

    /// The value of `count` lower-case hex digits from `start`, or nil.
    @inline(__always)
    private static func hexDigits(_ utf8: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        for i in start..<(start + count) {
            let byte = utf8[i]
            let digit = byte &- UInt8(ascii: "0")
            let letter = byte &- UInt8(ascii: "a")
            let nibble: UInt8
            if digit < 10 {
                nibble = digit
            } else if letter < 6 {
                nibble = letter &+ 10
            } else {
                return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// FNV-1a over the key.
    private static func hash(_ bytes: [UInt8]) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h = (h ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// `hash(_:)` of a packed UUID's key bytes (`appendUUIDKey`), computed from the two words.
    private static func hash(_ packed: (UInt64, UInt64)) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        h = h &* 0x100_0000_01b3  // the leading 0 byte
        // The words' bytes in memory order (little- or big-endian alike).
        withUnsafeBytes(of: packed) { bytes in
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    // MARK: Arena

    private func pointer(at position: Int) -> UnsafeMutablePointer<UInt8> {
        chunks[position / Self.chunkSize] + position % Self.chunkSize
    }

    private func byte(at position: Int) -> UInt8 { pointer(at: position).pointee }

    private func setKnown(at position: Int) { pointer(at: position).pointee |= Self.knownFlag }

    /// Appends an entry; returns its position, or nil past 4 GiB.
    private func append(_ entry: [UInt8]) -> Int? {
        if chunks.isEmpty || used + entry.count > chunkSizes[chunkSizes.count - 1] {
            // Entries never span chunks; one longer than a chunk gets a chunk of its own size.
            guard (chunks.count + 1) * Self.chunkSize < Int(UInt32.max) else { return nil }
            let size = max(Self.chunkSize, entry.count)
            guard size == Self.chunkSize else { return nil }  // a giant id: kept in `overflow`
            chunks.append(UnsafeMutablePointer<UInt8>.allocate(capacity: size))
            chunkSizes.append(size)
            used = 0
        }
        let position = (chunks.count - 1) * Self.chunkSize + used
        entry.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            (chunks[chunks.count - 1] + used).update(from: base, count: source.count)
        }
        used += entry.count
        return position
    }

    /// When the entry at `position` holds the id in `key`: the position just past its id.
    private func matches(at position: Int) -> Int? {
        let p = pointer(at: position) + 1
        for i in 0..<key.count where p[i] != key[i] { return nil }
        return position + 1 + key.count
    }

    /// True when the entry at `position` holds the packed UUID `packed`.
    private func matches(_ packed: (UInt64, UInt64), at position: Int) -> Bool {
        // An entry never spans chunks, and a UUID entry holds at least 17 bytes after its flag.
        let p = UnsafeRawPointer(pointer(at: position) + 1)
        guard p.load(as: UInt8.self) == 0 else { return false }
        return p.loadUnaligned(fromByteOffset: 1, as: UInt64.self) == packed.0
            && p.loadUnaligned(fromByteOffset: 9, as: UInt64.self) == packed.1
    }

    private func readVarint(_ position: inout Int) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = self.byte(at: position)
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    private func firstSeen(at position: Int, after idEnd: Int) -> FirstSeen {
        var cursor = idEnd
        let storedIndex = readVarint(&cursor)
        let line = readVarint(&cursor)
        var field: JSONPointer?
        var index: Int?
        if storedIndex == 0 {
            field = otherPointers[UInt32(position)]
        } else {
            index = Int(storedIndex - 1)
            var tokens: [String] = []
            if let pointerCollection { tokens.append(pointerCollection) }
            tokens.append(String(storedIndex - 1))
            field = JSONPointer(tokens: tokens)
        }
        return FirstSeen(line: Self.decodeLine(line, index: index), field: field)
    }

    /// Doubles the table and puts every entry back.
    private func grow() {
        var bigger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for value in slots where value != 0 {
            let position = Int(value - 1)
            // Re-read the entry's key to hash it.
            var cursor = position + 1
            let start = cursor
            let header = readVarint(&cursor)
            let length = header == 0 ? 16 : Int(header - 1)
            key.removeAll(keepingCapacity: true)
            key.append(contentsOf: UnsafeBufferPointer(start: pointer(at: start), count: cursor - start + length))
            var slot = Self.hash(key) & mask
            while bigger[slot] != 0 { slot = (slot + 1) & mask }
            bigger[slot] = value
        }
        slots = bigger
    }
}
