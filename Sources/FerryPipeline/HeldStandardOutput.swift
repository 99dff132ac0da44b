import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Standard output held until a run succeeds: the bytes are gathered in memory and, past
/// `memoryBudget`, in an unlinked temporary file under `$TMPDIR`; `release()` copies them to
/// descriptor 1, and a run that fails drops them (`discard()`), so that standard output is
/// complete or empty, as an output file is complete or absent.
final class HeldStandardOutput: ByteSink {
    /// Bytes kept in memory before the rest goes to a temporary file (16 MiB).
    static let defaultMemoryBudget = 16 << 20

    private let memoryBudget: Int
    private let makeFile: () throws -> Int32
    private var memory: [UInt8] = []
    /// The temporary file past the budget, and its sink.
    private var spill: (descriptor: Int32, sink: FileDescriptorSink)?

    /// - Parameters:
    ///   - memoryBudget: bytes held in memory before the rest goes to a temporary file.
    ///   - makeFile: makes that file (an unlinked one under `$TMPDIR`), open for reading and writing.
    init(memoryBudget: Int = HeldStandardOutput.defaultMemoryBudget,
         makeFile: @escaping () throws -> Int32 = { try TemporaryFiles.shared.createUnlinkedFile(kind: "stdout") })
    {
        self.memoryBudget = memoryBudget
        self.makeFile = makeFile
    }

    deinit { discard() }

    /// - Throws: `FerryError(.outputUnwritable)` when the temporary file cannot be made or written,
    ///   saying why standard output needs one and how to do without.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if spill == nil, memory.count + bytes.count <= memoryBudget {
            memory.append(contentsOf: bytes)
            return
        }
        let sink = try spill?.sink ?? startSpill()
        try sink.write(bytes)
    }

    func flush() throws { try spill?.sink.flush() }

    /// Writes every held byte to `descriptor` (standard output) and lets go of them.
    /// - Throws: `FerryError(.outputUnwritable)` at `-` when the write fails, or when the
    ///   temporary file cannot be read back.
    func release(to descriptor: Int32 = 1) throws {
        defer { discard() }
        let out = FileDescriptorSink(descriptor: descriptor, name: "-", capacity: 0)
        try memory.withUnsafeBytes { try out.write($0) }
        guard let spill else { return }
        try spill.sink.flush()
        guard lseek(spill.descriptor, 0, SEEK_SET) == 0 else { throw Self.readBackFailure() }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = read(spill.descriptor, chunk.baseAddress, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Self.readBackFailure() }
            if n == 0 { return }
            try out.write(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
        }
    }

    /// Drops the held bytes (a run that failed); standard output stays as it was.
    func discard() {
        memory = []
        if let spill { close(spill.descriptor) }
        spill = nil
    }

    private func startSpill() throws -> FileDescriptorSink {
        let directory = TemporaryFiles.directory
        let why = "standard output is held until the run succeeds, and past \(memoryBudget >> 20) MiB in a temporary file"
        let advice = "set TMPDIR to a folder with room, write to a file with -o FILE, or stream with --lenient"
        let descriptor: Int32
        do {
            descriptor = try makeFile()
        } catch let error as FerryError {
            throw FerryError(.outputUnwritable, "\(error.diagnostic.message) (\(why)); \(advice)")
        }
        // Errors of the file name its folder, not standard output, which has not been written.
        let sink = FileDescriptorSink(descriptor: descriptor, name: directory + " (held standard output; \(advice))")
        spill = (descriptor, sink)
        try memory.withUnsafeBytes { try sink.write($0) }
        memory = []
        return sink
    }

    private static func readBackFailure() -> FerryError {
        FerryError(.outputUnwritable, "cannot read back the held standard output: \(String(cString: strerror(errno)))",
                   at: SourceLocation(file: "-"))
    }
}
