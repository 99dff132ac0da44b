import FerryCore
import Foundation

/// A private folder for the intermediate JSON Lines files of one library call, removed when the
/// call is done (or its stream released). Named with the process id, as every temporary file of
/// Ferry is, so a dead process's leftovers are recognisable.
final class ScratchFolder: @unchecked Sendable {
    let path: String

    init() throws(FerryError) {
        let name = "ferry-library-\(getpid())-\(UUID().uuidString)"
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FerryError(.outputUnwritable, "cannot create a temporary folder: \(error.localizedDescription)",
                             at: SourceLocation(file: path))
        }
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
