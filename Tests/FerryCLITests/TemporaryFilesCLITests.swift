import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Temporary files and folders are the run's (DESIGN.md "Safety"): the real binary, stopped by a
/// signal while it writes each output kind (and while it reads a tar), leaves nothing beside its
/// output nor under `$TMPDIR`; after SIGKILL the next run sweeps what it left; a live run's files
/// are never swept.
@Suite struct TemporaryFilesCLITests {
    /// One way to run: the arguments, with `INPUT` standing for the input file.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let input: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "JSON", arguments: ["convert", "INPUT", "-o", "out/notes.json"], input: "notes.json"),
        Case(name: "JSON Lines", arguments: ["convert", "INPUT", "-o", "out/notes.jsonl"], input: "notes.json"),
        Case(name: "CSV folder", arguments: ["convert", "INPUT", "--to", "csv", "-o", "out/csv/"], input: "notes.json"),
        Case(name: "XML", arguments: ["convert", "INPUT", "-o", "out/notes.xml"], input: "notes.json"),
        Case(name: "tar", arguments: ["convert", "INPUT", "-o", "out/notes.tar"], input: "notes.json"),
        Case(name: "tar.gz", arguments: ["convert", "INPUT", "-o", "out/notes.tar.gz"], input: "notes.json"),
        Case(name: "folder bundle", arguments: ["convert", "INPUT", "--to", "tar", "-o", "out/"], input: "notes.json"),
        Case(name: "tar input", arguments: ["convert", "INPUT", "-o", "out/from-tar.jsonl"], input: "in.tar"),
    ]

    /// The signals that end a run, with the exit status each gives.
    static let endings: [(signal: Int32, status: Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    /// A notes V1 dataset of `count` wine notes, each with an image (a media file in a bundle).
    static func notes(count: Int) -> String {
        let image = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mNoENGAIwbiOAA3QwvBkGdCnwAAAABJRU5ErkJggg=="
        var text = "{\"domain\":\"notes\",\"schemaVersion\":1,\"wineNotes\":["
        for i in 0..<count {
            if i > 0 { text += ",\n" }
            text += "{\"id\":\"w-\(i)\",\"title\":\"Wine \(i)\",\"category\":\"red\",\"createdAt\":\"2024-05-01T09:30:00Z\","
            text += "\"imageData\":\"\(image)\",\"alcohol\":13.5,\"look\":\"ruby\",\"smells\":[\"cherry\",\"oak\"],"
            text += "\"tastes\":[{\"label\":\"acidity\",\"value\":0.7}],\"grape\":\"Pinot Noir\",\"think\":\"Silky.\","
            text += "\"rating\":4.5,\"isFavorite\":true}"
        }
        return text + "]}\n"
    }

    /// Inputs every case copies, made once: `notes.json` (big enough to be stopped mid-write),
    /// `mid.json` and its bundle `in.tar`, and `small.json`.
    static let inputs: URL = {
        let folder = try! makeProcessTemporaryDirectory()
        try! Data(notes(count: 1500).utf8).write(to: folder.appendingPathComponent("notes.json"))
        try! Data(notes(count: 300).utf8).write(to: folder.appendingPathComponent("mid.json"))
        try! Data(notes(count: 2).utf8).write(to: folder.appendingPathComponent("small.json"))
        let made = try! runFerry(["convert", "mid.json", "-o", "in.tar"], in: folder)
        precondition(made.status == 0, made.stderr)
        return folder
    }()

    /// A sandbox with the inputs and an empty `tmp/` given to ferry as `TMPDIR`.
    static func prepare() throws -> Sandbox {
        let sandbox = try Sandbox()
        for name in ["notes.json", "mid.json", "small.json", "in.tar"] {
            try FileManager.default.copyItem(at: inputs.appendingPathComponent(name), to: sandbox.url.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: sandbox.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return sandbox
    }

    /// Every temporary name in the sandbox (any depth) and everything in its `tmp/`.
    static func leftovers(_ sandbox: Sandbox) throws -> [String] {
        var found: [String] = []
        if let walker = FileManager.default.enumerator(atPath: sandbox.path) {
            while let name = walker.nextObject() as? String {
                if name.contains(".ferry-tmp-") { found.append(name) }
            }
        }
        found += try sandbox.list("tmp").map { "tmp/" + $0 }
        return found.sorted()
    }

    /// Whether `env --default-signal` (coreutils 8.31 and later) can undo a signal this process
    /// ignores (a test runner under `nohup` ignores SIGHUP, and a child inherits that).
    static let envResetsSignals: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=HUP", "true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Starts ferry with `arguments` in the sandbox (`TMPDIR` its `tmp/`, the ending signals at
    /// their default), without waiting.
    static func start(_ arguments: [String], in sandbox: Sandbox) throws -> Process {
        let process = Process()
        if envResetsSignals {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--default-signal=HUP,INT,TERM", ferryExecutable().path] + arguments
        } else {
            process.executableURL = ferryExecutable()
            process.arguments = arguments
        }
        process.currentDirectoryURL = sandbox.url
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = sandbox.path + "/tmp"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `testCase` on its big input, sends `signal` as soon as a temporary file or folder
    /// exists (beside the output or under `TMPDIR`; with `besideOutput`, beside the output: a
    /// bundle's last phase), and waits for the end.
    static func interrupt(_ testCase: Case, with signal: Int32, in sandbox: Sandbox, besideOutput: Bool = false)
        throws -> Process
    {
        let process = try start(testCase.arguments.map { $0 == "INPUT" ? testCase.input : $0 }, in: sandbox)
        let deadline = Date().addingTimeInterval(30)
        func waiting() throws -> Bool {
            let found = try leftovers(sandbox)
            return besideOutput ? !found.contains { !$0.hasPrefix("tmp/") } : found.isEmpty
        }
        while try waiting(), process.isRunning, Date() < deadline { usleep(2_000) }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    /// Whether `signal` reaches ferry ignored: a child inherits that and ferry keeps it so
    /// (`nohup`), so the case cannot be tried.
    static func ignored(_ signal: Int32) -> Bool {
        if envResetsSignals { return false }
        let previous = Glibc.signal(signal, SIG_IGN)
        Glibc.signal(signal, previous)
        return previous.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false
    }

    /// Runs `testCase` until `signal` lands mid-run, before any output is in place (up to `tries`
    /// tries: a run may write its output only at its end, briefly, and finish first), and checks
    /// that nothing is left behind each time.
    static func expectSignalLeavesNothing(
        _ testCase: Case, signal: Int32, status: Int32, besideOutput: Bool = false, tries: Int = 4,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var landed = false
        for _ in 0..<tries where !landed {
            let sandbox = try prepare()
            let process = try interrupt(testCase, with: signal, in: sandbox, besideOutput: besideOutput)
            let left = try leftovers(sandbox)
            #expect(left == [], sourceLocation: sourceLocation)
            #expect(process.terminationReason == .exit, sourceLocation: sourceLocation)
            guard process.terminationStatus == status else {
                #expect(process.terminationStatus == 0, "ended by itself before the signal", sourceLocation: sourceLocation)
                continue
            }
            // No output, or (the signal came after its rename) the complete one: a partial output
            // would be a file beside the temporary names, which the check above finds.
            let outputs = sandbox.exists("out") ? try sandbox.files(under: "out") : []
            landed = outputs.isEmpty
        }
        #expect(landed, "the signal came mid-run", sourceLocation: sourceLocation)
    }

    @Test(arguments: cases, [0, 1, 2])
    func signalRemovesEveryTemporaryFileAndFolder(testCase: Case, ending: Int) throws {
        let (signal, status) = Self.endings[ending]
        guard !Self.ignored(signal) else { return }
        try Self.expectSignalLeavesNothing(testCase, signal: signal, status: status)
    }

    /// A bundle is written beside its destination only once every record is in: a signal then.
    @Test(arguments: cases.filter { ["tar", "tar.gz", "folder bundle"].contains($0.name) })
    func signalWhileABundleIsPutTogetherRemovesEverything(testCase: Case) throws {
        // The big input for a folder bundle: its last phase (a file a record, moved into place)
        // is otherwise so short on a loaded machine that the run may end before the signal lands.
        let input = testCase.name == "folder bundle" ? testCase.input : "mid.json"
        let run = Case(name: testCase.name, arguments: testCase.arguments, input: input)
        try Self.expectSignalLeavesNothing(run, signal: SIGTERM, status: 143, besideOutput: true, tries: 8)
    }

    @Test(arguments: cases)
    func nextRunSweepsWhatAKilledRunLeft(testCase: Case) throws {
        var killed = false
        // As above, a run that ends before the kill lands is tried again.
        for _ in 0..<4 where !killed {
            let sandbox = try Self.prepare()
            let process = try Self.interrupt(testCase, with: SIGKILL, in: sandbox)
            guard process.terminationReason == .uncaughtSignal else {
                #expect(process.terminationStatus == 0)
                #expect(try Self.leftovers(sandbox) == [])
                continue
            }
            killed = true
            #expect(try !Self.leftovers(sandbox).isEmpty, "a killed run leaves its temporary files")
            let next = try Self.start(testCase.arguments.map { $0 == "INPUT" ? "small.json" : $0 }, in: sandbox)
            next.waitUntilExit()
            #expect(next.terminationStatus == 0)
            #expect(try Self.leftovers(sandbox) == [])
        }
        #expect(killed, "the kill came mid-run")
    }

    @Test func concurrentRunsWritingSideBySideBothSucceed() throws {
        let sandbox = try Self.prepare()
        let outputs = ["out/a.tar", "out/b.tar", "out/a.jsonl", "out/b.jsonl"]
        let processes = try outputs.map { try Self.start(["convert", "mid.json", "-o", $0], in: sandbox) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0, 0, 0])
        #expect(try sandbox.list("out") == ["a.jsonl", "a.tar", "b.jsonl", "b.tar"])
        #expect(try sandbox.bytes("out/a.jsonl") == sandbox.bytes("out/b.jsonl"))
        #expect(try Self.leftovers(sandbox) == [])
    }

    /// A live run's temporary files stay, whatever digits follow the marker; a dead run's go.
    @Test func liveRunsFilesAreNeverSwept() throws {
        let sandbox = try Self.prepare()
        // A live process that is not ferry (this one): its PID and start time are in the names below.
        let pid = getpid()
        let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        let start = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")[19]
        let live = [
            ".out.jsonl.ferry-tmp-\(pid)-\(start)-1abc",
            ".out.tar.ferry-tmp-\(pid)abc",  // an earlier version's mkstemp suffix, digit-leading
            ".out.tar.ferry-tmp-\(pid)-2abc",  // the earlier PID-RANDOM form
            ".x.jsonl.ferry-tmp-\(pid)-0-4abc",  // start time unknown (no /proc): the PID decides
        ]
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = [
            ".out.jsonl.ferry-tmp-\(pid)-\(start)1-3abc",  // the PID now runs another process
            ".y.jsonl.ferry-tmp-\(finished.processIdentifier)-\(start)-6abc",
            ".z.jsonl.ferry-tmp-\(finished.processIdentifier)-7abc",
        ]
        for name in live + dead { try sandbox.write("out/" + name, "partial") }
        try sandbox.write("tmp/ferry-bundle.ferry-tmp-\(pid)-\(start)-5abc/1", "spooled")
        let run = try sandbox.ferry(["convert", "small.json", "-o", "out/small.jsonl"], environment: ["TMPDIR": sandbox.path + "/tmp"])
        #expect(run.status == 0)
        #expect(try sandbox.list("out") == (live + ["small.jsonl"]).sorted())
        #expect(try sandbox.list("tmp") == ["ferry-bundle.ferry-tmp-\(pid)-\(start)-5abc"])
    }
}
