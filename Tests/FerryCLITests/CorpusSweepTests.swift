import Foundation
import FerryTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every file of `../shared/corpus/` (all suites) through `ferry validate`, as a user would run it
/// on files nobody has looked at (issue 8 "Done when"): no crash, no hang (30 s per file; most take 50 ms), a
/// per-suite count of accepted and refused files, and the suite's own verdict where it gives one.
@Suite struct CorpusSweepTests {
    /// The outcome of one file.
    struct Outcome: Sendable {
        var suite: String
        var path: String
        /// Exit status; nil when the process had to be killed (a hang) or died of a signal.
        var status: Int32?
        var codes: Set<String>
        /// What went wrong when `status` is nil (timed out, or the signal that ended it).
        var failure: String = ""
    }

    /// Files that are documentation, not data.
    static func isData(_ name: String) -> Bool {
        !(name == "PROVENANCE.txt" || name.hasPrefix("LICENSE") || name.hasSuffix(".md") || name == "README"
          || name.hasPrefix("Copyright"))
    }

    /// Runs `ferry validate path` with a deadline; kills it when the deadline passes.
    static func validate(_ path: String, timeout: Double) -> (status: Int32?, stderr: String, failure: String) {
        let process = Process()
        process.executableURL = ferryExecutable()
        process.arguments = ["validate", path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (nil, "", "cannot run: \(error)") }
        let collected = Collected()
        let reader = Thread { collected.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (nil, "", "timed out after \(timeout) s")
        }
        process.waitUntilExit()
        while !collected.done { usleep(1_000) }
        let text = String(decoding: collected.data, as: UTF8.self)
        if process.terminationReason == .exit { return (process.terminationStatus, text, "") }
        return (nil, text, "killed by signal \(process.terminationStatus): \(text.suffix(2000))")
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = Data()
        private var finished = false
        func set(_ data: Data) { lock.withLock { stored = data; finished = true } }
        var done: Bool { lock.withLock { finished } }
        var data: Data { lock.withLock { stored } }
    }

    /// The diagnostic codes in `stderr` (`[code]` at the end of diagnostic lines).
    static func codes(in stderr: String) -> Set<String> {
        var found: Set<String> = []
        for line in stderr.split(separator: "\n") where line.hasSuffix("]") {
            guard let open = line.lastIndex(of: "[") else { continue }
            found.insert(String(line[line.index(after: open)..<line.index(before: line.endIndex)]))
        }
        return found
    }

