import FerryTestSupport
import Foundation
import Testing

/// A file of an external adapter's format found in a folder of datasets is a dataset, as it is
/// when named on the command line, for every command that takes a folder; without the adapter on
/// `PATH` it is named as ignored. The adapter `kv` here reads JSON Lines as they are.
@Suite struct AdapterFilesInFoldersCLITests {
    /// `fold/` holds a notes JSON document, the same notes as `sub/b.kv`, and a `readme.txt`.
    private func folder() throws -> Sandbox {
        let box = try Sandbox()
        try box.writeAdapter("kv", verbs: "read) cat;;")
        try box.copySample("notes-v1.json")
        let lines = try box.ferry(["convert", "notes-v1.json", "-o", "notes.jsonl", "--quiet"])
        #expect(lines.status == 0, "\(lines.stderr)")
        try box.write("fold/a.json", try box.text("notes-v1.json"))
        try box.write("fold/sub/b.kv", try box.text("notes.jsonl"))
        try box.write("fold/readme.txt", "not data\n")
        return box
    }

    private func withAdapter(_ box: Sandbox) -> [String: String] {
        ["PATH": box.url.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    static let summary = "notes v1: wineNotes 4, coffeeNotes 2, whiskeyNotes 1, cocktailNotes 1 (8 records, 0 errors, 0 warnings)"

    @Test func validateReadsTheAdaptersFile() throws {
        let box = try folder()
        let run = try box.ferry(["validate", "fold"], environment: withAdapter(box))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == [
            "fold: note: not part of any dataset, ignored: 'readme.txt' [assumption]",
            "fold/a.json: \(Self.summary); valid",
            "fold/sub/b.kv: \(Self.summary); valid",
            "total: 2 datasets, 2 valid, 0 invalid (0 errors, 0 warnings)",
        ])
    }

    @Test func withoutTheAdapterTheFileIsIgnored() throws {
        let box = try folder()
        let run = try box.ferry(["validate", "fold"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == [
            "fold: note: not part of any dataset, ignored: 'readme.txt' [assumption]",
            "fold: note: not part of any dataset, ignored: 'sub/b.kv' [assumption]",
            "fold/a.json: \(Self.summary); valid",
        ])
    }

    @Test func convertWritesAnOutputForIt() throws {
        let box = try folder()
        let run = try box.ferry(["convert", "fold", "-o", "out/", "--to", "jsonl"], environment: withAdapter(box))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try box.list("out") == ["a.jsonl", "sub"])
        #expect(try box.list("out/sub") == ["b.jsonl"])
        #expect(try box.text("out/sub/b.jsonl") == box.text("out/a.jsonl"))
    }

    @Test(arguments: [["inspect", "fold"], ["stats", "fold"]])
    func inspectAndStatsDescribeIt(arguments: [String]) throws {
        let box = try folder()
        let run = try box.ferry(arguments, environment: withAdapter(box))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "fold/sub/b.kv").count == 2, "\(run.stdout)")
        #expect(!run.stderr.contains("b.kv"), "\(run.stderr)")
    }

    @Test func aPipelineFindsIt() throws {
        let box = try folder()
        try box.write("pipeline.json", #"{"inputs": ["fold"], "steps": [{"validate": {}}]}"#)
        let run = try box.ferry(["run", "pipeline.json"], environment: withAdapter(box))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.suffix(3) == ["fold/a.json: \(Self.summary); valid", "fold/sub/b.kv: \(Self.summary); valid", "run: 2 valid, 0 invalid (0 errors, 0 warnings)"])
    }
}
