import FerryTestSupport
import Foundation
import Testing

/// Issue 6, external format adapters: the TOML example of `Samples/plugins/` and adapters that
/// misbehave (garbage, a hang, a failing exit) written here.
@Suite struct ExternalAdapterCLITests {
    private func path(with folder: URL) -> [String: String] {
        ["PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    private func tomlAvailable() -> Bool {
        guard let python = toolOnPath("python3"),
              let run = try? runTool(python, ["-c", "import tomllib"], in: Fixtures.packageRoot), run.status == 0
        else {
            print("skipped: python3 with tomllib (3.11+) absent")
            return false
        }
        return true
    }

    @Test func formatsListsTheTOMLAdapter() throws {
        guard tomlAvailable() else { return }
        let box = try Sandbox()
        try box.copySample("plugins", to: "plugins")
        let run = try box.ferry(["formats"], environment: path(with: box.url.appendingPathComponent("plugins")))
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").last == "toml    .toml                 read/write external adapter $TMP/plugins/ferry-format-toml")
        #expect(run.stdout.contains("tar     .tar .tar.gz .tgz .tar.zst .tar.xz .tar.bz2 "))
        let json = try box.ferry(["formats", "--json"], environment: path(with: box.url.appendingPathComponent("plugins")))
        #expect(json.stdout.contains(#"{"name": "toml", "extensions": ["toml"], "reads": true, "writes": true, "builtIn": false}"#))
        let without = try box.ferry(["formats"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(!without.stdout.contains("toml"))
    }

    @Test func jsonToTOMLToJSONRoundTrips() throws {
        guard tomlAvailable() else { return }
        let box = try Sandbox()
        try box.copySample("plugins", to: "plugins")
        try box.copySample("notes-v1.json")
        try box.copySample("vocabulary-v1-node-firestore.json")
        let env = path(with: box.url.appendingPathComponent("plugins"))
        for sample in ["notes-v1.json", "vocabulary-v1-node-firestore.json"] {
            #expect(try box.ferry(["migrate", sample, "--to-version", "2", "-o", "v2-\(sample)"]).status == 0)
            let toTOML = try box.ferry(["convert", "v2-\(sample)", "-o", "\(sample).toml"], environment: env)
            #expect(toTOML.status == 0, "\(toTOML.stderr)")
            let back = try box.ferry(["convert", "\(sample).toml", "--to", "json", "-o", "back-\(sample)"], environment: env)
            #expect(back.status == 0, "\(back.stderr)")
            #expect(try box.bytes("back-\(sample)") == (try box.bytes("v2-\(sample)")), "\(sample)")
        }
        #expect(try box.text("notes-v1.json.toml").hasPrefix("""
            domain = "notes"
            schemaVersion = 2

            [[wineTastingNotes]]
            id = "w-001"
            title = "Pinot Noir Willamette 2019"

            """))
        // A TOML syntax error comes back as the adapter's positioned diagnostic.
        try box.write("bad.toml", "domain = \"notes\"\nschemaVersion = 2\n[[wineTastingNotes]\n")
        let bad = try box.ferry(["convert", "bad.toml", "--to", "json", "-o", "bad.json"], environment: env)
        #expect(bad.status != 0)
        #expect(bad.errors.first?.hasPrefix("bad.toml:3:") == true, "\(bad.stderr)")
        #expect(!box.exists("bad.json"))
    }

    /// Three broken adapters: each run ends with `adapter-failed`, writes no output (not even a
    /// partial one) and does not hang past `--adapter-timeout`.
    @Test func brokenAdaptersFailCleanly() throws {
        let box = try Sandbox()
        try box.writeAdapter("garbage", writes: true, verbs: """
            read) cat >/dev/null; echo '{"domain": "notes", "schemaVersion": 2}'; echo 'this is not json';;
              write) cat >/dev/null; echo 'whatever';;
            """)
        try box.writeAdapter("sleepy", writes: true, verbs: "*) exec sleep 20;;")
        try box.writeAdapter("failing", writes: true, verbs: "*) cat >/dev/null; exit 3;;")
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        for name in ["garbage", "sleepy", "failing"] { try box.write("in.\(name)", "anything\n") }
        let env = path(with: box.url.appendingPathComponent("bin"))
        let adapter = "$TMP/bin/ferry-format-"

        let garbage = try box.ferry(["convert", "in.garbage", "--to", "json", "-o", "out.json"], environment: env)
        #expect(garbage.status == 3)
        #expect(garbage.errors.count == 1)
        #expect(garbage.errors.first?.hasPrefix("in.garbage: error: the garbage adapter printed output that is not JSON Lines: ") == true)
        #expect(garbage.errors.first?.hasSuffix(" [adapter-failed]") == true)

        let sleepyRead = try box.ferry(["convert", "in.sleepy", "--to", "json", "-o", "out.json", "--adapter-timeout", "1"], environment: env)
        #expect(sleepyRead.status == 3)
        #expect(sleepyRead.errors == ["\(adapter)sleepy: error: \(adapter)sleepy printed nothing for 1 s (--adapter-timeout) [adapter-failed]"])
        let sleepyWrite = try box.ferry(["convert", "v2.json", "--to", "sleepy", "-o", "out.sleepy", "--adapter-timeout", "1"], environment: env)
        #expect(sleepyWrite.status == 3)
        // Whichever of the two timers (silence on its output, or the wait for its exit) fires first.
        #expect(sleepyWrite.errors.count == 1)
        #expect([
            "\(adapter)sleepy: error: \(adapter)sleepy printed nothing for 1 s (--adapter-timeout) [adapter-failed]",
            "\(adapter)sleepy: error: `\(adapter)sleepy write` did not finish within 1 s (--adapter-timeout) [adapter-failed]",
        ].contains(sleepyWrite.errors.first ?? ""))

        let failingRead = try box.ferry(["convert", "in.failing", "--to", "json", "-o", "out.json"], environment: env)
        #expect(failingRead.status == 3)
        #expect(failingRead.errors == ["\(adapter)failing: error: `\(adapter)failing read` exited with status 3 [adapter-failed]"])
        let failingWrite = try box.ferry(["convert", "v2.json", "--to", "failing", "-o", "out.failing"], environment: env)
        #expect(failingWrite.status == 3)
        #expect(failingWrite.errors == ["\(adapter)failing: error: `\(adapter)failing write` exited with status 3 [adapter-failed]"])

        // No output, no partial output, no temporary file.
        #expect(try box.list() == ["bin", "in.failing", "in.garbage", "in.sleepy", "notes-v1.json", "v2.json"])
    }

    /// An adapter still open for writing (just installed, or written by a thread while another
    /// forked) cannot be run for a moment (ETXTBSY); ferry tries it again instead of reading on as
    /// if it were not there. The writer here lets go 50 ms after ferry starts.
    @Test func anAdapterBusyForAMomentIsStillFound() throws {
        let box = try Sandbox()
        try box.writeAdapter("busy", verbs: #"read) cat >/dev/null; echo '{"a":1}';;"#)
        try box.write("in.busy", "anything\n")
        let writer = open(box.url.appendingPathComponent("bin/ferry-format-busy").path, O_WRONLY | O_APPEND | O_CLOEXEC)
        #expect(writer >= 0)
        Thread.detachNewThread { usleep(50_000); close(writer) }
        let run = try box.ferry(["convert", "in.busy", "--to", "jsonl", "-o", "-"], environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == #"{"a":1}"# + "\n")
    }

    /// An adapter that fails to describe itself is not a format, and the error for the format
    /// nothing reads names it, for `--from`, an input's extension, `--to` and an output's.
    /// A write adapter that exits before reading all its input fails as an adapter (exit 3), with
    /// what it said on standard error, not as an output that cannot be written (the broken pipe's
    /// exit 5). The input is larger than a pipe holds, so ferry is still writing when it exits.
    @Test(arguments: [
        ("explains", #"echo '{"severity": "error", "code": "adapter-failed", "message": "no place for lists"}' >&2; exit 3"#,
            "out.explains: error: no place for lists [adapter-failed]"),
        ("crashes", "echo 'ModuleNotFoundError: yaml' >&2; exit 1",
            "out.crashes: error: $TMP/bin/ferry-format-crashes printed on standard error: ModuleNotFoundError: yaml [adapter-failed]"),
        ("quits", "exit 0",
            "out.quits: error: the quits adapter stopped reading its input [adapter-failed]"),
        ("refuses", #"echo '{"severity": "error", "code": "invalid-value", "message": "no place for lists", "line": 2, "column": 9}' >&2; exit 1"#,
            "out.refuses: error: the refuses adapter could not write: no place for lists (invalid-value) [adapter-failed]"),
    ])
    func aWriteAdapterThatStopsReadingFailsAsAnAdapter(name: String, write: String, error: String) throws {
        try aWriteAdapterFails(name: name, write: write, error: error, records: 3000)
    }

    /// A write adapter that reads all its input and then fails, with an error line of any code, is
    /// `adapter-failed` (exit 3), as a read adapter's failure is; nothing is written.
    @Test(arguments: [
        ("explains", #"cat >/dev/null; echo '{"severity": "error", "code": "adapter-failed", "message": "no place for lists"}' >&2; exit 3"#,
            "out.explains: error: no place for lists [adapter-failed]"),
        ("refuses", #"cat >/dev/null; echo '{"severity": "error", "code": "invalid-value", "message": "no place for lists", "line": 2, "column": 9}' >&2; exit 1"#,
            "out.refuses: error: the refuses adapter could not write: no place for lists (invalid-value) [adapter-failed]"),
        ("exits", "cat >/dev/null; exit 1",
            "$TMP/bin/ferry-format-exits: error: `$TMP/bin/ferry-format-exits write` exited with status 1 [adapter-failed]"),
    ])
    func aWriteAdapterThatFailsAfterReadingFailsAsAnAdapter(name: String, write: String, error: String) throws {
        try aWriteAdapterFails(name: name, write: write, error: error, records: 3)
    }

    private func aWriteAdapterFails(name: String, write: String, error: String, records: Int) throws {
        let box = try Sandbox()
        try box.writeAdapter(name, writes: true, verbs: "write) \(write);;")
        let lines = (0..<records).map { #"{"n": \#($0), "text": "a line long enough to fill a pipe before the end"}"# }
        try box.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        let run = try box.ferry(["convert", "in.jsonl", "-o", "out.\(name)"], environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == 3, "\(name): \(run.stderr)")
        #expect(run.errors == [error], "\(name)")
        #expect(try box.list() == ["bin", "in.jsonl"], "\(name)")
    }

    /// A format whose adapter only writes, named for an input by `--from` or by the extension,
    /// is said to be write-only (it was "cannot tell the format; name it with --from").
    @Test(arguments: [["validate", "in.wo", "--from", "wo"], ["validate", "in.wo"], ["convert", "in.wo", "-o", "out.json"]])
    func aWriteOnlyFormatIsNotRead(arguments: [String]) throws {
        let box = try Sandbox()
        try box.writeScript("bin/ferry-format-wo", """
            #!/bin/sh
            case "$1" in
              describe) echo '{"name": "wo", "extensions": ["wo"], "reads": false, "writes": true}';;
              *) cat >/dev/null;;
            esac

