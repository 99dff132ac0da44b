import FerryCore
import Foundation
import Testing

@testable import FerryPipeline

/// Output folders are made as `mkdir -p` makes them: runs making the same nested folders at once
/// (a pipeline's datasets converted in parallel) all succeed, and each says only what it made.
@Suite struct OutputFolderTests {
    @Test func foldersMadeAtOnceByManyRunsAllSucceed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-folders-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let failures = Collected()
        let made = Collected()
        for round in 0..<60 {
            let base = "\(root)/r\(round)/shared/deep"
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                do {
                    let folders = try OutputRouter.makeFolders("\(base)/w\(worker % 3)")
                    made.add(folders)
                } catch {
                    failures.add(["\(error)"])
                }
            }
            for worker in 0..<3 {
                var isFolder: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: "\(base)/w\(worker)", isDirectory: &isFolder) && isFolder.boolValue)
            }
        }
        #expect(failures.items.isEmpty, "\(failures.items.prefix(3))")
        // Each folder was made by exactly one run: the root, then 6 a round (r, shared, deep, w0-w2).
        let all = made.items
        #expect(all.count == Set(all).count)
        #expect(all.count == 1 + 60 * 6)
    }

    /// Strings gathered from several threads.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ new: [String]) { lock.withLock { stored += new } }
        var items: [String] { lock.withLock { stored } }
    }

    @Test func aFileInTheWayIsSaid() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-folders-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: "\(root)/file", contents: Data("x".utf8))
        #expect(try OutputRouter.makeFolders(root).isEmpty)
        do {
            _ = try OutputRouter.makeFolders("\(root)/file/sub")
            Issue.record("a folder was made under a file")
        } catch let error as FerryError {
            #expect(error.exitStatus == .outputUnwritable)
            #expect(error.diagnostic.message == "cannot create the folder: Not a directory")
            #expect(error.diagnostic.location.file == "\(root)/file/sub")
        }
    }
}
