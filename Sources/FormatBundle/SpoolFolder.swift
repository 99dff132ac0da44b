import FerryCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private temporary folder (mode 0700, under `TMPDIR`) for spooled members and data files,
/// removed with everything in it when this object goes away. Files in it are named by sequence
/// number, never by a member path, so no member name can reach outside it.
final class SpoolFolder {
    let path: String
    private var counter = 0

    /// - Throws: `FerryError(.outputUnwritable)` when the folder cannot be created.
    init(prefix: String) throws {
        var base = FileManager.default.temporaryDirectory.path
        if base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let pointer = buffer.baseAddress else { return false }
            return mkdtemp(pointer) != nil
        }
        guard made else {
            throw FerryError(.outputUnwritable, "cannot create a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
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
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw FerryError(.outputUnwritable, "cannot create a spool file: \(String(cString: strerror(errno)))",
                             at: SourceLocation(file: file))
        }
        return (file, fd)
    }
}
