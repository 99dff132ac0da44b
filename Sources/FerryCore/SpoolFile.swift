#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An anonymous temporary file that bytes are parked in until they can be placed (DESIGN.md
/// "Data flow": a writer that needs a second pass spools to a temporary file, never to memory):
/// the one spool of the JSON, CSV and XML writers and of `diff`. Each keeps its own framing of
/// what it parks; this type only appends, reads back ranges and copies ranges out.
///
/// The file is made in `$TMPDIR` (else `/tmp`) through `TemporaryFiles` and unlinked as soon as it
/// is created, so nothing is left behind even if the process is killed; it is closed when this
/// object goes away. Appends are buffered (256 KiB, larger ones are written through); every read
/// writes the buffer out first, so reads see every byte appended.
public final class SpoolFile {
    private let descriptor: Int32
    private let sink: FileDescriptorSink
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    /// Bytes appended so far: the offset of the next append.
    @exclusivity(unchecked) public private(set) var size: Int64 = 0
    /// The buffer `copy` reads through, made on first use and kept for the next copy.
    @exclusivity(unchecked) private var copyBuffer: [UInt8] = []
    /// The most `copy` reads at a time (256 KiB).
    private static let copyChunk = 256 * 1024
    private static let name = "temporary spool file"

    /// - Parameter kind: names the file while it briefly has a name (`ferry-KIND.ferry-tmp-…`).
    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be made.
    public init(kind: String) throws {
        descriptor = try TemporaryFiles.shared.createUnlinkedFile(kind: kind)
        sink = FileDescriptorSink(descriptor: descriptor, name: Self.name)
    }

    deinit { close(descriptor) }

    /// Appends `bytes` at the end.
    /// - Returns: the offset they start at.
    /// - Throws: `FerryError(.outputUnwritable)` when the file cannot be written (ENOSPC, EFBIG).
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let start = size
        try sink.write(bytes)
        size += Int64(bytes.count)
        return start
    }

    /// Appends `bytes` at the end; see `append(_:)`.
    @discardableResult
    public func append(_ bytes: [UInt8]) throws -> Int64 {
        try bytes.withUnsafeBytes { try append($0) }
    }

    /// Writes the appends still buffered out, so that a failure to write them is told now, not
    /// by the next read.
    /// - Throws: `FerryError(.outputUnwritable)` when the file cannot be written (ENOSPC, EFBIG).
    public func flush() throws {
        try sink.flush()
    }

    /// Replaces bytes already appended, at `offset` (a length field filled in once known).
    /// - Throws: `FerryError(.outputUnwritable)` when the file cannot be written, or
    ///   `.internalError` for a range past the bytes appended.
    public func overwrite(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        guard offset >= 0, offset + Int64(bytes.count) <= size else {
            throw FerryError(.internalError, "a write past the end of a \(Self.name)")
        }
        try sink.flush()
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        var position = offset
        while remaining > 0 {
            let n = pwrite(descriptor, pointer, remaining, off_t(position))
            if n < 0 {
                if errno == EINTR { continue }
                throw FerryError(.outputUnwritable, "cannot write a \(Self.name): \(String(cString: strerror(errno)))")
            }
            pointer += n
            remaining -= n
            position += Int64(n)
        }
    }

    /// Reads bytes from `offset` into `buffer` until it is full or the file ends.
    /// - Returns: the bytes read; fewer than `buffer.count` only at the end of the file.
    /// - Throws: `FerryError(.outputUnwritable)` when buffered bytes cannot be written out first,
    ///   `.internalError` when the file cannot be read.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try sink.flush()
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw FerryError(.internalError, "cannot read a \(Self.name) back: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// The `count` bytes at `offset`.
    /// - Throws: as `read(at:into:)`, and `.internalError` when the file ends before them.
    public func bytes(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        guard n == count else { throw FerryError(.internalError, "a \(Self.name) ended early") }
        return bytes
    }

    /// Copies `length` bytes from `offset` into `target`, at most 256 KiB in memory at a time, so
    /// that a range of any size (a 250 MB string) is never read into memory whole.
    /// - Throws: as `read(at:into:)`, `.internalError` when the file ends before `length` bytes,
    ///   and the target's errors.
    public func copy(offset: Int64, length: Int64, to target: any ByteSink) throws {
        let chunk = Int(min(Int64(Self.copyChunk), max(length, 0)))
        if copyBuffer.count < chunk { copyBuffer = [UInt8](repeating: 0, count: chunk) }
        var position = offset
        var remaining = length
        while remaining > 0 {
            let want = Int(min(remaining, Int64(copyBuffer.count)))
            let n = try copyBuffer.withUnsafeMutableBytes {
                try read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]))
            }
            guard n == want else { throw FerryError(.internalError, "a \(Self.name) ended early") }
            try copyBuffer.withUnsafeBytes { try target.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            position += Int64(n)
            remaining -= Int64(n)
        }
    }

    /// Copies everything appended so far into `target`; see `copy(offset:length:to:)`.
    public func copyAll(to target: any ByteSink) throws {
        try copy(offset: 0, length: size, to: target)
    }
}
