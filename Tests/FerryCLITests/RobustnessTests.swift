import Foundation
import FerryTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Faults while writing (issue 8 item 3), each through the real binary: the previous output
/// survives, no temporary file is left behind, and the exit status and message say what happened.
@Suite(.serialized)
struct RobustnessTests {
    /// The previous content of the output in each test.
    static let previous = "previous output\n"

    /// A schema-free JSON array of `count` records (about 80 bytes each).
    static func writeBigInput(_ url: URL, count: Int) throws {
        var text = "["
        text.reserveCapacity(count * 90)
        for i in 0..<count {
            if i > 0 { text += ",\n" }
            text += "{\"id\":\"r\(i)\",\"title\":\"Record number \(i) with some text\",\"rating\":\(i % 5),\"tags\":[\"a\",\"b\"]}"
        }
        text += "]\n"
        try Data(text.utf8).write(to: url)
    }

    /// Files in `folder` whose names hold the temporary-output marker.
    static func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".ferry-tmp-") }.sorted()
    }

    /// Runs `command` with `/bin/sh -c` in `folder` and returns its exit status and standard error.
    static func shell(_ command: String, in folder: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts `ferry convert big.json --to jsonl -o out.jsonl` in `folder`, waits `delay` seconds,
    /// sends `signal` and returns how the process ended.
    static func interrupt(with signal: Int32, after delay: Double, in folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = ferryExecutable()
        process.arguments = ["convert", "big.json", "--to", "jsonl", "-o", "out.jsonl"]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the temporary output exists (writing has begun), then the delay.
        let deadline = Date().addingTimeInterval(20)
        while try leftovers(in: folder).isEmpty, Date() < deadline, process.isRunning { usleep(10_000) }
        usleep(UInt32(delay * 1_000_000))
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    /// A folder with `big.json` and an `out.jsonl` holding `previous`.
    static func prepare(records: Int = 300_000) throws -> URL {
        let folder = try makeTemporaryDirectory()
        try writeBigInput(folder.appendingPathComponent("big.json"), count: records)
        try Data(previous.utf8).write(to: folder.appendingPathComponent("out.jsonl"))
        return folder
    }

    static func output(in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("out.jsonl"), encoding: .utf8)
    }

    @Test func fullDeviceIsWrittenInPlaceAndFailsWithExit5() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A private copy of /dev/full (char 1,7) when we may make one, so a regression that renames
        // over the device cannot destroy the system's; else the real /dev/full.
        var device = folder.appendingPathComponent("full").path
        if mknod(device, S_IFCHR | 0o666, (1 << 8) | 7) != 0 { device = "/dev/full" }
        let run = try runFerry(["convert", Fixtures.sample("notes-v1.json").path, "--to", "jsonl", "-o", device])
        #expect(run.status == 5)
        #expect(run.stderr.contains("\(device): error: write failed: No space left on device [output-unwritable]"))
        var status = stat()
        #expect(stat(device, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "the device must stay a device")
        #expect(try Self.leftovers(in: folder).isEmpty)
    }

    @Test func fileSizeLimitFailsWithEFBIGAndKeepsThePreviousOutput() throws {
        let folder = try Self.prepare(records: 20_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 100 blocks of 512 bytes: the 1.6 MB output cannot fit; SIGXFSZ is ignored, so write fails.
        let result = try Self.shell("ulimit -f 100; exec '\(ferryExecutable().path)' convert big.json --to jsonl -o out.jsonl", in: folder)
        #expect(result.status == 5)
        #expect(result.stderr.contains("out.jsonl: error: write failed: File too large [output-unwritable]"))
        #expect(try Self.output(in: folder) == Self.previous)
        #expect(try Self.leftovers(in: folder).isEmpty)
    }

    @Test func killedRunLeavesATemporaryFileThatTheNextRunSweeps() throws {
        let folder = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try Self.interrupt(with: SIGKILL, after: 0.5, in: folder)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        #expect(try Self.output(in: folder) == Self.previous)
        let left = try Self.leftovers(in: folder)
        #expect(left.count == 1, "a killed writer leaves its temporary file: \(left)")
        // The next run in the same folder sweeps it (its writer no longer runs).
        try Data("[{\"id\":\"x\"}]".utf8).write(to: folder.appendingPathComponent("small.json"))
        let next = try runFerry(["convert", "small.json", "--to", "jsonl", "-o", "small.jsonl"], in: folder)
        #expect(next.status == 0)
        #expect(try Self.leftovers(in: folder).isEmpty)
        #expect(try Self.output(in: folder) == Self.previous)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalRemovesTheTemporaryFileAndExits(signal: Int32, status: Int32) throws {
        let folder = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try Self.interrupt(with: signal, after: 0.3, in: folder)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(try Self.output(in: folder) == Self.previous)
        #expect(try Self.leftovers(in: folder).isEmpty)
    }

    /// Decision (Docs/diagnostics.md): a reader that goes away is a failed write like any other:
    /// SIGPIPE is ignored, write(2) fails with EPIPE, ferry says so once and exits 5 without a crash.
    @Test func closedPipeExits5WithOneMessage() throws {
        let folder = try Self.prepare(records: 50_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        // `$?` of a pipeline is head's: the subshell records ferry's own status.
        let result = try Self.shell(
            "('\(ferryExecutable().path)' convert big.json --to jsonl 2>err.txt; echo $? >status.txt) | head -1 >/dev/null",
            in: folder)
        #expect(result.status == 0)
        let status = try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8)
        #expect(status == "5\n")
        let err = try String(contentsOf: folder.appendingPathComponent("err.txt"), encoding: .utf8)
        #expect(err.hasPrefix("-: error: write failed: Broken pipe [output-unwritable]\n"))
        #expect(err.components(separatedBy: "[output-unwritable]").count == 2)
    }

    /// Diagnostics printed into a pipe that closed (`ferry validate X 2>&1 | head -1`): the rest
    /// of the text is lost, but ferry neither traps nor changes its exit status (1: invalid data).
    @Test func diagnosticsIntoAClosedPipeDoNotCrash() throws {
        let folder = try Self.prepare(records: 10)
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = "{\"domain\": \"notes\", \"schemaVersion\": 2}\n"
        for i in 0..<3000 { lines += "{\"$collection\":\"wineTastingNotes\",\"id\":\"n\(i)\",\"rating\":9}\n" }
        try lines.write(to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
        let result = try Self.shell(
            "('\(ferryExecutable().path)' validate bad.jsonl 2>&1; echo $? >status.txt) | head -1 >first.txt", in: folder)
        #expect(result.status == 0)
        let status = try String(contentsOf: folder.appendingPathComponent("status.txt"), encoding: .utf8)
        #expect(status == "1\n")
        let first = try String(contentsOf: folder.appendingPathComponent("first.txt"), encoding: .utf8)
        #expect(first.hasPrefix("bad.jsonl:2:1: error:"))
    }

    /// A header of 30 000 equal names is renamed `a`, `a_2`, ... in linear time (it was quadratic:
    /// each rename tried every suffix from 2 up), and a wide dotted header lays out in linear time.
    @Test func wideHeadersStayFast() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let equal = Array(repeating: "a", count: 30_000).joined(separator: ",") + "\n"
            + Array(repeating: "1", count: 30_000).joined(separator: ",") + "\n"
        try Data(equal.utf8).write(to: folder.appendingPathComponent("equal.csv"))
        let dotted = (0..<30_000).map { "c\($0).x" }.joined(separator: ",") + "\n"
            + Array(repeating: "1", count: 30_000).joined(separator: ",") + "\n"
        try Data(dotted.utf8).write(to: folder.appendingPathComponent("dotted.csv"))
        // No timed assertion (speed is `make bench`'s); a quadratic header would make this test crawl.
        for name in ["equal.csv", "dotted.csv"] {
            let run = try runFerry(["validate", name, "-q"], in: folder)
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        let renamed = try runFerry(["convert", "equal.csv", "--to", "jsonl", "-q"], in: folder)
        #expect(renamed.stdout.hasSuffix(#","a_30000":"1"}"# + "\n"))
    }

    @Test func readOnlyFolderExits5AndWritesNothing() throws {
        let folder = try Self.prepare(records: 10)
        defer {
            chmod(folder.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try Data(Self.previous.utf8).write(to: locked.appendingPathComponent("out.jsonl"))
        chmod(locked.path, 0o555)
        chmod(folder.path, 0o755)
        chmod(folder.appendingPathComponent("big.json").path, 0o644)
        // root ignores permissions: run as nobody then (setpriv, util-linux).
        let prefix = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let result = try Self.shell(
            "\(prefix)'\(ferryExecutable().path)' convert big.json --to jsonl -o locked/out.jsonl", in: folder)
        #expect(result.status == 5)
        #expect(result.stderr.contains("locked/out.jsonl: error: cannot create the output: Permission denied [output-unwritable]"))
        #expect(try String(contentsOf: locked.appendingPathComponent("out.jsonl"), encoding: .utf8) == Self.previous)
        #expect(try Self.leftovers(in: locked).isEmpty)
    }
}
