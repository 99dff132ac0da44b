import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An output file that is complete or absent (DESIGN.md "Safety"): bytes go to a temporary file
/// beside the destination, which is renamed into place by `commit()`. A failed or interrupted run
/// leaves the previous output untouched; leftovers of a killed run are swept by the next run in
/// the same folder (`sweepLeftovers(in:)`).
///
/// A destination that exists and is not a regular file or folder (a character device such as
/// `/dev/null` or `/dev/full`, a FIFO) cannot be replaced by a rename without destroying it: it is
/// written in place instead, and a write failure there (ENOSPC from `/dev/full`) is still
/// `output-unwritable` (exit 5).
public final class AtomicOutputFile {
    /// The final path.
    public let path: String
    /// The temporary path being written.
    public let temporaryPath: String
    /// The sink writing the temporary file.
    public let sink: FileDescriptorSink
    private let descriptor: Int32
    private var finished = false
    /// True when writing a device or FIFO in place (no temporary file, no rename).
    private let inPlace: Bool
    /// The permission bits of the regular file being replaced, which the new file keeps (a rename
    /// would otherwise give it the temporary file's 0644 less the umask).
    private let replacedMode: mode_t?

    /// The marker in temporary file names, followed by the writer's process id.
    static let marker = ".ferry-tmp-"

    /// Creates the temporary file beside `path`.
    /// - Throws: `FerryError(.outputUnwritable)` when the folder cannot take a new file.
    public init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var status = stat()
        let exists = stat(path, &status) == 0
        replacedMode = exists && (status.st_mode & S_IFMT) == S_IFREG ? status.st_mode & 0o7777 : nil
        if exists, (status.st_mode & S_IFMT) != S_IFREG, (status.st_mode & S_IFMT) != S_IFDIR {
            inPlace = true
            temporaryPath = path
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw FerryError(.outputUnwritable, "cannot open the output: \(String(cString: strerror(errno)))",
                                 at: SourceLocation(file: path))
            }
            sink = FileDescriptorSink(descriptor: descriptor, name: path)
            return
        }
        inPlace = false
        Self.sweepLeftovers(in: folder)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        temporaryPath = folder + "/." + name + Self.marker + "\(getpid())-" + random
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FerryError(.outputUnwritable, "cannot create the output: \(String(cString: strerror(errno)))",
                             at: SourceLocation(file: path))
        }
        // `commit` syncs the file: its pages go to the disk as they are written, not all at the end.
        sink = FileDescriptorSink(descriptor: descriptor, name: path, startsWriteback: true)
        OutputCleanup.shared.register(temporaryPath)
    }

    deinit { discard() }

    /// Flushes, syncs and renames the temporary file into place.
    /// - Throws: `FerryError(.outputUnwritable)` when flushing or renaming fails (the temporary file is removed).
    public func commit() throws {
        guard !finished else { return }
        do {
            try sink.flush()
            if let replacedMode, !inPlace { fchmod(descriptor, replacedMode) }
            guard fsync(descriptor) == 0 || errno == EINVAL else {
                throw FerryError(.outputUnwritable, "cannot write the output: \(String(cString: strerror(errno)))",
                                 at: SourceLocation(file: path))
            }
            close(descriptor)
            finished = true
            if inPlace { return }
            guard rename(temporaryPath, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporaryPath)
                OutputCleanup.shared.unregister(temporaryPath)
                throw FerryError(.outputUnwritable, "cannot put the output in place: \(reason)", at: SourceLocation(file: path))
            }
            OutputCleanup.shared.unregister(temporaryPath)
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file; the destination keeps whatever it held before.
    public func discard() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        if inPlace { return }
        unlink(temporaryPath)
        OutputCleanup.shared.unregister(temporaryPath)
    }

    /// Removes temporary files in `folder` left by Ferry processes that no longer run.
    public static func sweepLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            guard let range = name.range(of: marker) else { continue }
            let pidText = name[range.upperBound...].prefix { $0.isNumber }
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(folder + "/" + name)
            }
        }
    }
}

/// The temporary files being written, so an interrupted run (SIGINT, SIGTERM) can remove them.
final class OutputCleanup: @unchecked Sendable {
    static let shared = OutputCleanup()
    private let lock = NSLock()
    private var paths: Set<String> = []

    func register(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    func unregister(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Removes every registered temporary file.
    func removeAll() {
        let current = lock.withLock { paths }
        for path in current { unlink(path) }
    }
}
