#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every temporary file and folder of this run (DESIGN.md "Safety"): one registry, so that
/// whatever a run makes is removed when it ends, normally, on an error or on a signal.
///
/// A path is registered *before* it is created (the names are this process's own, see
/// `TemporaryName`, and creation is exclusive), so no signal finds a temporary file the registry
/// does not know. Once `removeAll()` has run (a signal), nothing new can be created: creation
/// throws `output-unwritable` and the signal's exit follows.
///
/// Leftovers of runs that were killed (SIGKILL, a power cut) are swept by the next run: beside an
/// output the first time it writes into that folder, and under `$TMPDIR` the first time it makes
/// any temporary file; only names whose owner is gone are removed (`TemporaryName.isDead`).
public final class TemporaryFiles: @unchecked Sendable {
    /// The registry of this process.
    public static let shared = TemporaryFiles()

    private let lock = NSLock()
    private var registered: Set<String> = []
    private var closed = false
    private var sweptFolders: Set<String> = []

    /// `$TMPDIR` (else `/tmp`), without a trailing `/`: where spool files and folders go.
    public static var directory: String {
        var directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory.isEmpty ? "/tmp" : directory
    }

    /// The registered paths (for tests).
    public var paths: Set<String> { lock.withLock { registered } }

    // MARK: - Creating

