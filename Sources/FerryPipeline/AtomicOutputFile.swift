import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An output file that is complete or absent (DESIGN.md "Safety"): bytes go to a temporary file
/// beside the destination, which is renamed into place by `commit()`. A failed or interrupted run
/// leaves the previous output untouched. The temporary file is `TemporaryFiles`' (registered before
/// it exists, removed on any end of the run); leftovers of a killed run are swept by the next run
/// in the same folder (`TemporaryFiles.sweepLeftovers(in:)`).
///
/// A destination that exists and is not a regular file or folder (a character device such as
/// `/dev/null` or `/dev/full`, a FIFO) cannot be replaced by a rename without destroying it: it is
/// written in place instead, and a write failure there (ENOSPC from `/dev/full`) is still
/// `output-unwritable` (exit 5).
///
/// A destination that is a symbolic link is written where the link leads: the link stays a link
/// (a rename onto the link's own path would replace it, and `-o /dev/stdout` would replace the
/// system's `/dev/stdout`).
public final class AtomicOutputFile {
    /// The final path, as given.
    public private(set) var path: String
    /// Where the file goes: `path`, or the file a symbolic link at `path` leads to.
    private var destination: String
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
    private var replacedMode: mode_t?

    /// `init(path:)` after making the folder `path` is in and its missing ancestors, as `-o`
    /// makes the folder of a file output (`--report-file reports/r.html` in a folder with no
    /// `reports/`).
    /// - Throws: `FerryError(.outputUnwritable)` when a folder cannot be made or cannot take a
    ///   new file.
    public static func makingFolder(path: String) throws -> AtomicOutputFile {
        _ = try OutputRouter.makeFolders(OutputRouter.parent(of: path))
        return try AtomicOutputFile(path: path)
    }

    /// Creates the temporary file beside `path`.
    /// - Throws: `FerryError(.outputUnwritable)` when the folder cannot take a new file.
    public init(path: String) throws {
        self.path = path
        destination = Self.resolvingLink(path)
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
        (temporaryPath, descriptor) = try TemporaryFiles.shared.createFile(beside: destination, failure: "cannot create the output")
        // `commit` syncs the file: its pages go to the disk as they are written, not all at the end.
        sink = FileDescriptorSink(descriptor: descriptor, name: path, startsWriteback: true)
    }

    deinit { discard() }

    /// Sends the file to `newPath` instead of `path` when it is committed: the temporary file
    /// stays where it is and is renamed there, so `newPath` must be on the same file system (a
    /// folder beside or under `path`'s).
    /// - Throws: `FerryError(.outputUnwritable)` for a destination written in place (a device or
    ///   FIFO), which cannot move.
    public func redirect(to newPath: String) throws {
        guard !inPlace else {
            throw FerryError(.outputUnwritable, "cannot move an output written in place to '\(newPath)'", at: SourceLocation(file: path))
        }
        var status = stat()
        replacedMode = stat(newPath, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? status.st_mode & 0o7777 : nil
        path = newPath
        destination = Self.resolvingLink(newPath)
    }

    /// `path`, or, when it is a symbolic link that leads to an existing file, that file's path.
    private static func resolvingLink(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) else {
            return path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

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
            guard rename(temporaryPath, destination) == 0 else {
                let reason = String(cString: strerror(errno))
                TemporaryFiles.shared.remove(temporaryPath)
                throw FerryError(.outputUnwritable, "cannot put the output in place: \(reason)", at: SourceLocation(file: path))
            }
            TemporaryFiles.shared.release(temporaryPath)
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
        TemporaryFiles.shared.remove(temporaryPath)
    }
}