            """)
        try box.write("in.wo", "anything\n")
        let run = try box.ferry(arguments, environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == 4)
        #expect(run.errors == ["in.wo: error: format 'wo' is written only, not read; `ferry formats` lists what reads [unknown-format]"])
    }

    /// A format whose adapter only reads, named for an output by `--to` or by the extension, is
    /// said to be read-only (it was an unknown format, with unrelated adapters named).
    @Test(arguments: [
        (["--to", "ro", "-o", "out.x"], "ferry convert: error: format 'ro' is read only, not written; `ferry formats` lists what writes [unknown-format]"),
        (["-o", "out.ro"], "out.ro: error: format 'ro' is read only, not written; `ferry formats` lists what writes [unknown-format]"),
    ])
    func aReadOnlyFormatIsNotWritten(arguments: [String], error: String) throws {
        let box = try Sandbox()
        try box.writeAdapter("ro", verbs: "read) cat >/dev/null; echo '{\"a\": 1}';;")
        try box.copySample("notes-v1.json")
        let run = try box.ferry(["convert", "notes-v1.json"] + arguments, environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == 4)
        #expect(run.errors == [error])
        #expect(try box.list() == ["bin", "notes-v1.json"])
    }

    /// Adapters describe themselves at once, not one after another: each of these two says it
    /// started, then describes itself only once the other has started too (it gives up after
    /// 10 s, before the timeout). Asked in turn, the first would wait for the second in vain.
    @Test func adaptersDescribeThemselvesTogether() throws {
        let box = try Sandbox()
        for (name, other) in [("one", "two"), ("two", "one")] {
            try box.writeScript("bin/ferry-format-\(name)", """
                #!/bin/sh
                touch "$(dirname "$0")/../\(name).started"
                i=0
                while [ ! -e "$(dirname "$0")/../\(other).started" ]; do
                  i=$((i + 1)); [ $i -gt 100 ] && { echo 'the other adapter never started' >&2; exit 1; }
                  sleep 0.1
                done
                echo '{"name": "\(name)", "extensions": ["\(name)"], "reads": true, "writes": false}'

