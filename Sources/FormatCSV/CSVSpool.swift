import FerryCore

/// Records kept in an unlinked temporary file between the CSV writer's two passes (DESIGN.md
/// "Data flow": a writer that needs a second pass spools to a file, never to memory).
///
/// A record is a 4-byte little-endian length and the writer's encoding of its cells
/// (`CSVCellEncoder`). The writer frames records in its own buffer (`beginRecord`, `endRecord`)
/// and hands the spool large blocks; the second pass reads the file back in large blocks too.
/// The file is the shared `SpoolFile` (unlinked as soon as it is created, so nothing is left
/// behind, even after a crash); this type holds only the CSV framing and the second pass's reading.
final class CSVSpool {
    private let file: SpoolFile
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    /// True once `rewind()` started the second pass: before it nothing is read.
    @exclusivity(unchecked) private var reading = false
    /// Bytes read back and not yet handed out start at `readStart`.
    @exclusivity(unchecked) private var readBuffer = ByteBuffer(capacity: 0)
    @exclusivity(unchecked) private var readStart = 0
    /// How much the second pass reads at a time.
    private static let blockSize = 1 << 20

    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be made.
    init() throws {
        file = try SpoolFile(kind: "csv-spool")
    }

    // MARK: - Framing (in the writer's buffer)

    /// Starts a record in `out`: room for its length, filled in by `endRecord`. Returns where it starts.
    static func beginRecord(_ out: inout ByteBuffer) -> Int {
        out.reserve(4)
        let start = out.count
        out.count += 4
        return start
    }

    /// Ends the record `beginRecord` started at `start`: stores its length.
    /// - Throws: `FerryError(.outputUnwritable)` for a record of 4 GiB or more.
    static func endRecord(_ out: inout ByteBuffer, at start: Int) throws {
        let length = out.count - start - 4
        guard let length32 = UInt32(exactly: length) else {
            throw FerryError(.outputUnwritable, "a record too large for the temporary CSV spool (\(length) bytes)")
        }
        let at = out.base + start
        for k in 0..<4 { at[k] = UInt8(truncatingIfNeeded: length32 >> (8 * UInt32(k))) }
    }

    // MARK: - Writing and reading

    /// Bytes handed to `write` so far: the file offset the next one lands at.
    var offset: Int64 { file.size }

    /// Appends framed records, or part of one whose length `patchLength` fills in later.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try file.append(bytes)
    }

    /// Stores `length` in the length field at file offset `at`, for a record written in parts
    /// (a long cell streamed to the file rather than gathered in memory).
    /// - Throws: `FerryError(.outputUnwritable)` for a record of 4 GiB or more, or a failed write.
    func patchLength(_ length: Int, at position: Int64) throws {
        guard let length32 = UInt32(exactly: length) else {
            throw FerryError(.outputUnwritable, "a record too large for the temporary CSV spool (\(length) bytes)")
        }
        var field = length32.littleEndian
        try withUnsafeBytes(of: &field) { try file.overwrite($0, at: position) }
    }

    /// Moves back to the first record.
    func rewind() throws {
        reading = true
        readBuffer.count = 0
        readStart = 0
        readBufferOffset = 0
    }

    /// A record read back: its cells in memory, or, for a record longer than `largeRecordSize`,
    /// where its cells lie in the file (read with `read(at:into:)`), so that a record holding a
    /// 250 MB string is never read into memory whole.
    enum Spooled {
        case inMemory(UnsafeBufferPointer<UInt8>)
        case inFile(offset: Int64, length: Int)
    }

    /// Records longer than this (1 MiB) are left in the file by `next()`.
    static let largeRecordSize = 1 << 20

    /// The file offset of `readBuffer`'s first byte.
    @exclusivity(unchecked) private var readBufferOffset: Int64 = 0

    /// The next record, valid until the next call; nil at the end.
    func next() throws -> Spooled? {
        guard let length = try nextLength() else { return nil }
        guard length > Self.largeRecordSize else { return try nextRecord().map { .inMemory($0) } }
        // Skip over it: what follows is read from the file's next byte after it.
        let payload = readBufferOffset + Int64(readStart + 4)
        readBuffer.count = 0
        readStart = 0
        readBufferOffset = payload + Int64(length)
        return .inFile(offset: payload, length: length)
    }

    /// Reads up to `buffer.count` bytes at file offset `offset` (of a record `next()` left in the
    /// file); fewer only at the end of the file.
    /// - Throws: `FerryError(.internalError)` when the spool file cannot be read.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try file.read(at: offset, into: buffer)
    }

    /// The length of the next record (its 4-byte little-endian prefix, left unread); nil at the end.
    private func nextLength() throws -> Int? {
        if readBuffer.count - readStart < 4 {
            try fill(4)
            if readBuffer.count == readStart { return nil }
            guard readBuffer.count - readStart >= 4 else { throw FerryError(.internalError, "the CSV spool file ended early") }
        }
        let at = readBuffer.base + readStart
        return Int(at[0]) | Int(at[1]) << 8 | Int(at[2]) << 16 | Int(at[3]) << 24
    }

    /// The next record's cells, valid until the next call; nil at the end.
    func nextRecord() throws -> UnsafeBufferPointer<UInt8>? {
        guard let length = try nextLength() else { return nil }
        if readBuffer.count - readStart < 4 + length {
            try fill(4 + length)
            guard readBuffer.count - readStart >= 4 + length else { throw FerryError(.internalError, "the CSV spool file ended early") }
        }
        let record = UnsafeBufferPointer(start: readBuffer.base + readStart + 4, count: length)
        readStart += 4 + length
        return record
    }

    /// Reads until `needed` bytes from `readStart` are in memory or the file ends.
    private func fill(_ needed: Int) throws {
        guard reading else { return }
        readBuffer.removeFirst(readStart)
        readBufferOffset += Int64(readStart)
        readStart = 0
        readBuffer.reserve(max(Self.blockSize, needed - readBuffer.count))
        // One read fills the room; it comes back short only at the end of the file.
        let room = UnsafeMutableRawBufferPointer(start: readBuffer.base + readBuffer.count,
                                                 count: readBuffer.capacity - readBuffer.count)
        readBuffer.count += try file.read(at: readBufferOffset + Int64(readBuffer.count), into: room)
    }

    /// Reads a varint at `i` of `bytes`, moving `i` past it; stops at the end of `bytes`.
    @inline(__always)
    static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 || shift >= 63 { return result }
            shift += 7
        }
        return result
    }
}
