import FerryTestSupport
import Foundation
import Testing

/// A folder that is neither a bundle, an app Documents folder nor a CSV folder of one dataset is
/// a set of datasets: `validate`, `convert`, `migrate` and `inspect` take each file under it on
/// its own (own domain, version and ids), in byte order, with one summary per file, a total line
/// and the worst exit status; a folder output mirrors the input tree.
@Suite struct FolderOfDatasetsCLITests {
    /// One dataset cell: a domain at a version.
    struct Cell: Sendable, CustomTestStringConvertible {
        var domain: String
        var version: Int
        var testDescription: String { "\(domain) v\(version)" }

        /// The V1 sample of the domain.
        var sample: String {
            switch domain {
            case "notes": "notes-v1.json"
            case "pet-story": "pet-story-v1.json"
            default: "vocabulary-v1-node-firestore.json"
            }
        }

        /// Writes the cell's dataset (V2 migrated from the sample by ferry) to `path`.
        func write(to path: String, in box: Sandbox) throws {
            if version == 1 { return try box.copySample(sample, to: path) }
            try box.copySample(sample, to: "source-\(domain).json")
            let run = try box.ferry(["migrate", "source-\(domain).json", "--to-version", "2", "-o", path, "-q"])
            #expect(run.status == 0)
            try box.remove("source-\(domain).json")
        }

        static let all: [Cell] = ["notes", "pet-story", "vocabulary"].flatMap { domain in [1, 2].map { Cell(domain: domain, version: $0) } }
    }

    static let commands: [[String]] = [["validate"], ["convert", "--to", "jsonl", "-o", "out/"], ["migrate", "--to-version", "2", "-o", "out/"], ["inspect"]]

