import FerryTestSupport
import FormatBundle
import Foundation
import Testing

/// Commands run once for each of several `--jobs` values, each value's transcript (status,
/// standard output and error, the bytes of every file written) compared at the end with one golden
/// file under `Fixtures/`. The goldens were written by the general path (`--no-typed-path`, one
/// job), the oracle these tests compared the typed path with until that option was removed; with
/// `FERRY_RECORD_GOLDENS=1` the first variant's transcript is written.
final class GoldenRuns {
    /// The extra arguments of each variant, the recorded one first.
    let variants: [[String]]
    /// The sandbox the next runs take place in (a test may move to a fresh one between runs).
    var box: Sandbox
    /// The golden's path under `Fixtures/`.
    let golden: String
    /// Texts replaced in what the runs printed (after `OUT`), in this order: names that differ
    /// between tests sharing one golden.
    let replacing: [(String, String)]
    private var transcripts: [String]

    init(_ box: Sandbox, golden: String, jobs: [String] = ["1", "2", "3"], replacing: [(String, String)] = []) {
        variants = jobs.map { ["--jobs", $0] }
        self.box = box
        self.golden = golden
        self.replacing = replacing
        transcripts = Array(repeating: "", count: variants.count)
    }

    /// Runs `arguments` under each variant, `OUT` in an argument standing for an output of the
    /// run's own (`out-0`, `out-1`, ...: a file, named with what follows `OUT`, or a folder), which
    /// is removed before the run; `OUT` stands for it in what the run printed too. Appends to each
    /// transcript what the run printed and wrote; returns the recorded variant's run.
    @discardableResult
    func run(_ arguments: [String]) throws -> FerryRun {
        var first: FerryRun?
        for (index, extra) in variants.enumerated() {
            let out = "out-\(index)"
            let outputs = { try self.box.list().filter { $0 == out || $0.hasPrefix(out + ".") } }
            for name in try outputs() { try box.remove(name) }
            var run = try box.ferry(arguments.map { $0.replacingOccurrences(of: "OUT", with: out) } + extra)
            run.stdout = run.stdout.replacingOccurrences(of: out, with: "OUT")
            run.stderr = run.stderr.replacingOccurrences(of: out, with: "OUT")
            first = first ?? run
            var (stdout, stderr) = (run.stdout, run.stderr)
            for (from, to) in replacing {
                (stdout, stderr) = (stdout.replacingOccurrences(of: from, with: to), stderr.replacingOccurrences(of: from, with: to))
            }
            var shownArguments = arguments.joined(separator: " ")
            for (from, to) in replacing { shownArguments = shownArguments.replacingOccurrences(of: from, with: to) }
            var text = "$ ferry \(shownArguments)\nstatus: \(run.status)\n"
            text += Self.describe("stdout", Array(stdout.utf8), whole: Self.printedWhole)
            text += Self.describe("stderr", Array(stderr.utf8), whole: Self.printedWhole)
            for name in try outputs() {
                let shown = "OUT" + name.dropFirst(out.count)
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: box.url.appendingPathComponent(name).path, isDirectory: &isFolder)
                guard isFolder.boolValue else {
                    text += Self.describe(shown, try box.bytes(name), whole: Self.writtenWhole)
                    continue
                }
                let files = try box.files(under: name)
                if files.isEmpty { text += "--- \(shown)/: no files\n" }
                for file in files { text += Self.describe("\(shown)/\(file)", try box.bytes("\(name)/\(file)"), whole: Self.writtenWhole) }
            }
            transcripts[index] += text + "\n"
        }
        return try #require(first)
    }

    /// Adds a line to every transcript (`# ` and `text`): what changed in the sandbox since the
    /// runs before, which the commands alone do not show.
    func note(_ text: String) {
        for index in transcripts.indices { transcripts[index] += "# \(text)\n" }
    }

    /// The name in the sandbox of the recorded variant's `output` (`OUT` standing for its output),
    /// as the last run left it.
    func recorded(_ output: String) -> String { output.replacingOccurrences(of: "OUT", with: "out-0") }

    /// Records an issue for each variant whose transcript differs from the golden.
    func expectGolden(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let recording = ProcessInfo.processInfo.environment["FERRY_RECORD_GOLDENS"] == "1"
        for (index, transcript) in transcripts.enumerated() where index == 0 || !recording {
            if let difference = Golden.mismatch(transcript, golden: golden) {
                Issue.record(Comment(rawValue: "\(variants[index].joined(separator: " ")): \(difference)"), sourceLocation: sourceLocation)
            }
        }
    }

    /// Standard output or error up to this many bytes is shown whole, a file written up to
    /// `writtenWhole`; longer ones and binary files by their length, SHA-256 and first line, so
    /// that the goldens stay small (the diagnostics shown rather than the records).
    static let printedWhole = 640
    static let writtenWhole = 256

    /// One part of a transcript: `bytes` under the heading `label`, whole when at most `whole`
    /// bytes; a carriage return shows as ␍, so that the golden is plain lines.
    static func describe(_ label: String, _ bytes: [UInt8], whole: Int) -> String {
        guard !bytes.isEmpty else { return "--- \(label): empty\n" }
        let digest = (try? SHA256Hasher.hex(of: bytes)) ?? "?"
        guard let text = String(validating: bytes, as: UTF8.self) else { return "--- \(label): \(bytes.count) bytes, sha256 \(digest)\n" }
        let shown = text.replacingOccurrences(of: "\r", with: "␍")
        // Bytes, not Characters: "\r\n" is one Character, which is not "\n".
        let endsInNewline = bytes.last == UInt8(ascii: "\n")
        if bytes.count <= whole { return "--- \(label)\n" + shown + (endsInNewline ? "" : "\n(no newline at the end)\n") }
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        let first = lines[0].count > 120 ? String(lines[0].prefix(120)) + "…" : String(lines[0])
        return "--- \(label): \(bytes.count) bytes, \(lines.count - (endsInNewline ? 1 : 0)) lines, sha256 \(digest), first line:\n\(first)\n"
    }
}