    /// Creates an empty file beside `path` (`.NAME.ferry-tmp-…` in the same folder, so a
    /// `rename` puts it in place) opened for writing, after sweeping that folder's leftovers.
    /// - Parameters:
    ///   - path: the destination the file will become.
    ///   - mode: the file's permission bits (before the umask).
    ///   - failure: the message of the error, to which the system's reason is added.
    /// - Returns: the temporary path and its descriptor (the caller closes it).
    /// - Throws: `FerryError(.outputUnwritable)` located at `path`.
    public func createFile(beside path: String, mode: mode_t = 0o644, failure: String = "cannot create a temporary file")
        throws -> (path: String, descriptor: Int32)
    {
        let (folder, name) = Self.split(path)
        sweepOnce(folder: folder)
        let temporary = TemporaryName.make(base: folder + "/." + name)
        let descriptor = try create(temporary, failure: failure, location: path) {
            open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        return (temporary, descriptor)
    }

    /// Creates an empty folder beside `path` (`.NAME.ferry-tmp-…`), after sweeping leftovers there.
    /// - Returns: the folder's path.
    /// - Throws: `FerryError(.outputUnwritable)` located at `path`.
    public func createFolder(beside path: String, mode: mode_t = 0o700, failure: String = "cannot create a temporary folder")
        throws -> String
    {
        let (folder, name) = Self.split(path)
        sweepOnce(folder: folder)
        let temporary = TemporaryName.make(base: folder + "/." + name)
        _ = try create(temporary, failure: failure, location: path) { mkdir(temporary, mode) == 0 ? 0 : -1 }
        return temporary
    }

    /// Creates a private folder (mode 0700) under `$TMPDIR` named `ferry-KIND.ferry-tmp-…`.
    /// - Throws: `FerryError(.outputUnwritable)` when it cannot be made.
    public func createFolder(kind: String) throws -> String {
        let directory = Self.directory
        sweepOnce(folder: directory)
        let temporary = TemporaryName.make(base: directory + "/ferry-" + kind)
        _ = try create(temporary, failure: "cannot create a temporary folder in \(directory)", location: nil) {
            mkdir(temporary, 0o700) == 0 ? 0 : -1
        }
        return temporary
    }

    /// Creates a file under `$TMPDIR` and unlinks it at once: bytes parked there vanish with
    /// the descriptor, even when the process is killed.
    /// - Returns: a descriptor open for reading and writing (the caller closes it).
    /// - Throws: `FerryError(.outputUnwritable)` when it cannot be made.
    public func createUnlinkedFile(kind: String) throws -> Int32 {
        let directory = Self.directory
        sweepOnce(folder: directory)
        let temporary = TemporaryName.make(base: directory + "/ferry-" + kind)
        let descriptor = try create(temporary, failure: "cannot create a temporary file in \(directory)", location: nil) {
            open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        remove(temporary)
        return descriptor
    }

    /// Creates a file inside a registered folder (its removal removes the file too); refused once
    /// `removeAll()` ran, so a signal's cleanup is not raced by new files.
    /// - Throws: `FerryError(.outputUnwritable)` located at `path`.
    public func createFile(inRegisteredFolder path: String, mode: mode_t = 0o600, failure: String = "cannot create a spool file")
        throws -> Int32
    {
        try lock.withLock {
            guard !closed else { throw Self.interrupted(failure, path) }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw Self.error(failure, path) }
            return descriptor
        }
    }

    /// Registers `path`, then runs `make` (a system call returning -1 on failure); unregisters on failure.
    private func create(_ path: String, failure: String, location: String?, _ make: () -> Int32) throws -> Int32 {
        try lock.withLock {
            guard !closed else { throw Self.interrupted(failure, location) }
            registered.insert(path)
            let result = make()
            guard result >= 0 else {
                let error = Self.error(failure, location)
                registered.remove(path)
                throw error
            }
            return result
        }
    }

    // MARK: - Ending

    /// Forgets `path` without removing it: it was renamed into place, or moved away.
    public func release(_ path: String) {
        lock.withLock { _ = registered.remove(path) }
    }

    /// Registers an existing path of this run (a folder moved aside) so a signal removes it.
    /// - Returns: false once `removeAll()` ran (the caller removes it itself).
    @discardableResult
    public func adopt(_ path: String) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            registered.insert(path)
            return true
        }
    }

    /// Removes `path` (a file, or a folder with everything in it) and forgets it.
    public func remove(_ path: String) {
        Self.removeTree(path)
        release(path)
    }

    /// Removes every registered path and refuses new ones from then on: the cleanup of a signal,
    /// just before the process exits, which no other thread may race by making a file. Waits for
    /// a creation under way, so nothing registered before the call survives it.
    public func removeAll() {
        let current = lock.withLock {
            closed = true
            return registered
        }
        for path in current { remove(path) }
    }

    /// Removes what is still registered when a command has returned. When a signal is ending
    /// the run (`removeAll()` ran, before or during this removal), it never returns instead: the
    /// signal's handler is removing the files and exits with the signal's status, which must not
    /// be replaced by the status of an error that the removal itself caused (a spool file
    /// vanishing under a writer), nor by this process exiting while that handler is still
    /// removing. A path stays registered until it is gone, so a signal during this removal
    /// removes it too instead of exiting with it half-removed.
    public func finishRun() {
        if lock.withLock({ closed }) { waitForTheSignalsExit() }
        for path in lock.withLock({ registered }) { remove(path) }
        if lock.withLock({ closed }) { waitForTheSignalsExit() }
    }

    private func waitForTheSignalsExit() -> Never {
        while true { sleep(60) }
    }

    // MARK: - Sweeping

    /// Removes the leftovers in `folder` of Ferry runs that no longer run: names with the marker
    /// whose owner is gone. This run's names and those of live runs stay.
    public static func sweepLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") || name.hasPrefix("ferry-") {
            guard let owner = TemporaryName.owner(of: name), TemporaryName.isDead(owner) else { continue }
            removeTree(folder + "/" + name)
        }
    }

    private func sweepOnce(folder: String) {
        for candidate in [Self.directory, folder] where lock.withLock({ sweptFolders.insert(candidate).inserted }) {
            Self.sweepLeftovers(in: candidate)
        }
    }

    // MARK: - Helpers

    /// Removes a file, or a folder and everything under it, without following symbolic links.
    /// Another thread may still be adding files to a folder (a signal's cleanup runs beside the
    /// writer), so the folder is first renamed out of its way: a file made under the old path
    /// then fails instead of landing in a folder being emptied. The new name keeps the owner's
    /// fields, so a run killed during the removal still leaves a name the next run sweeps.
    /// Two threads may remove one folder at once (a writer ending after a signal, and the
    /// signal's cleanup): each finishes the removal under the moved name, and an entry the other
    /// removed first counts as removed, so the one that exits the process never leaves the
    /// other's half-done.
    static func removeTree(_ path: String) {
        var status = stat()
        let moved = path + "-removed"
        if lstat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) != S_IFDIR {
                unlink(path)
                return
            }
            _ = rename(path, moved)
        }
        for target in [path, moved] { removeFolder(target) }
    }

    /// Empties and removes the folder `path`; `ENOENT` anywhere means another thread got there
    /// first. Stops when the folder is gone or cannot be read.
    private static func removeFolder(_ path: String) {
        for _ in 0..<100 {
            guard let folder = opendir(path) else { return }
            var names: [String] = []
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(folder)
            for name in names {
                let child = path + "/" + name
                var status = stat()
                guard lstat(child, &status) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR { removeFolder(child) } else { unlink(child) }
            }
            if rmdir(path) == 0 || errno == ENOENT { return }
        }
    }

    private static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let url = URL(fileURLWithPath: trimmed)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }

    private static func error(_ failure: String, _ location: String?) -> FerryError {
        FerryError(.outputUnwritable, "\(failure): \(String(cString: strerror(errno)))",
                   at: location.map { SourceLocation(file: $0) } ?? SourceLocation())
    }

    private static func interrupted(_ failure: String, _ location: String?) -> FerryError {
        FerryError(.outputUnwritable, "\(failure): the run is being interrupted",
                   at: location.map { SourceLocation(file: $0) } ?? SourceLocation())
    }
}