    /// `backups/` holding every domain at both versions (`2024-01/` V1, `2024-02/` V2) and, first
    /// in byte order, a malformed notes backup.
    static func backups() throws -> Sandbox {
        let box = try Sandbox()
        for cell in Cell.all {
            try cell.write(to: "backups/2024-0\(cell.version)/\(cell.domain).json", in: box)
        }
        try box.write("backups/2023-12/notes.json", #"{"wineNotes": ["#)
        return box
    }

    /// Every file is validated on its own: the malformed first file hides nothing, a notes and a
    /// vocabulary backup are not one dataset (no `unknown collection __collections__`).
    @Test func aFolderOfBackupsValidatesEachOnItsOwn() throws {
        let box = try Self.backups()
        let run = try box.ferry(["validate", "backups/"])
        #expect(run.status == 3)
        #expect(run.stderrLines == [
            "backups/2023-12/notes.json:1:16: error: unexpected end of input, expected a value or ']' [malformed-json]",
            "backups/2023-12/notes.json: (0 records, 1 error, 0 warnings); malformed, not read in full",
            "backups/2024-01/notes.json: notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings); valid",
            "backups/2024-01/pet-story.json: pet-story v1: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid",
            "backups/2024-01/vocabulary.json: vocabulary v1: wordBooks 2, words 4 (6 records, 0 errors, 0 warnings); valid",
            "backups/2024-02/notes.json: notes v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 0 warnings); valid",
            "backups/2024-02/pet-story.json: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid",
            "backups/2024-02/vocabulary.json: vocabulary v2: wordBooks 2, words 4 (6 records, 0 errors, 0 warnings); valid",
            "total: 7 datasets, 6 valid, 1 invalid (1 error, 0 warnings)",
        ])
    }

    /// Converting the folder to a folder writes every good file where its input lies in the
    /// tree, byte for byte what converting that file alone writes, and exits 3 for the bad one.
    @Test func aFolderOfBackupsConvertsToAMirroredTree() throws {
        let box = try Self.backups()
        let run = try box.ferry(["convert", "backups/", "-o", "out/", "--to", "jsonl"])
        #expect(run.status == 3)
        #expect(run.stderrLines.first == "backups/2023-12/notes.json:1:16: error: unexpected end of input, expected a value or ']' [malformed-json]")
        #expect(run.stderrLines.last == "total: 7 datasets, 6 written, 1 failed (1 error, 0 warnings)")
        #expect(run.stderrLines.contains("backups/2024-02/vocabulary.json: vocabulary v2: wordBooks 2, words 4 (6 records, 0 errors, 0 warnings) -> out/2024-02/vocabulary.jsonl"))
        let written = Cell.all.map { "2024-0\($0.version)/\($0.domain).jsonl" }.sorted()
        #expect(try box.files(under: "out") == written)
        for file in written {
            let alone = try box.ferry(["convert", "backups/" + file.dropLast(1), "--to", "jsonl", "-q"])
            #expect(try box.text("out/" + file) == alone.stdout)
        }
    }

    /// Two monthly backups of one app are two datasets: their ids do not meet (no
    /// `duplicate-id`), each gets the summary it gets alone, and outputs mirror the tree.
    @Test(arguments: commands, Cell.all)
    func twoBackupsOfOneAppAreTwoDatasets(command: [String], cell: Cell) throws {
        let box = try Sandbox()
        try cell.write(to: "monthly/2024-01/\(cell.domain).json", in: box)
        try cell.write(to: "monthly/2024-02/\(cell.domain).json", in: box)
        let files = ["2024-01", "2024-02"].map { "monthly/\($0)/\(cell.domain).json" }
        // What each file gives alone (inspect, validate).
        let alone = try files.map { try box.ferry([command[0], $0]) }
        let run = try box.ferry(command + ["monthly"])
        #expect(run.status == 0)
        #expect(!run.stderr.contains("duplicate-id"))
        switch command[0] {
        case "inspect":
            #expect(run.stdout == alone.map(\.stdout).joined(separator: "\n"))
        case "validate":
            let warnings = run.stderrLines.filter { $0.contains(": warning: ") }.count
            // Diagnostics as they come, then the summaries, then the total.
            let lines: [[String]] = alone.map(\.stderrLines)
            let diagnostics: [String] = lines.flatMap { $0.dropLast() }
            let summaries: [String] = lines.compactMap(\.last)
            let total = "total: 2 datasets, 2 valid, 0 invalid (0 errors, \(warnings) warning\(warnings == 1 ? "" : "s"))"
            #expect(run.stderrLines == diagnostics + summaries + [total])
        default:
            let ext = command[0] == "convert" ? "jsonl" : "json"
            #expect(try box.files(under: "out") == ["2024-01", "2024-02"].map { "\($0)/\(cell.domain).\(ext)" })
            let warnings = run.stderrLines.filter { $0.contains(": warning: ") }.count
            #expect(run.stderrLines.last == "total: 2 datasets, 2 written, 0 failed (0 errors, \(warnings) warning\(warnings == 1 ? "" : "s"))")
            for month in ["2024-01", "2024-02"] {
                let single = try box.ferry(Array(command.prefix { $0 != "-o" }) + ["monthly/\(month)/\(cell.domain).json", "-q"])
                #expect(try box.text("out/\(month)/\(cell.domain).\(ext)") == single.stdout)
            }
        }
    }

    /// A folder of `<collection>.csv` files of one domain stays one dataset, alone or inside a
    /// folder of datasets; a CSV file named after no collection makes its folder a set.
    @Test(arguments: Cell.all)
    func aCSVFolderOfOneDatasetStaysOne(cell: Cell) throws {
        let box = try Sandbox()
        try cell.write(to: "mixed/\(cell.domain).json", in: box)
        #expect(try box.ferry(["convert", "mixed/\(cell.domain).json", "--to", "csv", "-o", "mixed/csv/", "-q"]).status == 0)
        let alone = try box.ferry(["validate", "mixed/csv"])
        #expect(alone.status == 0)
        #expect(alone.stderrLines.count == 1)
        #expect(alone.stderrLines.first?.hasPrefix("mixed/csv: \(cell.domain) v\(cell.version): ") == true)
        let both = try box.ferry(["validate", "mixed", "-q"])
        #expect(both.status == 0)
        let summaries = try box.ferry(["validate", "mixed"]).stderrLines.filter { !$0.contains(": note: ") && !$0.contains(": warning: ") }
        #expect(summaries.map { String($0.prefix { $0 != ":" }) } == ["mixed/csv", "mixed/\(cell.domain).json", "total"])
    }

    /// A bundle folder output is made with the folders above it, as a file output is.
    @Test(arguments: Cell.all)
    func aBundleFolderOutputMakesItsParents(cell: Cell) throws {
        let box = try Sandbox()
        try cell.write(to: "x.json", in: box)
        let run = try box.ferry(["convert", "x.json", "--to", "tar", "-o", "out/sub/bundle/", "-q"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(box.exists("out/sub/bundle/manifest.json"))
        // A V1 pet diary from a lone JSON file has no media files: the bundle fails validation as
        // its migration would (missing-media); every other cell validates.
        let unexported = cell.domain == "pet-story" && cell.version == 1
        let validation = try box.ferry(["validate", "out/sub/bundle", "-q"])
        #expect(validation.status == (unexported ? 1 : 0))
        let errors = validation.stderrLines.filter { $0.contains(": error: ") }
        #expect(unexported ? !errors.isEmpty && errors.allSatisfy { $0.hasSuffix("[missing-media]") } : errors.isEmpty)
    }

    /// A run that fails leaves no folder it made for its outputs: a file output's parents, a CSV
    /// folder of one file a collection.
    @Test(arguments: ["out/deep/x.json", "out/deep/x.jsonl", "out/deep/x.xml", "out/deep/x.csv", "out/deep/csv/"])
    func aFailedRunLeavesNoFolderItMade(output: String) throws {
        let box = try Sandbox()
        try box.copySample("broken/notes-v2-invalid.json", to: "bad.json")
        let run = try box.ferry(["convert", "bad.json", "-o", output, "-q"])
        #expect(run.status == 1)
        #expect(!box.exists("out"), "\(output)")
    }

    /// In a folder of datasets, a file that fails leaves nothing in the mirrored output, not even
    /// the folder its CSV collections would have gone to; the good file beside it is written.
    @Test func aFailedCSVDatasetInAFolderLeavesNoEmptyFolder() throws {
        let box = try Sandbox()
        try box.copySample("vocabulary-v1-node-firestore.json", to: "v.json")
        #expect(try box.ferry(["migrate", "v.json", "--to-version", "2", "--to", "csv", "-o", "v/", "-q"]).status == 0)
        try box.copySample("notes-v1.json", to: "bk/2024-02/notes.json")
        try FileManager.default.copyItem(atPath: box.path + "/v/words.csv", toPath: box.path + "/bk/2024-02/words.csv")
        let run = try box.ferry(["convert", "bk/", "--to", "csv", "-o", "out/", "-q"])
        #expect(run.status == 1)
        #expect(box.exists("out/2024-02/notes"))
        #expect(!box.exists("out/2024-02/words"))
    }
}
