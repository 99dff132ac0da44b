import FerryCore
#if canImport(Glibc)
import Glibc
#endif

/// A temporary file that holds the rendered records of one collection that arrived out of order
/// (DESIGN.md "Data flow": writers spool to temporary files, never to memory). The file is
/// unlinked as soon as it is created, so nothing is left behind even if the process dies.
final class XMLSpoolFile {
    private let descriptor: Int32
    private let sink: FileDescriptorSink

    /// - Throws: `FerryError(.outputUnwritable)` when no temporary file can be created.
    init() throws {
        let fd = try TemporaryFiles.shared.createUnlinkedFile(kind: "xml-spool")
        descriptor = fd
        sink = FileDescriptorSink(descriptor: fd, name: "temporary spool file")
    }

    deinit { close(descriptor) }

    /// Appends rendered bytes.
    func write(_ bytes: [UInt8]) throws { try sink.write(bytes) }

    /// Appends rendered bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws { try sink.write(bytes) }

    /// Copies everything written so far to `target`.
    func copy(to target: any ByteSink) throws {
        try sink.flush()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw FerryError(.outputUnwritable, "cannot rewind a temporary spool file: \(String(cString: strerror(errno)))")
        }
        let source = FileDescriptorSource(descriptor: descriptor, name: "temporary spool file", closesOnDeinit: false)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { return }
            try buffer.withUnsafeBytes { try target.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
