import FerryTestSupport
import Foundation
import Testing

/// A temporary folder the `ferry` binary runs in, with copies of samples and generated inputs.
///
/// Paths given to `ferry` are relative to the folder, so diagnostics print short stable names;
/// where ferry prints absolute paths (pipelines), `run` replaces the folder's path with `$TMP`.
/// The folder is removed when the sandbox goes away.
final class Sandbox {
    /// The folder, symlinks resolved (what `ferry` sees as its working directory).
    let url: URL

    init() throws {
        url = try makeTemporaryDirectory().resolvingSymlinksInPath()
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var path: String { url.path }

    /// Copies `Samples/<sample>` (a file or a folder) to `<destination>` (default the same
    /// relative path) in the sandbox.
    func copySample(_ sample: String, to destination: String? = nil) throws {
        let target = url.appendingPathComponent(destination ?? sample)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.sample(sample), to: target)
    }

    /// Writes `text` as UTF-8 to `name`, creating folders.
    func write(_ name: String, _ text: String) throws {
        try write(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to `name`, creating folders.
    func write(_ name: String, bytes: [UInt8]) throws {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
    }

    /// Writes an executable shell script.
    func writeScript(_ name: String, _ text: String) throws {
        try write(name, text)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.appendingPathComponent(name).path)
    }

    /// Writes the external adapter `bin/ferry-format-NAME`: a shell script whose `describe`
    /// prints NAME's descriptor (it reads `.NAME` files, and writes them when `writes`) and whose
    /// other verbs are the `case` branches `verbs` (`read) cat >/dev/null; echo '{"a":1}';;`).
    func writeAdapter(_ name: String, writes: Bool = false, verbs: String) throws {
        try writeScript("bin/ferry-format-\(name)", """
            #!/bin/sh
            case "$1" in
              describe) echo '{"name": "\(name)", "extensions": ["\(name)"], "reads": true, "writes": \(writes)}';;
              \(verbs)
            esac

            """)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    /// The names in `folder` (hidden ones included), sorted.
    func list(_ folder: String = ".") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path).sorted()
    }

    /// Every file under `folder`, as sorted relative paths.
    func files(under folder: String) throws -> [String] {
        let base = url.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var result: [String] = []
        while let name = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: base.appendingPathComponent(name).path, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(name)
            }
        }
        return result.sorted()
    }

    /// Runs `ferry arguments` in the sandbox; `$TMP` replaces the sandbox's path in what it printed.
    /// `stdinFile`: a file of the sandbox that standard input is redirected from; `pipedFile`: one
    /// whose bytes come through a pipe.
    func ferry(
        _ arguments: [String], stdin: String? = nil, stdinFile: String? = nil, pipedFile: String? = nil, environment: [String: String] = [:]
    ) throws -> FerryRun {
        var run = try runFerry(arguments, in: url, stdin: stdin, stdinBytes: try pipedFile.map { Data(try bytes($0)) },
                               stdinFile: stdinFile.map { url.appendingPathComponent($0) }, environment: environment)
        run.stdout = run.stdout.replacingOccurrences(of: path, with: "$TMP")
        run.stderr = run.stderr.replacingOccurrences(of: path, with: "$TMP")
        return run
    }

    /// What a run under one `--jobs` value gave (`ferryByJobs`): the text of its output file ("" when
    /// none was written), its standard output and error with the output's name as `OUT`, its status.
    struct JobsRun {
        var output: String
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// Runs `command` + `options` once with `--jobs 1` and once with `--jobs 2`, an argument `OUT`
    /// standing for an output file of each run's own (`out-1.jsonl`, `out-2.jsonl`).
    func ferryByJobs(_ command: [String], options: [String] = []) throws -> (one: JobsRun, two: JobsRun) {
        var runs: [JobsRun] = []
        for jobs in ["1", "2"] {
            let output = "out-\(jobs).jsonl"
            try? remove(output)
            let run = try ferry(command.map { $0 == "OUT" ? output : $0 } + options + ["--jobs", jobs])
            runs.append(JobsRun(output: (try? text(output)) ?? "", stdout: run.stdout.replacingOccurrences(of: output, with: "OUT"),
                                stderr: run.stderr.replacingOccurrences(of: output, with: "OUT"), status: run.status))
        }
        return (runs[0], runs[1])
    }
}

extension FerryRun {
    /// The lines of standard error, without the final empty one.
    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(stderr.hasSuffix("\n") ? 1 : 0).map(String.init)
    }

    /// The compiler-style diagnostic lines of standard error (errors, warnings and notes), in order.
    var diagnostics: [String] {
        stderrLines.filter { $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ") }
    }

    /// The error lines of standard error.
    var errors: [String] { stderrLines.filter { $0.contains(": error: ") } }
}

/// Records an issue when `actual` differs from the golden file `Fixtures/<name>`
/// (`FERRY_RECORD_GOLDENS=1` rewrites it).
func expectGolden(_ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    if let difference = Golden.mismatch(actual, golden: name) {
        Issue.record(Comment(rawValue: difference), sourceLocation: sourceLocation)
    }
}

/// The first line and column where `needle` starts in `text`, columns in Unicode scalars
/// (SCHEMAS.md "Positions"); for computing expected positions in generated inputs.
func position(of needle: String, in text: String, occurrence: Int = 1) -> String {
    var seen = 0
    var line = 1
    var column = 1
    let scalars = Array(text.unicodeScalars)
    let target = Array(needle.unicodeScalars)
    var i = 0
    while i < scalars.count {
        if scalars[i...].starts(with: target) {
            seen += 1
            if seen == occurrence { return "\(line):\(column)" }
        }
        if scalars[i] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        i += 1
    }
    return "not found"
}

/// Whether an executable is on PATH (for tests that need python3 and skip without it).
func toolOnPath(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs a tool (not ferry) and returns its exit status and output.
func runTool(_ executable: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

extension Sandbox {
    /// A sandbox holding the generated V1 document of `domain` (`GeneratedDocuments.v1`) as
    /// `v1.json` and, for `version` 2, its migration (`--jobs 1`) as `v2.json`; `file` names the
    /// one of `version`. Nil, with the skip message printed, when the generators are absent.
    static func generated(_ domain: String, version: Int = 1, records: Int) throws -> (box: Sandbox, v1: [UInt8], file: String)? {
        guard let v1 = GeneratedDocuments.v1(domain, records: records) else {
            print("skipped: the generators (bench/, ../shared/bench) or python3 are absent")
            return nil
        }
        let box = try Sandbox()
        try box.write("v1.json", bytes: v1)
        guard version == 2 else { return (box, v1, "v1.json") }
        let migration = try box.ferry(["migrate", "v1.json", "--to-version", "2", "-o", "v2.json", "--quiet", "--jobs", "1"])
        try #require(migration.status == 0, "\(migration.stderr)")
        return (box, v1, "v2.json")
    }
}
