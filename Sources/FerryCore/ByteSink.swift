#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where writers put their bytes: a temporary file that the pipeline renames into place, standard
/// output, an archive member, or memory in tests.
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes`.
    /// - Throws: `FerryError(.outputUnwritable)` with the system's reason (ENOSPC, EFBIG, EPIPE, ...).
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Writes out anything buffered.
    func flush() throws
}

extension ByteSink {
    /// Writes an array of bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes a string as UTF-8.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}

/// Writes to a file descriptor through a buffer, retrying short writes and EINTR.
public final class FileDescriptorSink: ByteSink {
    public let descriptor: Int32
    private let name: String
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let capacity: Int
    /// True when the file's pages are handed to the disk as they are written (`init`).
    private let startsWriteback: Bool
    /// Bytes written to the descriptor so far, and where the range not yet handed to the disk starts.
    @exclusivity(unchecked) private var written: Int64 = 0
    @exclusivity(unchecked) private var writebackStart: Int64 = 0
    /// How many bytes are gathered before their writeback is started.
    static let writebackChunk: Int64 = 8 << 20

    /// - Parameters:
    ///   - descriptor: an open, writable descriptor; the caller closes it.
    ///   - name: the path named in errors.
    ///   - capacity: bytes buffered before a `write(2)`.
    ///   - startsWriteback: for a regular file the caller will `fsync(2)`: every 8 MiB written,
    ///     start writing them to the disk (Linux `sync_file_range(2)`, `SYNC_FILE_RANGE_WRITE`,
    ///     which does not wait), so that the disk works while the output is still being made and
    ///     the final `fsync` waits only for the last pages. Advisory: its errors are left to `fsync`.
    public init(descriptor: Int32, name: String, capacity: Int = 256 * 1024, startsWriteback: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.capacity = capacity
        self.startsWriteback = startsWriteback
        buffer.reserveCapacity(capacity)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeThrough(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeThrough($0) }
    }

    private func writeThrough(_ bytes: UnsafeRawBufferPointer) throws {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, pointer, remaining)
            #else
            let n = Darwin.write(descriptor, pointer, remaining)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                throw FerryError(.outputUnwritable, "write failed: \(String(cString: strerror(errno)))",
                                 at: SourceLocation(file: name))
            }
            pointer += n
            remaining -= n
            written += Int64(n)
        }
        if startsWriteback, written - writebackStart >= Self.writebackChunk { startWriteback() }
    }

    /// Hands the pages written since the last call to the disk, without waiting for them.
    private func startWriteback() {
        #if os(Linux)
        _ = fileSyncRange(descriptor, writebackStart, written - writebackStart, syncFileRangeWrite)
        #endif
        writebackStart = written
    }
}

#if os(Linux)
/// glibc's `int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags)`
/// (fcntl.h declares it for `_GNU_SOURCE` only, which the Glibc module does not define).
@_silgen_name("sync_file_range")
private func fileSyncRange(_ descriptor: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32
/// fcntl.h's `SYNC_FILE_RANGE_WRITE`: start writeback of the range's dirty pages, not waiting.
private let syncFileRangeWrite: UInt32 = 2
#endif

/// Collects written bytes in memory (tests, small members assembled before archiving).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
    public func flush() throws {}
    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
