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
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// - Parameters:
    ///   - descriptor: an open, writable descriptor; the caller closes it.
    ///   - name: the path named in errors.
    ///   - capacity: bytes buffered before a `write(2)`.
    public init(descriptor: Int32, name: String, capacity: Int = 256 * 1024) {
        self.descriptor = descriptor
        self.name = name
        self.capacity = capacity
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
        }
    }
}

/// Collects written bytes in memory (tests, small members assembled before archiving).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
    public func flush() throws {}
    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
