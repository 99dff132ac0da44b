import Foundation

/// The folders the conversions of one run made for their outputs, shared by the inputs a pipeline
/// converts at once. A conversion on its own removes the folders it made when it fails (those left
/// empty). Side by side, that raced: another input's temporary file could stand in the folder at
/// that moment (the folder stayed, and the other input, which did not make it, left it behind), or
/// another input could be making a folder inside it (`cannot create the folder`). In a run, no
/// conversion removes a folder: the run removes, once every input is done, each folder made for it
/// that no output was written in and that is empty.
public final class MadeFolders: @unchecked Sendable {
    // @unchecked: every member is read and written under `lock`.
    private let lock = NSLock()
    private var made: [String] = []
    private var kept: Set<String> = []

    public init() {}

    /// Records folders one conversion made (`OutputRouter.makeFolders`).
    func add(_ folders: [String]) {
        guard !folders.isEmpty else { return }
        lock.withLock { made += folders }
    }

    /// Records folders a conversion made and then wrote its output in (an empty folder can be an
    /// output: a CSV folder of no collection), which `removeEmpty` leaves.
    func keep(_ folders: [String]) {
        guard !folders.isEmpty else { return }
        lock.withLock { kept.formUnion(folders) }
    }

    /// Removes the folders made and not kept that are empty, the deepest first (`rmdir`: a folder
    /// that holds anything stays).
    public func removeEmpty() {
        let folders = lock.withLock { made.filter { !kept.contains($0) } }
        for folder in folders.sorted(by: { $0.utf8.count > $1.utf8.count }) { _ = rmdir(folder) }
    }
}
