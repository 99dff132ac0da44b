import FerryTestSupport
import Foundation
import Testing

/// `ferry run` with inputs that take in the pipeline's own folder (`"./"`, a glob): the pipeline
/// file, the report file and what the run writes are not inputs, on the first run and on every
/// run after it, whatever the output format.
@Suite struct PipelineInputsCLITests {
    /// The datasets beside the pipeline file: every domain at V2 (V1 for vocabulary), generated.
    static let datasets = ["notes.json", "pets.json", "words.json"]

    static func folder(output: String, inputs: String = "./") throws -> Sandbox {
        let box = try Sandbox()
        try box.write("job/notes.json", GeneratedBackups.json(domain: "notes", version: 2))
        try box.write("job/pets.json", GeneratedBackups.json(domain: "pet-story", version: 2))
        try box.write("job/words.json", GeneratedBackups.json(domain: "vocabulary", version: 1))
        try box.write("job/pipeline.json", #"{"inputs": ["\#(inputs)"], "steps": [], "output": {"path": "\#(output)"}}"#)
        return box
    }

    /// Output templates: files beside the inputs' folder, a bundle, a CSV folder per input, and
    /// files next to the inputs themselves.
    static let outputs: [(template: String, written: [String])] = [
        ("out/{name}.jsonl", ["out/notes.jsonl", "out/pets.jsonl", "out/words.jsonl"]),
        ("out/{name}.tar", ["out/notes.tar", "out/pets.tar", "out/words.tar"]),
        ("{name}.out.json", ["notes.out.json", "pets.out.json", "words.out.json"]),
    ]

    @Test(arguments: outputs.map(\.template), ["./", "*.json"])
    func thePipelineAndItsOutputsAreNotInputs(template: String, inputs: String) throws {
        let box = try Self.folder(output: template, inputs: inputs)
        let written = Self.outputs.first { $0.template == template }!.written
        let first = try box.ferry(["run", "job/pipeline.json", "--report", "json", "--report-file", "job/report.json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.diagnostics == [])
        #expect(first.stderrLines.last == "run: 3 converted, 0 failed (0 errors, 0 warnings)")
        #expect(try box.files(under: "job") == (Self.datasets + written + ["pipeline.json", "report.json"]).sorted())
        let outputs = try written.map { try box.bytes("job/" + $0) }
        // Again, with the outputs and the report of the first run in the folder.
        let second = try box.ferry(["run", "job/pipeline.json", "--report", "json", "--report-file", "job/report.json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderrLines == first.stderrLines)
        #expect(try box.files(under: "job") == (Self.datasets + written + ["pipeline.json", "report.json"]).sorted())
        #expect(try written.map { try box.bytes("job/" + $0) } == outputs)
    }

    /// A folder output per input: the files inside it are not inputs on the next run.
    @Test func filesInsideAnOutputFolderAreNotInputs() throws {
        let box = try Self.folder(output: "out/{name}/", inputs: "./")
        let first = try box.ferry(["run", "job/pipeline.json", "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let written = try box.files(under: "job/out")
        #expect(written == ["notes/notes.json", "pets/pets.json", "words/words.json"])
        let second = try box.ferry(["run", "job/pipeline.json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderrLines.last == "run: 3 converted, 0 failed (0 errors, 0 warnings)")
        #expect(try box.files(under: "job/out") == written)
    }

    /// A CSV folder of one dataset beside its pipeline file stays one dataset: the pipeline file
    /// neither makes the folder a set of CSV files, each a dataset of its own, nor is read as a
    /// collection of it.
    @Test func aCSVFolderBesideItsPipelineIsOneDataset() throws {
        let box = try Sandbox()
        try box.write("notes.json", GeneratedBackups.json(domain: "notes", version: 2))
        #expect(try box.ferry(["convert", "notes.json", "--to", "csv", "-o", "job/", "-q"]).status == 0)
        try box.write("job/pipeline.json", #"{"inputs": ["./"], "steps": [], "output": {"path": "../out/{name}.json"}}"#)
        let run = try box.ferry(["run", "job/pipeline.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == [
            "job: notes v2: wineTastingNotes 3, coffeeTastingNotes 0, whiskeyTastingNotes 3, cocktailTastingNotes 0 (6 records, 0 errors, 0 warnings) -> job/../out/job.json",
            "run: 1 converted, 0 failed (0 errors, 0 warnings)",
        ])
        #expect(try box.ferry(["convert", "notes.json", "-q"]).stdout == box.text("out/job.json"))
    }

    /// A file the pipeline names itself stays an input: naming an output is refused as before.
    @Test func anOutputNamedAsAnInputIsStillRefused() throws {
        let box = try Self.folder(output: "{name}.json", inputs: "notes.json")
        let run = try box.ferry(["run", "job/pipeline.json"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("[usage]"))
    }
}
