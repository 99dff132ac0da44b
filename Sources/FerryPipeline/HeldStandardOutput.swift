import FerryCore

/// Standard output held until a run succeeds: the bytes are gathered in memory and, past
/// `memoryBudget`, in a `SpoolFile` under `$TMPDIR`; `release()` writes them to descriptor 1, and a
/// run that fails drops them (`discard()`), so that standard output is complete or empty, as an
/// output file is complete or absent.
final class HeldStandardOutput: ByteSink {
    /// Bytes kept in memory before the rest goes to a spool file (16 MiB).
    static let defaultMemoryBudget = 16 << 20

    private let memoryBudget: Int
    private let makeSpool: () throws -> SpoolFile
    private var memory: [UInt8] = []
    /// The spool past the budget.
    private var spool: SpoolFile?

    /// - Parameters:
    ///   - memoryBudget: bytes held in memory before the rest goes to a spool file.
    ///   - makeSpool: makes that file (an unlinked one under `$TMPDIR`).
    init(memoryBudget: Int = HeldStandardOutput.defaultMemoryBudget,
         makeSpool: @escaping () throws -> SpoolFile = { try SpoolFile(kind: "stdout") })
    {
        self.memoryBudget = memoryBudget
        self.makeSpool = makeSpool
    }

    /// - Throws: `FerryError(.outputUnwritable)` when the spool file cannot be made or written,
    ///   saying why standard output needs one and how to do without.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if spool == nil, memory.count + bytes.count <= memoryBudget {
            memory.append(contentsOf: bytes)
            return
        }
        do {
            let spool = try self.spool ?? startSpool()
            try spool.append(bytes)
        } catch let error as FerryError where error.exitStatus == .outputUnwritable {
            throw explained(error, at: spool == nil ? nil : SourceLocation(file: TemporaryFiles.directory + " (held standard output)"))
        }
    }

    /// Nothing to do: the spool writes its buffer out before it is read.
    func flush() throws {}

    /// Writes every held byte to `descriptor` (standard output) and lets go of them.
    /// - Throws: `FerryError(.outputUnwritable)` at `-` when the write fails; `SpoolFile`'s errors
    ///   when the spool cannot be read back.
    func release(to descriptor: Int32 = 1) throws {
        defer { discard() }
        let out = FileDescriptorSink(descriptor: descriptor, name: "-", capacity: 0)
        try memory.withUnsafeBytes { try out.write($0) }
        try spool?.copyAll(to: out)
    }

    /// Drops the held bytes (a run that failed); standard output stays as it was.
    func discard() {
        memory = []
        spool = nil
    }

    private func startSpool() throws -> SpoolFile {
        let spool = try makeSpool()
        self.spool = spool
        try spool.append(memory)
        memory = []
        return spool
    }

    /// `error` with why standard output needs a spool file and what to do instead.
    private func explained(_ error: FerryError, at location: SourceLocation?) -> FerryError {
        FerryError(.outputUnwritable, "\(error.diagnostic.message) (standard output is held until the run succeeds, and past "
            + "\(memoryBudget >> 20) MiB in a temporary file); set TMPDIR to a folder with room, write to a file with -o FILE, "
            + "or stream with --lenient", at: location ?? SourceLocation())
    }
}
