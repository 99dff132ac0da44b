import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private temporary folder (mode 0700, under `$TMPDIR`, `ferry-KIND.ferry-tmp-…`) for spooled
/// members and data files, owned by the run (`TemporaryFiles`: removed with everything in it when
/// this object goes away, on a signal, or by the next run's sweep after a kill). Files in it are
/// named by sequence number, never by a member path, so no member name can reach outside it.
final class SpoolFolder {
    let path: String
    private var counter = 0

    /// - Parameter kind: names the folder (`bundle`, `bundle-out`).
    /// - Throws: `FerryError(.outputUnwritable)` when the folder cannot be created.
    init(kind: String) throws {
        path = try TemporaryFiles.shared.createFolder(kind: kind)
    }

    deinit {
        TemporaryFiles.shared.remove(path)
    }

    /// A new file path in the folder (not yet created), ending with `suffix`.
    func newFilePath(suffix: String = "") -> String {
        counter += 1
        return path + "/" + String(counter) + suffix
    }

    /// Creates a new empty file and returns its path and an open write descriptor (the caller closes it).
    /// - Throws: `FerryError(.outputUnwritable)`.
    func createFile(suffix: String = "") throws -> (path: String, descriptor: Int32) {
        let file = newFilePath(suffix: suffix)
        return (file, try TemporaryFiles.shared.createFile(inRegisteredFolder: file))
    }
}
