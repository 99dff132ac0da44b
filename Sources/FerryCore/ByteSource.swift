#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream of input bytes that readers pull from in chunks: a file, standard input, an archive
/// member or a decompressing filter. Readers never ask for the whole input at once.
public protocol ByteSource: AnyObject {
    /// Fills up to `buffer.count` bytes and returns how many were read; 0 means the end.
    /// - Throws: `FerryError` with `unreadable-input` (or the format's own code) on a read failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// True once `read` returned 0 where the input was cut rather than where it ends (a
    /// compressed file whose stream stops early, read up to the stop): its last bytes may end
    /// inside a record, which a reader then treats as `ReadOptions.endsAtCut` says. False before
    /// the end, and for sources that cannot tell (the default).
    var endsAtCut: Bool { get }
}

/// Reads a file descriptor with `read(2)`, retrying on EINTR; or, given an offset, a regular
/// file's descriptor with `pread(2)` from there on, leaving the descriptor's own offset alone (a
/// second reading of standard input redirected from a file while the first goes on).
public final class FileDescriptorSource: ByteSource {
    public let descriptor: Int32
    private let name: String
    private let closesOnDeinit: Bool
    /// Where the next `pread(2)` reads; nil: `read(2)` at the descriptor's own offset.
    private var offset: Int64?

    /// Opens `path` read-only (`-` means standard input).
    /// - Throws: `FerryError(.unreadableInput)` naming the path and the system's reason.
    public init(path: String) throws {
        if path == "-" {
            self.descriptor = 0
            self.closesOnDeinit = false
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw FerryError(.unreadableInput, "cannot open: \(String(cString: strerror(errno)))",
                                 at: SourceLocation(file: path))
            }
            self.descriptor = fd
            self.closesOnDeinit = true
        }
        self.name = path
    }

    /// Wraps an open descriptor; `closesOnDeinit` says whether this object owns it. With
    /// `offset`, it is read from there with `pread(2)` (a regular file's: `regularFileOffset`).
    public init(descriptor: Int32, name: String, closesOnDeinit: Bool, offset: Int64? = nil) {
        self.descriptor = descriptor
        self.name = name
        self.closesOnDeinit = closesOnDeinit
        self.offset = offset
    }

    /// The offset of `descriptor` when it is a regular file (a redirection from a file, which can
    /// be read again from there); nil for a pipe, a terminal or a socket.
    public static func regularFileOffset(of descriptor: Int32) -> Int64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return offset >= 0 ? Int64(offset) : nil
    }

    deinit {
        if closesOnDeinit { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = offset.map { pread(descriptor, base, buffer.count, off_t($0)) } ?? Glibc.read(descriptor, base, buffer.count)
            #else
            let n = offset.map { pread(descriptor, base, buffer.count, off_t($0)) } ?? Darwin.read(descriptor, base, buffer.count)
            #endif
            if n >= 0 {
                offset = offset.map { $0 + Int64(n) }
                return n
            }
            if errno == EINTR { continue }
            throw FerryError(.unreadableInput, "read failed: \(String(cString: strerror(errno)))",
                             at: SourceLocation(file: name))
        }
    }
}

/// Serves bytes held in memory (tests, small spooled members).
public final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public convenience init(_ text: String) { self.init(Array(text.utf8)) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

extension ByteSource {
    public var endsAtCut: Bool { false }

    /// Reads everything that is left. Only for inputs known to be small (manifests, tests).
    public func readAll(limit: Int = .max) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit {
                throw FerryError(.tooLarge, "input is larger than \(limit) bytes")
            }
        }
    }
}
