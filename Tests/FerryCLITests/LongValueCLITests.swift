import FerryTestSupport
import Foundation
import Testing

/// A long string (1 MiB, 64 KiB pieces) goes through every writer unchanged, whichever domain and
/// version holds it and with or without `--jobs` (whose renderers leave such a record to the
/// writer): converting a JSON Lines input with the string gives the output of the same input with
/// a short marker in its place, the marker replaced by the string.
@Suite struct LongValueCLITests {
    /// (sample, the string field the long value goes into) for each domain.
    static let samples = [
        ("notes-v1.json", "title"), ("pet-story-v1.json", "name"), ("vocabulary-v1-backup-restore.json", "title"),
    ]
    static let marker = "QQLONGQQ"
    /// Characters every output writes as they are (no escape in JSON, XML or CSV), 1-4 UTF-8 bytes
    /// and U+2028, so that pieces of 64 KiB cut inside them.
    static let long = String(
        String(repeating: "ab é€😀\u{2028}", count: 1024 * 1024 / 16).prefix(1024 * 1024 / 16 * 9))

    @Test(arguments: samples, [1, 2])
    func longStringsGoThroughEveryWriter(sample: (String, String), version: Int) throws {
        let box = try Sandbox()
        try box.copySample(sample.0, to: "base.json")
        if version == 2 {
            #expect(try box.ferry(["migrate", "base.json", "--to-version", "2", "-o", "v2.json", "--quiet"]).status == 0)
            try box.remove("base.json")
            try FileManager.default.moveItem(at: box.url.appendingPathComponent("v2.json"), to: box.url.appendingPathComponent("base.json"))
        }
        #expect(try box.ferry(["convert", "base.json", "-o", "base.jsonl", "--quiet"]).status == 0)
        let text = try box.text("base.jsonl")
        let field = "\"\(sample.1)\":\""
        let at = try #require(text.range(of: field))
        try box.write("marked.jsonl", text.replacingCharacters(in: at, with: field + Self.marker))
        try box.write("long.jsonl", text.replacingCharacters(in: at, with: field + Self.long))
        // V1 is also migrated (the typed lines of notes leave the long record to the writer).
        let commands = version == 1 ? [["convert"], ["migrate", "--to-version", "2"]] : [["convert"]]
        for command in commands {
            for output in ["jsonl", "json", "xml"] {
                for jobs in ["1", "2"] {
                    let rest = ["--jobs", jobs, "--quiet"] + command.dropFirst()
                    let marked = try box.ferry([command[0], "marked.jsonl", "-o", "out-marked.\(output)"] + rest)
                    let long = try box.ferry([command[0], "long.jsonl", "-o", "out-long.\(output)"] + rest)
                    #expect(marked.status == 0 && long.status == 0, "\(sample.0) V\(version) \(command[0]) -> \(output), --jobs \(jobs)")
                    let expected = try box.text("out-marked.\(output)").replacingOccurrences(of: Self.marker, with: Self.long)
                    #expect(try box.text("out-long.\(output)") == expected, "\(sample.0) V\(version) \(command[0]) -> \(output), --jobs \(jobs)")
                }
            }
        }
    }
}
