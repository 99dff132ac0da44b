#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// An anonymous temporary file that writers park bytes in until they can place them (DESIGN.md:
/// a writer that needs a second pass spools to a temporary file, never to memory). The file is
/// unlinked as soon as it is created, so nothing is left behind even if the process is killed.
final class SpoolFile {
    private let descriptor: Int32
    /// Bytes written so far (the offset of the next append).
    private(set) var size: Int64 = 0

    /// Creates the file in `$TMPDIR` (else `/tmp`).
    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be made.
    init() throws {
        let fd = try TemporaryFiles.shared.createUnlinkedFile(kind: "json-spool")
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Appends `bytes` at the end; returns the offset they start at.
    /// - Throws: `FerryError(.outputUnwritable)` on a write failure (ENOSPC, EFBIG).
    @discardableResult
    func append(_ bytes: [UInt8]) throws -> Int64 {
        let start = size
        try bytes.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            var offset = start
            while remaining > 0 {
                let n = pwrite(descriptor, pointer, remaining, off_t(offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FerryError(.outputUnwritable, "cannot write a temporary file: \(String(cString: strerror(errno)))")
                }
                pointer += n
                remaining -= n
                offset += Int64(n)
            }
        }
        size += Int64(bytes.count)
        return start
    }

    /// Copies `length` bytes from `offset` into `sink`, through `buffer`.
    func copy(offset: Int64, length: Int, to sink: any ByteSink, buffer: inout [UInt8]) throws {
        if buffer.count < 64 * 1024 { buffer = [UInt8](repeating: 0, count: 64 * 1024) }
        var position = offset
        var remaining = length
        while remaining > 0 {
            let want = min(remaining, buffer.count)
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress, want, off_t(position))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FerryError(.outputUnwritable, "cannot read a temporary file: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                throw FerryError(.internalError, "a temporary file ended early")
            }
            try buffer.withUnsafeBytes { raw in try sink.write(UnsafeRawBufferPointer(rebasing: raw[0..<n])) }
            position += Int64(n)
            remaining -= n
        }
    }
}