                """)
        }
        // A folder with an adapter's name is no program (a shell would not run it either).
        try FileManager.default.createDirectory(at: box.url.appendingPathComponent("bin/ferry-format-folder"),
            withIntermediateDirectories: true)
        let run = try box.ferry(["formats", "--adapter-timeout", "30"], environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.errors == [])
        let adapters = run.stdout.split(separator: "\n").filter { $0.contains("external adapter") }
        #expect(adapters == [
            "one     .one                  read       external adapter $TMP/bin/ferry-format-one",
            "two     .two                  read       external adapter $TMP/bin/ferry-format-two",
        ])
    }

    @Test func anAdapterThatDoesNotDescribeItselfIsNamed() throws {
        let box = try Sandbox()
        try box.writeScript("bin/ferry-format-broken", """
            #!/bin/sh
            echo 'not json'

            """)
        try box.writeScript("bin/ferry-format-aaa", "#!/bin/sh\necho 'No module named yaml' >&2\nexit 3\n")
        try box.write("in.broken", "anything\n")
        try box.copySample("notes-v1.json")
        let env = path(with: box.url.appendingPathComponent("bin"))
        // The adapter of the format asked for first, the others after it.
        let note = "; ferry-format-broken, ferry-format-aaa on PATH did not describe themselves (`ferry formats` says why) [unknown-format]"
        let byExtension = try box.ferry(["validate", "in.broken"], environment: env)
        #expect(byExtension.status == 4)
        #expect(byExtension.errors == ["in.broken: error: no format reads '.broken' files; name one with --from (`ferry formats` lists them)" + note])
        let byName = try box.ferry(["validate", "in.broken", "--from", "broken"], environment: env)
        #expect(byName.errors == ["ferry validate: error: unknown input format 'broken'; `ferry formats` lists them" + note])
        let output = try box.ferry(["convert", "notes-v1.json", "-o", "out.broken"], environment: env)
        #expect(output.status == 4)
        #expect(output.errors == ["out.broken: error: no format writes '.broken' files; name one with --to (`ferry formats` lists them)" + note])
        let named = try box.ferry(["convert", "notes-v1.json", "--to", "broken", "-o", "out.x"], environment: env)
        #expect(named.errors == ["ferry convert: error: unknown output format 'broken'; `ferry formats` lists them" + note])
        let formats = try box.ferry(["formats"], environment: env)
        #expect(formats.errors == [
            "$TMP/bin/ferry-format-aaa: error: `$TMP/bin/ferry-format-aaa describe` exited with status 3; "
                + "it printed on standard error: No module named yaml [adapter-failed]",
            "$TMP/bin/ferry-format-broken: error: `describe` did not print {\"name\", \"extensions\", \"reads\", \"writes\"} [adapter-failed]",
        ])
        let without = try box.ferry(["validate", "in.broken"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(without.errors == ["in.broken: error: no format reads '.broken' files; name one with --from (`ferry formats` lists them) [unknown-format]"])
    }

    /// An adapter silent past `--adapter-timeout` is stopped with what it started (its process
    /// group), whether it hangs in `describe` or in `read`: nothing of it outlives the run.
    @Test(arguments: ["describe", "read"])
    func aTimedOutAdapterLeavesNoProcess(verb: String) throws {
        let box = try Sandbox()
        let hang = "sleep 30 & echo $! > \(box.path)/child; echo $$ > \(box.path)/shell; wait"
        try box.writeScript("bin/ferry-format-slow", """
            #!/bin/sh
            case "$1" in
              describe) \(verb == "describe" ? hang : "echo '{\"name\": \"slow\", \"extensions\": [\"slow\"], \"reads\": true}'");;
              read) cat >/dev/null; \(hang);;
            esac

            """)
        try box.write("in.slow", "anything\n")
        let run = try box.ferry(["validate", "in.slow", "--adapter-timeout", "1"], environment: path(with: box.url.appendingPathComponent("bin")))
        #expect(run.status == (verb == "describe" ? 4 : 3), "\(run.stderr)")
        for file in ["shell", "child"] {
            let pid = Int32(try box.text(file).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(pid > 0)
            // Gone, or a zombie waiting for whoever adopted it to reap it: not running.
            var running = false
            for _ in 0..<100 {
                let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                    .split(separator: ")").last?.split(separator: " ").first
                running = state != nil && state != "Z" && state != "X"
                if !running { break }
                usleep(20_000)
            }
            #expect(!running, "\(file) \(pid) still runs")
        }
    }
}