    @Test func everyCorpusFileRunsWithoutCrashOrHang() throws {
        guard let corpus = Fixtures.corpus(".") else {
            print("skipped: corpus absent")
            return
        }
        var files: [(suite: String, path: String)] = []
        let suites = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        for suite in suites {
            let folder = corpus.appendingPathComponent(suite)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker {
                var isFolder: ObjCBool = false
                let full = folder.appendingPathComponent(relative).path
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                      Self.isData((relative as NSString).lastPathComponent) else { continue }
                files.append((suite, relative))
            }
        }
        #expect(files.count > 700)
        let work = files
        let results = Results(count: files.count)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: work.count, by: 2) {
                let (suite, relative) = work[index]
                let run = Self.validate(corpus.appendingPathComponent(suite).appendingPathComponent(relative).path,
                                        timeout: 30)
                results.set(index, Outcome(suite: suite, path: relative, status: run.status, codes: Self.codes(in: run.stderr),
                                           failure: run.failure))
            }
        }
        let outcomes = results.all
        // Per suite: accepted (exit 0/1: read to the end; 1 = content errors), refused (exit 3/4).
        var summary: [String: (accepted: Int, refused: Int)] = [:]
        for outcome in outcomes {
            // No crash (a signal), no hang (killed), no internal error (70).
            #expect(outcome.status != nil, "\(outcome.suite)/\(outcome.path): crashed or hung: \(outcome.failure)")
            #expect(outcome.status.map { [0, 1, 3, 4].contains($0) } ?? false,
                    "\(outcome.suite)/\(outcome.path): exit \(String(describing: outcome.status))")
            let accepted = outcome.status == 0 || outcome.status == 1
            summary[outcome.suite, default: (0, 0)].accepted += accepted ? 1 : 0
            summary[outcome.suite, default: (0, 0)].refused += accepted ? 0 : 1
            Self.checkVerdict(outcome)
        }
        for suite in summary.keys.sorted() {
            print("corpus sweep: \(suite): \(summary[suite]?.accepted ?? 0) accepted, \(summary[suite]?.refused ?? 0) refused")
        }
        try checkOasisManifest(corpus: corpus, outcomes: outcomes)
    }

    /// The verdicts the suites give by file name.
    static func checkVerdict(_ outcome: Outcome) {
        let name = (outcome.path as NSString).lastPathComponent
        let where_ = "\(outcome.suite)/\(outcome.path): exit \(String(describing: outcome.status)) \(outcome.codes.sorted())"
        switch outcome.suite {
        case "JSONTestSuite" where outcome.path.hasPrefix("test_parsing/"):
            // y_: must be accepted; n_: must be refused as malformed; i_: either, never a crash.
            if name.hasPrefix("y_") { #expect(outcome.status == 0, "\(where_)") }
            if name.hasPrefix("n_") {
                #expect(outcome.status == 3, "\(where_)")
                #expect(!outcome.codes.isDisjoint(with: ["malformed-json", "invalid-encoding", "too-deep"]), "\(where_)")
            }
        case "csv-test-data" where name.hasPrefix("bad-"):
            // bad-header-wrong-header.csv only breaks the suite's own expected header (foo,bar,baz);
            // read schema-free it is a fine CSV file. A quote inside an unquoted field is kept as a
            // character with a warning (as Python's csv, Rust's csv and DuckDB read it).
            if name == "bad-unescaped-quote.csv" {
                #expect(outcome.status == 0, "\(where_)")
                #expect(outcome.codes == ["stray-quote"], "\(where_)")
            } else if name != "bad-header-wrong-header.csv" {
                #expect(outcome.status == 3, "\(where_)")
                #expect(!outcome.codes.isDisjoint(with: ["malformed-csv", "ragged-row", "unterminated-quote"]), "\(where_)")
            }
        case "tar-zip-slip" where name.hasSuffix(".tar"),
             "tar-google-safearchive" where name.hasPrefix("traverse"):
            #expect(outcome.status == 3, "\(where_)")
            #expect(outcome.codes.contains("unsafe-path"), "\(where_)")
        case "xxe-payloads" where name.hasSuffix(".xml"), "defusedxml-xmltestdata" where name.hasSuffix(".xml"):
            // Never read a secret: refused (entities, external DTDs) or not Ferry-shaped.
            #expect(outcome.status == 3, "\(where_)")
        default:
            break
        }
    }

    /// xmlconf (Docs/xml.md): every not-wf test is refused as malformed-xml or unsafe-xml (exit 3).
    /// Valid tests are not Ferry-shaped (no `<dataset>` root) or are refused for safety, so only
    /// "no crash" applies to them.
    func checkOasisManifest(corpus: URL, outcomes: [Outcome]) throws {
        let manifestURL = corpus.appendingPathComponent("xmlconf-oasis/oasis-subset.xml")
        guard let manifest = try? String(contentsOf: manifestURL, encoding: .utf8) else { return }
        let pattern = try NSRegularExpression(pattern: #"<TEST TYPE='not-wf'[^>]*URI='([^']+)'"#)
        let byPath = Dictionary(outcomes.filter { $0.suite == "xmlconf-oasis" }.map { ($0.path, $0) },
                                uniquingKeysWith: { first, _ in first })
        var checked = 0
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            guard let range = Range(match.range(at: 1), in: manifest) else { continue }
            let path = "oasis/" + manifest[range]
            let outcome = try #require(byPath[path], "\(path) not swept")
            #expect(outcome.status == 3, "\(path): exit \(String(describing: outcome.status))")
            #expect(!outcome.codes.isDisjoint(with: ["malformed-xml", "unsafe-xml", "invalid-encoding"]),
                    "\(path): \(outcome.codes.sorted())")
            checked += 1
        }
        #expect(checked == 60)
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Outcome?]
        init(count: Int) { stored = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ outcome: Outcome) { lock.withLock { stored[index] = outcome } }
        var all: [Outcome] { lock.withLock { stored.compactMap { $0 } } }
    }
}
