import FerryCore
import Foundation
import FerryTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every diagnostic code the product can emit, triggered through the real binary with a crafted
/// input, has a position (issue 8 item 4): a file, and for text formats a line and column, for
/// bundles a member path, plus the collection, record and field where one applies.
@Suite struct DiagnosticPositionTests {
    /// What the location of a code's diagnostic must hold.
    enum Expect {
        /// File, line and column; `field` also the collection, record index and field pointer.
        case text(field: Bool)
        /// File and archive member.
        case member
        /// File only: the problem is the input (or output) as a whole.
        case file
    }

    struct Case: @unchecked Sendable, CustomStringConvertible {
        var code: String
        var arguments: [String]
        var expect: Expect
        /// Writes the inputs into the folder.
        var setUp: (URL) throws -> Void
        var environment: [String: String] = [:]
        var description: String { code }
    }

    /// Codes no crafted input can make the product emit, with the reason. The test fails when a
    /// code is neither covered nor listed here.
    static let notTriggeredByInput: [String: String] = [
        "internal-error": "a bug in Ferry (libxml2 refusing to create a parser, a broken invariant); no input reaches it",
        "usage": "about the command line, not an input: printed as `ferry <command>: error: ...` with no position",
    ]

    static let rec = #"{"id":"b-1","title":"T","category":"red","createdAt":"2024-05-01T09:30:00Z","alcoholByVolume":14,"look":{"tint":"ruby","note":""},"smells":[],"tastes":[],"grape":{"variety":"x"},"think":"","rating":3,"isFavorite":false}"#

