import FerryTestSupport
import Foundation
import Testing

/// What a folder of datasets does with the files under it that are not datasets, and how a
/// one-collection format mirrors its datasets in a folder output.
@Suite struct FolderOfDatasetsFilesCLITests {
    /// `backups/` with a V1 notes backup, a text file and a photo beside it, and a hidden file.
    static func backupsWithOtherFiles() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "backups/2024-01/notes.json")
        try box.write("backups/README.txt", "monthly exports\n")
        try box.write("backups/2024-01/photo.jpg", "not a photo")
        try box.write("backups/.DS_Store", "finder")
        return box
    }

    static let notes = [
        "backups: note: not part of any dataset, ignored: '2024-01/photo.jpg' [assumption]",
        "backups: note: not part of any dataset, ignored: 'README.txt' [assumption]",
    ]

    /// A dot in a dataset folder's name starts no extension: two CSV folders `backup.2024/` and
    /// `backup.2025/` mirror as `backup.2024.jsonl` and `backup.2025.jsonl`, not both as `backup.jsonl`.
    @Test func aFolderNameKeepsItsDots() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        for year in ["2024", "2025"] {
            #expect(try box.ferry(["convert", "notes-v1.json", "--to", "csv", "-o", "mix/backup.\(year)/", "-q"]).status == 0)
        }
        let run = try box.ferry(["convert", "mix", "--to", "jsonl", "-o", "out/", "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try box.files(under: "out") == ["backup.2024.jsonl", "backup.2025.jsonl"])
        let one = try box.ferry(["convert", "mix/backup.2024", "--to", "jsonl", "-o", "one/", "-q"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try box.files(under: "one") == ["backup.2024.jsonl"])
    }

    /// Each file of no data format is named in a note of its own (hidden files are not), as an
    /// app Documents folder names its unrelated files; notes are no errors, and the dataset
    /// beside them is read, written and summed up as without them.
    @Test(arguments: [["validate"], ["convert", "--to", "jsonl", "-o", "out/"], ["migrate", "--to-version", "2", "-o", "out/"]])
    func filesOfNoDataFormatAreNamedInANote(command: [String]) throws {
        let box = try Self.backupsWithOtherFiles()
        let run = try box.ferry(command + ["backups/"])
        #expect(run.status == 0)
        let summary = switch command[0] {
        case "validate":
            "backups/2024-01/notes.json: notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings); valid"
        case "convert":
            "backups/2024-01/notes.json: notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings) -> out/2024-01/notes.jsonl"
        default:
            "backups/2024-01/notes.json: notes v1 -> v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 1 warning) -> out/2024-01/notes.json"
        }
        // The notes come first, before any dataset is read (the migration's own warning follows).
        #expect(Array(run.stderrLines.prefix(2)) == Self.notes)
        #expect(run.stderrLines.filter { $0.hasPrefix("backups: ") } == Self.notes)
        #expect(run.stderrLines.last == summary)
        if command[0] != "validate" {
            #expect(try box.files(under: "out") == ["2024-01/notes." + (command[0] == "convert" ? "jsonl" : "json")])
        }
        // `--quiet` holds the notes back with the rest.
        #expect(try box.ferry(command + ["backups/", "-q"]).stderr == "")
    }

    /// A file of a data format in any compression Ferry writes is a dataset of a folder, as it
    /// is when named alone (`.bz2` was once left out as of no data format).
    @Test func compressedFilesInAFolderAreDatasets() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let names = ["a.json.gz", "b.jsonl.bz2", "c.xml.zst", "d.json.xz"]
        for name in names {
            #expect(try box.ferry(["convert", "notes-v1.json", "-o", "backups/" + name, "-q"]).status == 0)
        }
        let run = try box.ferry(["validate", "backups/"])
        #expect(run.status == 0)
        let counts = "notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings); valid"
        #expect(run.stderrLines == names.map { "backups/\($0): " + counts }
            + ["total: 4 datasets, 4 valid, 0 invalid (0 errors, 0 warnings)"])
    }

    /// `--report json` lists the files of no data format under `ignored`, as shown; the
    /// datasets' entries are as without them.
    @Test(arguments: [["validate"], ["convert", "--to", "jsonl", "-o", "out/"]])
    func theJSONReportListsTheIgnoredFiles(command: [String]) throws {
        let box = try Self.backupsWithOtherFiles()
        let run = try box.ferry(command + ["backups/", "--report", "json", "--report-file", "report.json"])
        #expect(run.status == 0)
        let report = try box.text("report.json")
        // A conversion's report counts the datasets written and failed.
        let written = command[0] == "convert" ? "\n  \"written\": 1,\n  \"failed\": 0," : ""
        #expect(report.hasPrefix("""
            {
              "valid": true,
              "errors": 0,
              "warnings": 0,\(written)
              "ignored": ["backups/2024-01/photo.jpg", "backups/README.txt"],
              "files": [
                {
                  "path": "backups/2024-01/notes.json",
            """))
        // Without files to ignore there is no such member.
        try box.remove("backups/README.txt")
        try box.remove("backups/2024-01/photo.jpg")
        #expect(try box.ferry(command + ["backups/", "--report", "json", "--report-file", "report.json"]).status == 0)
        #expect(!(try box.text("report.json")).contains("ignored"))
    }

    /// `ferry run` with the folder as an input names the same files in the same notes, with paths
    /// as given: under the pipeline file's folder as typed on the command line, relative to the
    /// pipeline file in the report.
    @Test func aPipelineRunNamesTheIgnoredFilesWithPathsAsGiven() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "job/backups/2024-01/notes.json")
        try box.write("job/backups/README.txt", "monthly exports\n")
        try box.write("job/backups/2024-01/photo.jpg", "not a photo")
        try box.write("job/pipeline.json", #"{"inputs": ["backups/"], "steps": [], "output": {"path": "backups/out/{path}.jsonl"}}"#)
        let run = try box.ferry(["run", "job/pipeline.json", "--report", "json", "--report-file", "report.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == [
            "job/backups: note: not part of any dataset, ignored: '2024-01/photo.jpg' [assumption]",
            "job/backups: note: not part of any dataset, ignored: 'README.txt' [assumption]",
            "job/backups/2024-01/notes.json: notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings) -> job/backups/out/backups/2024-01/notes.jsonl",
            "run: 1 converted, 0 failed (0 errors, 0 warnings)",
        ])
        #expect(try box.text("report.json").contains(#""ignored": ["backups/2024-01/photo.jpg", "backups/README.txt"],"#))
        #expect(try box.text("report.json").contains(#""path": "backups/2024-01/notes.json","#))
    }

    /// `inspect` names the other files in the same notes (and no other diagnostic), and
    /// describes the folder as without them.
    @Test(arguments: [[], ["--json"]])
    func inspectDescribesTheDatasetsOnly(options: [String]) throws {
        let box = try Self.backupsWithOtherFiles()
        let run = try box.ferry(["inspect", "backups/"] + options)
        #expect(run.status == 0)
        #expect(run.stderrLines == Self.notes)
        #expect(run.stdout == (try box.ferry(["inspect", "backups/2024-01/notes.json"] + options).stdout))
    }

    /// One input format of plain records, each written from the same CSV by ferry.
    struct Format: Sendable, CustomTestStringConvertible {
        var ext: String
        var testDescription: String { ext }
        static let all = ["csv", "jsonl", "json", "xml"].map(Format.init)
    }

    /// Converting a folder of datasets to CSV in a folder mirrors the tree: a dataset of one
    /// collection named after its file (plain records from any format, a domain's
    /// `wordBooks.csv`) is one file `out/<path>.csv`, which reads back as that collection; a
    /// dataset of several collections is a folder `out/<path>/` of `<collection>.csv` files.
    @Test(arguments: Format.all)
    func aOneCollectionDatasetMirrorsAsOneCSVFile(format: Format) throws {
        let box = try Sandbox()
        try box.write("src.csv", "name,count\r\na,1\r\nb,2\r\n")
        if format.ext == "csv" {
            try FileManager.default.createDirectory(atPath: box.path + "/mixed", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: box.path + "/src.csv", toPath: box.path + "/mixed/records.csv")
        } else {
            #expect(try box.ferry(["convert", "src.csv", "--to", format.ext, "-o", "mixed/records.\(format.ext)", "-q"]).status == 0)
        }
        try box.copySample("notes-v1.json", to: "mixed/2024/notes.json")
        try box.copySample("vocabulary-v1-node-firestore.json", to: "v.json")
        #expect(try box.ferry(["migrate", "v.json", "--to-version", "2", "--to", "csv", "-o", "v/", "-q"]).status == 0)
        try FileManager.default.copyItem(atPath: box.path + "/v/wordBooks.csv", toPath: box.path + "/mixed/2024/wordBooks.csv")

        let run = try box.ferry(["convert", "mixed/", "--to", "csv", "-o", "out/"])
        #expect(run.status == 0)
        #expect(run.stderrLines.contains(
            "mixed/records.\(format.ext): schema-free \(format.ext): records 2 (2 records, 0 errors, 0 warnings) -> out/records.csv"))
        #expect(run.stderrLines.contains("mixed/2024/wordBooks.csv: vocabulary v2: wordBooks 2, words 0 (2 records, 0 errors, 0 warnings) -> out/2024/wordBooks.csv"))
        #expect(try box.files(under: "out") == [
            "2024/notes/cocktailNotes.csv", "2024/notes/coffeeNotes.csv", "2024/notes/whiskeyNotes.csv", "2024/notes/wineNotes.csv",
            "2024/wordBooks.csv", "records.csv",
        ])
        // Each file is what converting its dataset alone writes.
        #expect(try box.text("out/records.csv") == (try box.ferry(["convert", "mixed/records.\(format.ext)", "--to", "csv", "-q"]).stdout))
        #expect(try box.text("out/2024/wordBooks.csv") == (try box.text("v/wordBooks.csv")))
        let alone = try box.ferry(["convert", "mixed/2024/notes.json", "--to", "csv", "-o", "notes-alone/", "-q"])
        #expect(alone.status == 0)
        #expect(try box.files(under: "notes-alone").count == 4)
        for name in try box.files(under: "notes-alone") {
            #expect(try box.text("out/2024/notes/" + name) == (try box.text("notes-alone/" + name)))
        }
        // The one file reads back as the dataset it came from.
        let back = try box.ferry(["validate", "out/2024/wordBooks.csv"])
        #expect(back.stderrLines == ["out/2024/wordBooks.csv: vocabulary v2: wordBooks 2, words 0 (2 records, 0 errors, 0 warnings); valid"])
    }

    /// A bundle in a folder of datasets names its collections itself: converted to CSV in a
    /// folder it is a folder `out/<path>/` of `<collection>.csv`, each what converting the
    /// bundle alone writes.
    @Test func aBundleMirrorsAsAFolderOfCollectionFiles() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "notes.json")
        #expect(try box.ferry(["convert", "notes.json", "-o", "mixed/2024/x.tar", "-q"]).status == 0)
        try box.write("mixed/records.csv", "name,count\r\na,1\r\n")
        let run = try box.ferry(["convert", "mixed/", "--to", "csv", "-o", "out/", "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        let names = ["cocktailNotes.csv", "coffeeNotes.csv", "whiskeyNotes.csv", "wineNotes.csv"]
        #expect(try box.files(under: "out") == names.map { "2024/x/" + $0 } + ["records.csv"])
        #expect(try box.ferry(["convert", "mixed/2024/x.tar", "--to", "csv", "-o", "alone/", "-q"]).status == 0)
        for name in names { #expect(try box.text("out/2024/x/" + name) == (try box.text("alone/" + name))) }
    }

    /// Two files of one folder that differ only in their extension (`x.csv` beside `x.json`,
    /// `x.jsonl`, `x.xml` or a bundle `x.tar`) would write one output: refused before anything
    /// is read, naming both, whatever the other's format.
    @Test(arguments: ["json", "jsonl", "xml", "tar"])
    func twoFilesOfOneNameInOneFolderAreRefused(ext: String) throws {
        let box = try Sandbox()
        try box.write("mixed/x.csv", "name,count\r\na,1\r\n")
        if ext == "tar" {
            try box.copySample("notes-v1.json", to: "notes.json")
            #expect(try box.ferry(["convert", "notes.json", "-o", "mixed/x.tar", "-q"]).status == 0)
        } else {
            #expect(try box.ferry(["convert", "mixed/x.csv", "--to", ext, "-o", "mixed/x.\(ext)", "-q"]).status == 0)
        }
        let run = try box.ferry(["convert", "mixed/", "--to", "csv", "-o", "out/"])
        #expect(run.status == 2)
        #expect(run.stderrLines == [
            "ferry convert: error: the output 'out/x/' would be written from both 'mixed/x.csv' and 'mixed/x.\(ext)'; they differ only in their extensions, which outputs do not keep; rename one of them [usage]",
        ])
        #expect(!box.exists("out"))
    }

    /// Converting the folder into itself would write a one-collection dataset over its input:
    /// refused before anything is read.
    @Test func aMirroredFileOverItsInputIsRefused() throws {
        let box = try Sandbox()
        try box.write("mixed/records.csv", "name,count\r\na,1\r\n")
        try box.copySample("notes-v1.json", to: "mixed/notes.json")
        let run = try box.ferry(["convert", "mixed/", "--to", "csv", "-o", "mixed/"])
        #expect(run.status == 2)
        #expect(run.stderrLines == ["ferry convert: error: the output 'mixed/records.csv' is the input 'mixed/records.csv'; inputs are never modified [usage]"])
    }
}
