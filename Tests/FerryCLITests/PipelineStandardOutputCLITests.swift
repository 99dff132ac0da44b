import FerryTestSupport
import Foundation
import Testing

/// A pipeline's output is one file per input: `"path": "-"` is a usage error before anything is
/// read, not a file named `-` beside the pipeline (as it was, while the summary said "standard
/// output").
@Suite struct PipelineStandardOutputCLITests {
    @Test func standardOutputIsNoPipelineOutput() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        try box.write("p.json", #"{"inputs": ["notes-v1.json"], "steps": [{"validate": {}}], "output": {"path": "-", "format": "jsonl"}}"#)
        let run = try box.ferry(["run", "p.json"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.errors == ["ferry run: error: /output/path: '-' (standard output) cannot be a pipeline's output, which is one "
            + "file per input; name a template such as 'out/{name}.{ext}', or use ferry convert for standard output [usage]"])
        #expect(try box.list() == ["notes-v1.json", "p.json"])
    }
}
