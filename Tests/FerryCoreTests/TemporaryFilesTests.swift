import FerryCore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Temporary names carry their owner in delimited fields; the sweep removes exactly what dead runs left.
@Suite(.serialized) struct TemporaryFilesTests {
    /// A PID that ran and is gone: a child that has exited and been reaped.
    static func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func namesCarryPIDStartTimeAndRandomInDelimitedFields() throws {
        let name = TemporaryName.make(base: "/out/.notes.tar")
        let me = TemporaryName.current
        #expect(name.hasPrefix("/out/.notes.tar.ferry-tmp-\(me.pid)-\(me.startTime)-"))
        let random = name.dropFirst("/out/.notes.tar.ferry-tmp-\(me.pid)-\(me.startTime)-".count)
        #expect(!random.isEmpty && random.allSatisfy { $0.isNumber || ("a"..."z").contains($0) })
        #expect(TemporaryName.owner(of: name) == .process(pid: me.pid, startTime: me.startTime))
        #expect(me.startTime > 0, "Linux has /proc/self/stat")
    }

    @Test func ownersReadBackFromEveryForm() {
        #expect(TemporaryName.owner(of: ".a.json.ferry-tmp-12-345-9zz") == .process(pid: 12, startTime: 345))
        #expect(TemporaryName.owner(of: ".a.ferry-tmp-12-345-9zz.old") == .process(pid: 12, startTime: 345))
        #expect(TemporaryName.owner(of: "ferry-bundle-out.ferry-tmp-7-8-x") == .process(pid: 7, startTime: 8))
        // The earlier AtomicOutputFile form: PID-RANDOM.
        #expect(TemporaryName.owner(of: ".a.json.ferry-tmp-12-1k3") == .processWithoutStartTime(pid: 12))
        // A mkstemp suffix, digit-leading or not, names no process.
        #expect(TemporaryName.owner(of: ".a.tar.ferry-tmp-123abc") == .unknown)
        #expect(TemporaryName.owner(of: ".a.tar.ferry-tmp-Ab12cd") == .unknown)
        #expect(TemporaryName.owner(of: ".a.json.ferry-tmp-1x-2-3") == .unknown)
        #expect(TemporaryName.owner(of: "notes.json") == nil)
        // The last marker counts; a base with non-ASCII letters is read the same.
        #expect(TemporaryName.owner(of: ".x.ferry-tmp-1-2-a.ferry-tmp-5-6-b") == .process(pid: 5, startTime: 6))
        #expect(TemporaryName.owner(of: ".vin-rosé.json.ferry-tmp-12-345-9zz") == .process(pid: 12, startTime: 345))
        #expect(TemporaryName.owner(of: ".ferry-tmp-") == .unknown)
        #expect(TemporaryName.owner(of: ".ferry-tm") == nil)
    }

    @Test func onlyGoneOwnersAreDead() throws {
        let me = TemporaryName.current
        let dead = try Self.deadPID()
        #expect(!TemporaryName.isDead(.process(pid: me.pid, startTime: me.startTime)))
        #expect(TemporaryName.isDead(.process(pid: me.pid, startTime: me.startTime + 1)), "a reused PID")
        #expect(TemporaryName.isDead(.process(pid: dead, startTime: 1)))
        #expect(!TemporaryName.isDead(.processWithoutStartTime(pid: me.pid)))
        #expect(TemporaryName.isDead(.processWithoutStartTime(pid: dead)))
        #expect(!TemporaryName.isDead(.unknown))
        #expect(TemporaryName.startTime(of: dead) == nil)
    }

    @Test func sweepRemovesExactlyTheLeftoversOfDeadRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let me = TemporaryName.current
        let dead = try Self.deadPID()
        let kept = [
            "notes.json", ".hidden", "ferry-test-1",
            ".a.json.ferry-tmp-\(me.pid)-\(me.startTime)-1abc",  // this live process
            ".b.tar.ferry-tmp-\(me.pid)-1xyz",  // earlier form, live PID
            ".c.tar.ferry-tmp-\(dead)abc",  // mkstemp suffix that starts with a dead PID's digits
            "ferry-bundle-9Ab1cD",  // an earlier version's spool folder: no owner
        ]
        let swept = [
            ".d.json.ferry-tmp-\(dead)-\(me.startTime)-2abc",
            ".e.json.ferry-tmp-\(me.pid)-\(me.startTime + 1)-3abc",  // the PID now runs another process
            ".f.json.ferry-tmp-\(dead)-4abc",
            "ferry-bundle-out.ferry-tmp-\(dead)-5-6abc",  // a folder with a file in it
            ".g.ferry-tmp-\(dead)-5-7abc.old",
        ]
        for name in kept + swept where !name.hasPrefix("ferry-bundle") {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))
        }
        for name in (kept + swept).filter({ $0.hasPrefix("ferry-bundle") }) {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false)
            _ = FileManager.default.createFile(atPath: folder + "/" + name + "/1", contents: Data("x".utf8))
        }
        TemporaryFiles.sweepLeftovers(in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == kept.sorted())
    }

    /// One path at a time: the registry is the test process's, shared with suites running alongside.
    @Test func registeredPathsAreRemovedWithWhatTheyHold() throws {
        let registry = TemporaryFiles.shared
        let folder = try registry.createFolder(kind: "unit")
        let inside = try registry.createFile(inRegisteredFolder: folder + "/1")
        close(inside)
        let (file, descriptor) = try registry.createFile(beside: folder + "-out.json")
        close(descriptor)
        let unlinked = try registry.createUnlinkedFile(kind: "unit-spool")
        close(unlinked)
        #expect(registry.paths.isSuperset(of: [folder, file]))
        #expect((folder as NSString).lastPathComponent.hasPrefix("ferry-unit.ferry-tmp-\(getpid())-"))
        registry.remove(folder)
        registry.remove(file)
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(registry.paths.isDisjoint(with: [folder, file]))
    }

    /// A writer ending after a signal and the signal's cleanup remove one folder at once: each
    /// returns only when all of it is gone, so the one that exits the process leaves nothing.
    @Test func twoThreadsRemovingOneFolderEachLeaveNothing() throws {
        let registry = TemporaryFiles.shared
        for _ in 0..<10 {
            let folder = try registry.createFolder(kind: "race")
            try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: false)
            for index in 0..<1500 {
                close(try registry.createFile(inRegisteredFolder: folder + (index % 4 == 0 ? "/inner/" : "/") + String(index)))
            }
            let left = Mutex<[[String]]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                // The second starts once the first is under way, as a signal finds a writer's removal.
                while thread == 1, FileManager.default.fileExists(atPath: folder) { usleep(50) }
                registry.remove(folder)
                let remaining = [folder, folder + "-removed"].filter { FileManager.default.fileExists(atPath: $0) }
                left.withLock { $0.append(remaining) }
            }
            #expect(left.withLock { $0 } == [[], []])
        }
    }
}