    static func notes(_ records: String...) -> String {
        "{\"domain\":\"notes\",\"schemaVersion\":2,\"wineTastingNotes\":[\n" + records.joined(separator: ",\n") + "\n]}\n"
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func bytes(_ bytes: [UInt8], _ name: String, in folder: URL) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    /// A pet-story V2 folder bundle made by ferry from the Documents-folder sample.
    static func bundle(in folder: URL) throws -> URL {
        let target = folder.appendingPathComponent("b")
        let run = try runFerry(["migrate", Fixtures.sample("pet-story-v1-documents").path, "--to-version", "2",
                                "-o", target.path + "/"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        return target
    }

    static func shell(_ command: String, in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
    }

    static let cases: [Case] = [
        Case(code: "type-error", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec.replacingOccurrences(of: "\"rating\":3", with: "\"rating\":\"3\"")), "x.json", in: $0)
        },
        Case(code: "missing-field", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec.replacingOccurrences(of: "\"rating\":3,", with: "")), "x.json", in: $0)
        },
        Case(code: "unknown-field", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec.replacingOccurrences(of: "\"rating\":3", with: "\"rating\":3,\"bogus\":1")), "x.json", in: $0)
        },
        Case(code: "out-of-range", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec.replacingOccurrences(of: "\"rating\":3", with: "\"rating\":7")), "x.json", in: $0)
        },
        Case(code: "invalid-value", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec.replacingOccurrences(of: "2024-05-01T09:30:00Z", with: "nope")), "x.json", in: $0)
        },
        Case(code: "duplicate-id", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try write(notes(rec, rec), "x.json", in: $0)
        },
        Case(code: "dangling-reference", arguments: ["validate", "x.json"], expect: .text(field: true)) {
            try FileManager.default.copyItem(at: Fixtures.sample("broken/pet-story-v1-invalid.json"),
                                             to: $0.appendingPathComponent("x.json"))
        },
        Case(code: "lossy-drop", arguments: ["migrate", "x.json", "--to-version", "2"], expect: .text(field: true)) {
            try FileManager.default.copyItem(at: Fixtures.sample("notes-v1.json"), to: $0.appendingPathComponent("x.json"))
        },
        // The line and column point at the field itself; the text line does not repeat the record.
        Case(code: "lossy-precision", arguments: ["migrate", "x.json", "--to-version", "2"], expect: .text(field: false)) {
            let text = try String(contentsOf: Fixtures.sample("notes-v1.json"), encoding: .utf8)
                .replacingOccurrences(of: "2024-05-01T09:30:00Z", with: "2024-05-01T09:30:00.123456Z")
            try write(text, "x.json", in: $0)
        },
        Case(code: "media-not-found", arguments: ["migrate", "x.json", "--to-version", "2"], expect: .text(field: true)) {
            try FileManager.default.copyItem(at: Fixtures.sample("pet-story-v1.json"), to: $0.appendingPathComponent("x.json"))
        },
        Case(code: "assumption", arguments: ["migrate", "x.json", "--to-version", "2", "-v"], expect: .text(field: false)) {
            try FileManager.default.copyItem(at: Fixtures.sample("pet-story-v1.json"), to: $0.appendingPathComponent("x.json"))
        },
        // --lenient maps a finish length that is not short/medium/long to medium, and says so.
        Case(code: "lossy-change", arguments: ["migrate", "x.json", "--to-version", "2", "--lenient"], expect: .text(field: true)) {
            let text = try String(contentsOf: Fixtures.sample("notes-v1.json"), encoding: .utf8)
                .replacingOccurrences(of: "\"length\": \"Long\"", with: "\"length\": \"Lingering\"")
            try write(text, "x.json", in: $0)
        },
        // A CSV of a domain (named after its collection) with a repeated header name.
        Case(code: "duplicate-header", arguments: ["validate", "wineTastingNotes.csv"], expect: .text(field: false)) {
            try write("id,title,title\nx,a,b\n", "wineTastingNotes.csv", in: $0)
        },
        // A mapping that leaves a column unused: one warning, at the column's header cell.
        Case(code: "unmapped-field", arguments: ["convert", "x.csv", "--map", "m.json", "-o", "out.json"], expect: .text(field: false)) {
            try write("guid,word,extra\ng1,本,?\n", "x.csv", in: $0)
            try write(#"{"domain": "vocabulary", "schemaVersion": 2, "collection": "words", "records": {"wordBooks": [{"id": "b", "title": "B", "createdAt": "2024-01-01T00:00:00Z"}]}, "fields": {"id": "guid", "wordBookID": {"const": "b"}, "meaningText": {"const": ""}, "meaningImageURL": {"const": ""}, "ganaText": {"const": ""}, "ganaImageURL": {"const": ""}, "kanjiText": "word", "kanjiImageURL": {"const": ""}, "studyState": {"const": "undefined"}, "timestamp": {"const": "2024-01-01T00:00:00Z"}}}"#, "m.json", in: $0)
        },
        Case(code: "malformed-json", arguments: ["validate", "x.json"], expect: .text(field: false)) {
            try write("[1,2", "x.json", in: $0)
        },
        Case(code: "too-deep", arguments: ["validate", "x.json"], expect: .text(field: false)) {
            try write(String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "x.json", in: $0)
        },
        // A dotted CSV header name unflattens into nested objects: refused past 512 levels.
        Case(code: "too-deep", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try write("a" + String(repeating: ".a", count: 600) + ",b\n1,2\n", "x.csv", in: $0)
        },
        Case(code: "invalid-encoding", arguments: ["validate", "x.xml"], expect: .text(field: false)) {
            try bytes(Array("<dataset><r a=\"caf".utf8) + [0xE9] + Array("\"/></dataset>".utf8), "x.xml", in: $0)
        },
        Case(code: "invalid-encoding", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try bytes(Array("a,b\n1,caf".utf8) + [0xE9, 0x0A], "x.csv", in: $0)
        },
        Case(code: "too-large", arguments: ["validate", "b"], expect: .member) {
            let bundle = try bundle(in: $0)
            let long = String(repeating: "d/", count: 1100) + "x.png"
            try write("x", "b/data/media/" + long, in: $0)
            _ = bundle
        },
        Case(code: "unreadable-input", arguments: ["validate", "absent.json"], expect: .file) { _ in },
        Case(code: "unknown-format", arguments: ["validate", "x.weird"], expect: .file) {
            try write("x", "x.weird", in: $0)
        },
        Case(code: "unknown-domain", arguments: ["migrate", "x.json", "--to-version", "2"], expect: .file) {
            try write("{\"domain\":\"zzz\",\"a\":[{\"x\":1}]}", "x.json", in: $0)
        },
        Case(code: "unknown-version", arguments: ["validate", "x.json"], expect: .file) {
            try write("{\"domain\":\"notes\",\"schemaVersion\":9,\"wineTastingNotes\":[]}", "x.json", in: $0)
        },
        Case(code: "output-unwritable", arguments: ["convert", "x.json", "--to", "jsonl", "-o", "x.json/out.jsonl"],
             expect: .file) {
            try write("[{\"a\":1}]", "x.json", in: $0)
        },
        Case(code: "ragged-row", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try write("a,b\n1,2,3\n", "x.csv", in: $0)
        },
        Case(code: "unterminated-quote", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try write("a,b\n1,\"2\n", "x.csv", in: $0)
        },
        Case(code: "malformed-csv", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try write("a,b\n1,\"2\"x\n", "x.csv", in: $0)
        },
        Case(code: "stray-quote", arguments: ["validate", "x.csv"], expect: .text(field: false)) {
            try write("a,b\n1,2\"x\n", "x.csv", in: $0)
        },
        Case(code: "malformed-xml", arguments: ["validate", "x.xml"], expect: .text(field: false)) {
            try write("<dataset><r></dataset>", "x.xml", in: $0)
        },
        Case(code: "unsafe-xml", arguments: ["validate", "x.xml"], expect: .text(field: false)) {
            try write("<!DOCTYPE d [<!ENTITY e \"x\">]>\n<dataset/>", "x.xml", in: $0)
        },
        Case(code: "unsafe-path", arguments: ["validate", "x.tar"], expect: .member) {
            try shell("mkdir -p in/data && echo '[]' > in/data/x.json && tar cf x.tar -C in data/x.json "
                      + "--transform='s,^data/x.json,../evil.json,' -P", in: $0)
        },
        Case(code: "truncated-archive", arguments: ["validate", "x.tar"], expect: .member) {
            try shell("mkdir -p in/data && head -c 5000 /dev/zero | tr '\\0' 'a' > in/data/x.json "
                      + "&& tar cf x.tar -C in data && truncate -s 2048 x.tar", in: $0)
        },
        Case(code: "malformed-archive", arguments: ["validate", "x.tar"], expect: .file) {
            try bytes(Array(repeating: 0x41, count: 1024), "x.tar", in: $0)
        },
        Case(code: "missing-manifest", arguments: ["validate", "b"], expect: .file) {
            _ = try bundle(in: $0)
            // Without bagit.txt too: a BagIt bag needs no manifest.json.
            try FileManager.default.removeItem(at: $0.appendingPathComponent("b/manifest.json"))
            try FileManager.default.removeItem(at: $0.appendingPathComponent("b/bagit.txt"))
        },
        Case(code: "checksum-mismatch", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            try write("changed", "b/data/media/Stories/s2/bath1.png", in: $0)
        },
        Case(code: "missing-file", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            try FileManager.default.removeItem(at: $0.appendingPathComponent("b/data/media/Stories/s2/bath1.png"))
        },
        Case(code: "missing-media", arguments: ["validate", "b"], expect: .text(field: true)) {
            _ = try bundle(in: $0)
            try FileManager.default.removeItem(at: $0.appendingPathComponent("b/data/media/Stories/s2/bath1.png"))
        },
        Case(code: "unlisted-file", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            try write("extra", "b/data/media/extra.png", in: $0)
        },
        Case(code: "orphan-media", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            try write("extra", "b/data/media/extra.png", in: $0)
        },
        Case(code: "media-left-out", arguments: ["convert", "docs", "--where", #"id != "s2""#, "-o", "o.tar"], expect: .member) {
            try FileManager.default.copyItem(at: Fixtures.sample("pet-story-v1-documents"), to: $0.appendingPathComponent("docs"))
        },
        Case(code: "count-mismatch", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            let url = $0.appendingPathComponent("b/manifest.json")
            let text = try String(contentsOf: url, encoding: .utf8)
            try write(text.replacingOccurrences(of: "\"count\": 1", with: "\"count\": 3"), "b/manifest.json", in: $0)
        },
        Case(code: "duplicate-member", arguments: ["validate", "b"], expect: .member) {
            _ = try bundle(in: $0)
            // One name in NFC (U+00E9) and NFD (e + U+0301): one name in a bundle.
            try write("1", "b/data/media/caf\u{E9}.png", in: $0)
            try write("2", "b/data/media/cafe\u{301}.png", in: $0)
        },
        Case(code: "adapter-failed", arguments: ["validate", "x.zz"], expect: .file,
             setUp: {
                 try write("#!/bin/sh\nif [ \"$1\" = describe ]; then echo '{\"name\":\"zz\",\"extensions\":[\"zz\"],\"reads\":true,\"writes\":false}'; exit 0; fi\nkill -SEGV $$\n",
                           "bin/ferry-format-zz", in: $0)
                 chmod($0.appendingPathComponent("bin/ferry-format-zz").path, 0o755)
                 try write("x", "x.zz", in: $0)
             }),
    ]

    /// Splits `FILE[:MEMBER][:LINE[:COL]]: severity: message [code]` lines of `stderr` for `code`.
    static func lines(for code: String, in stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasSuffix("[\(code)]") }
    }

    @Test func everyCodeIsCoveredOrExplained() {
        let covered = Set(Self.cases.map(\.code))
        for code in Diagnostic.Code.all.map(\.rawValue) {
            #expect(covered.contains(code) != (Self.notTriggeredByInput[code] != nil), "\(code): covered or explained, not both")
        }
    }

    @Test(arguments: cases)
    func diagnosticHasAPosition(_ testCase: Case) throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try testCase.setUp(folder)
        var environment = testCase.environment
        if testCase.code == "adapter-failed" {
            environment["PATH"] = folder.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        }
        var arguments = testCase.arguments
        let usesReport = arguments.first == "validate"
        if usesReport { arguments += ["--report", "json"] }
        let run = try runFerry(arguments, in: folder, environment: environment)
        let found = Self.lines(for: testCase.code, in: run.stderr)
        let line = try #require(found.first, "\(testCase.code) not emitted:\n\(run.stderr)")
        let input = testCase.arguments[1]
        let prefix = String(line.prefix { $0 != " " })
        switch testCase.expect {
        case .text(let field):
            // FILE:LINE:COL: (the file may hold a member for a bundle data file)
            let parts = prefix.dropLast().split(separator: ":")
            #expect(parts.count >= 3 && Int(parts[parts.count - 1]) != nil && Int(parts[parts.count - 2]) != nil,
                    "\(testCase.code): no line and column in \(line)")
            #expect(prefix.hasPrefix(input), "\(testCase.code): no file in \(line)")
            if field {
                if usesReport {
                    let location = try Self.reportLocation(of: testCase.code, in: run.stdout)
                    #expect(location["collection"] != nil && location["record"] != nil && location["field"] != nil,
                            "\(testCase.code): \(location)")
                } else {
                    // The text line names the field's JSON Pointer right after the severity.
                    #expect(line.range(of: #": (error|warning|note): /[^ ]+: "#, options: .regularExpression) != nil,
                            "\(testCase.code): no pointer in \(line)")
                }
            }
        case .member:
            #expect(prefix.hasPrefix(input + ":"), "\(testCase.code): no file in \(line)")
            let rest = prefix.dropFirst(input.count + 1)
            #expect(rest.count > 1, "\(testCase.code): no member in \(line)")
        case .file:
            let named = testCase.code == "adapter-failed" ? "/bin/ferry-format-zz:" : input
            #expect(prefix.contains(named), "\(testCase.code): no file in \(line)")
        }
    }

    /// The location object of the first diagnostic with `code` in a `--report json` report.
    static func reportLocation(of code: String, in report: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
        for file in object?["files"] as? [[String: Any]] ?? [] {
            for diagnostic in file["diagnostics"] as? [[String: Any]] ?? [] where diagnostic["code"] as? String == code {
                return diagnostic["location"] as? [String: Any] ?? [:]
            }
        }
        return [:]
    }
}
