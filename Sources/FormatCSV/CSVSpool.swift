#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import FerryCore

/// Records kept in an unlinked temporary file between the CSV writer's two passes (DESIGN.md
/// "Data flow": a writer that needs a second pass spools to a file, never to memory).
///
/// A record is a 4-byte little-endian length and the writer's encoding of its cells
/// (`CSVCellEncoder`). The writer frames records in its own buffer (`beginRecord`, `endRecord`)
/// and hands the spool large blocks; the second pass reads the file back in large blocks too.
/// The file is unlinked as soon as it is created, so nothing is left behind, even after a crash.
final class CSVSpool {
    private let descriptor: Int32
    private let sink: FileDescriptorSink
    private var source: FileDescriptorSource?
    /// Bytes read back and not yet handed out start at `readStart`.
    private var readBuffer = ByteBuffer(capacity: 0)
    private var readStart = 0
    /// How much the second pass reads at a time.
    private static let blockSize = 1 << 20

    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be made.
    init() throws {
        let fd = try TemporaryFiles.shared.createUnlinkedFile(kind: "csv-spool")
        descriptor = fd
        sink = FileDescriptorSink(descriptor: fd, name: "temporary CSV spool")
    }

    deinit {
        close(descriptor)
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

    /// Appends framed records.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try sink.write(bytes)
    }

    /// Flushes and moves back to the first record.
    func rewind() throws {
        try sink.flush()
        lseek(descriptor, 0, SEEK_SET)
        source = FileDescriptorSource(descriptor: descriptor, name: "temporary CSV spool", closesOnDeinit: false)
        readBuffer.count = 0
        readStart = 0
    }

    /// The next record's cells, valid until the next call; nil at the end.
    func nextRecord() throws -> UnsafeBufferPointer<UInt8>? {
        if readBuffer.count - readStart < 4 {
            try fill(4)
            if readBuffer.count == readStart { return nil }
            guard readBuffer.count - readStart >= 4 else { throw FerryError(.internalError, "the CSV spool file ended early") }
        }
        let at = readBuffer.base + readStart
        let length = Int(at[0]) | Int(at[1]) << 8 | Int(at[2]) << 16 | Int(at[3]) << 24
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
        guard let source else { return }
        readBuffer.removeFirst(readStart)
        readStart = 0
        readBuffer.reserve(max(Self.blockSize, needed - readBuffer.count))
        while readBuffer.count < needed {
            let room = UnsafeMutableRawBufferPointer(start: readBuffer.base + readBuffer.count,
                                                     count: readBuffer.capacity - readBuffer.count)
            let n = try source.read(into: room)
            if n == 0 { return }
            readBuffer.count += n
        }
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
