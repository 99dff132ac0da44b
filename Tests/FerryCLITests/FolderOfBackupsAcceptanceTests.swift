import FerryTestSupport
import Foundation
import Testing

/// The first "Done when" of datasets as users keep them, on exports made here, not the samples:
/// a folder of backups of all three domains at both versions, in JSON, JSON Lines, XML, a CSV
/// folder and a tar bundle, nested, one malformed and one invalid, is validated file by file
/// (one summary each, every file's errors, a total, exit 3); converting it to a folder writes
/// every good file, mirroring the tree, byte for byte what the file gives alone.
@Suite struct FolderOfBackupsAcceptanceTests {
    /// `backups/` relative path -> how it is made from the generated JSON of a domain and version.
    struct Backup: Sendable {
        var path: String
        var domain: String
        var version: Int
        /// `convert` arguments after the input (the output is `backups/<path>`); nil: the JSON as generated.
        var convert: [String]?
    }

    static let backups: [Backup] = [
        Backup(path: "2024/01/notes.json", domain: "notes", version: 1, convert: nil),
        Backup(path: "2024/01/pets.jsonl", domain: "pet-story", version: 1, convert: []),
        Backup(path: "2024/02/words.xml", domain: "vocabulary", version: 1, convert: []),
        Backup(path: "2024/03/notes-csv", domain: "notes", version: 2, convert: ["--to", "csv"]),
        Backup(path: "2024/03/deep/pets.tar", domain: "pet-story", version: 2, convert: []),
        Backup(path: "2024/04/words.json", domain: "vocabulary", version: 2, convert: nil),
    ]

    /// The folder: the backups above, the vocabulary V2 one with an unknown studyState in its
    /// second word, and `2023/12/notes.json` cut short (malformed, first in byte order).
    static func folder() throws -> Sandbox {
        let box = try Sandbox()
        for backup in backups {
            var json = GeneratedBackups.json(domain: backup.domain, version: backup.version, count: 4, seed: 18)
            if backup.path == "2024/04/words.json" {
                let second = json.range(of: #""id": "w1""#)!
                let state = json.range(of: #""studyState": "[a-z]+""#, options: .regularExpression, range: second.upperBound..<json.endIndex)!
                json.replaceSubrange(state, with: #""studyState": "later""#)
            }
            guard let convert = backup.convert else {
                try box.write("backups/" + backup.path, json)
                continue
            }
            try box.write("gen.json", json)
            let output = "backups/" + backup.path + (convert.contains("csv") ? "/" : "")
            let run = try box.ferry(["convert", "gen.json", "-o", output, "-q"] + convert)
            #expect(run.status == 0, "\(backup.path): \(run.stderr)")
            try box.remove("gen.json")
        }
        try box.write("backups/2023/12/notes.json", String(GeneratedBackups.json(domain: "notes", version: 1).prefix(200)))
        return box
    }

    @Test func theFolderValidatesEachBackupOnItsOwn() throws {
        let box = try Self.folder()
        let run = try box.ferry(["validate", "backups/"])
        #expect(run.status == 3)
        expectGolden(run.stderr, "acceptance/folder-of-backups.validate.txt")
        // Each file's lines are the lines it gives alone (its diagnostics, then its summary).
        let files = (["2023/12/notes.json"] + Self.backups.map(\.path)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var diagnostics: [String] = []
        var summaries: [String] = []
        for file in files {
            let alone = try box.ferry(["validate", "backups/" + file])
            diagnostics += alone.stderrLines.dropLast()
            summaries += alone.stderrLines.suffix(1)
        }
        #expect(run.stderrLines.dropLast() == ArraySlice(diagnostics + summaries))
        #expect(summaries.count == 7)
        #expect(run.stderrLines.last == "total: 7 datasets, 5 valid, 2 invalid (2 errors, 0 warnings)")
        #expect(run.errors.contains { $0.hasPrefix("backups/2023/12/notes.json:") && $0.hasSuffix("[malformed-json]") })
        #expect(run.errors.contains { $0.hasPrefix("backups/2024/04/words.json:") && $0.contains("/words/1/studyState") })
    }

    @Test func theFolderConvertsToAMirroredTree() throws {
        let box = try Self.folder()
        let run = try box.ferry(["convert", "backups/", "-o", "out/", "--to", "json"])
        #expect(run.status == 3)
        #expect(run.stderrLines.last == "total: 7 datasets, 5 written, 2 failed (2 errors, 0 warnings)")
        let good = Self.backups.filter { $0.path != "2024/04/words.json" }
        let written = good.map { backup in
            let stem = backup.path.hasSuffix("notes-csv") ? backup.path : String(backup.path.prefix { $0 != "." })
            return stem + ".json"
        }
        #expect(try box.files(under: "out") == written.sorted())
        for (backup, output) in zip(good, written) {
            let alone = try box.ferry(["convert", "backups/" + backup.path, "--to", "json", "-q"])
            #expect(alone.status == 0)
            #expect(try box.text("out/" + output) == alone.stdout, "\(output)")
        }
        // What was written reads back as the backup it came from.
        for output in written {
            #expect(try box.ferry(["validate", "out/" + output, "-q"]).status == 0, "\(output)")
        }
    }
}
