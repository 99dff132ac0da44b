import FerryTestSupport
import Foundation
import Testing

/// A pipeline file is checked whole before any input is read: a member no pipeline has (a
/// misplaced option was ignored), a value of the wrong type, an option no input can take (it was
/// reported once for each input). Each is one usage error (exit 2) at the member's JSON Pointer,
/// and nothing is read or written.
@Suite struct PipelineFileCLITests {
    static let cases: [(pipeline: String, error: String)] = [
        (#"{"inputs": ["in/"], "timeZone": "UTC", "steps": [{"validate": {}}]}"#,
         #"p.json: error: /timeZone: unknown member 'timeZone'; expected inputs, steps, output or options; timeZone is an option: put it in "options" [usage]"#),
        (#"{"inputs": ["in/"], "step": [{"validate": {}}]}"#,
         "p.json: error: /step: unknown member 'step'; expected inputs, steps, output or options [usage]"),
        (#"{"inputs": [{"path": "in/", "mapping": "m.json"}], "steps": [{"validate": {}}]}"#,
         "p.json: error: /inputs/0/mapping: unknown member 'mapping'; expected path or map [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}, {"migrate": {"version": 2}}]}"#,
         "p.json: error: /steps/1/migrate/version: unknown member 'version'; expected toVersion [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {"strict": true}}]}"#,
         "p.json: error: /steps/0/validate/strict: unknown member 'strict'; it has no members [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "output": {"path": "out/{name}.json", "fromat": "json"}}"#,
         "p.json: error: /output/fromat: unknown member 'fromat'; expected path or format [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"timezone": "UTC"}}"#,
         "p.json: error: /options/timezone: unknown member 'timezone'; expected strict, lenient, jobs, timeZone, dateStrategy, domain, schemaVersion, collection, delimiter, nullToken or dataFormat [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"timeZone": "PST"}}"#,
         #"p.json: error: /options/timeZone: time zone "PST" is an abbreviation, not an IANA name; use "America/Los_Angeles" or another IANA name [usage]"#),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"dateStrategy": "unix"}}"#,
         "p.json: error: /options/dateStrategy: unknown strategy 'unix'; strategies: deferredToDate, secondsSince1970, millisecondsSince1970, iso8601 [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"domain": "wine"}}"#,
         "p.json: error: /options/domain: unknown domain 'wine'; domains: notes, pet-story, vocabulary [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"jobs": 0}}"#,
         "p.json: error: /options/jobs: jobs is 1 to 1024, not 0 [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"jobs": 5000}}"#,
         "p.json: error: /options/jobs: jobs is 1 to 1024, not 5000 [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"delimiter": ";;"}}"#,
         "p.json: error: /options/delimiter: delimiter takes ',', ';', '|' or 'tab', not ';;' [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"filter": "rating >>> 2"}]}"#,
         "p.json: error: /steps/0/filter: column 9: expected a value after '>', found '>' [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "inputs": ["in/a.json"]}"#,
         "p.json: error: /inputs: member 'inputs' given twice; give it once [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"jobs": "two"}}"#,
         "p.json: error: /options/jobs: expected a number, found string [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"strict": true, "lenient": true}}"#,
         "p.json: error: /options: strict and lenient exclude each other [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}, "filter": "rating > 3"}]}"#,
         "p.json: error: /steps/0: a step has exactly one of map, filter, migrate, validate [usage]"),
        (#"{"inputs": ["in/"]}"#,
         #"p.json: error: /steps: required member "steps" is missing [usage]"#),
    ]

    /// A format name no format writes: one `unknown-format` error (exit 4) at its pointer, not one
    /// for each input.
    @Test(arguments: [
        (#"{"inputs": ["in/"], "steps": [], "output": {"path": "out/{name}.yml", "format": "yml"}}"#,
         "p.json: error: /output/format: unknown output format 'yml'; `ferry formats` lists them [unknown-format]"),
        (#"{"inputs": ["in/"], "steps": [], "output": {"path": "out/{name}.tar"}, "options": {"dataFormat": "yaml"}}"#,
         "p.json: error: /options/dataFormat: no format named 'yaml' writes bundle data files; `ferry formats` lists what writes [unknown-format]"),
        (#"{"inputs": ["in/"], "steps": [], "output": {"path": "out/{name}.tar"}, "options": {"dataFormat": "tar"}}"#,
         "p.json: error: /options/dataFormat: no format named 'tar' writes bundle data files; `ferry formats` lists what writes [unknown-format]"),
    ])
    func anUnknownFormatIsOneError(pipeline: String, error: String) throws {
        try expectOneError(pipeline, error, status: 4)
    }

    @Test(arguments: cases)
    func aBadPipelineFileIsOneUsageError(pipeline: String, error: String) throws {
        try expectOneError(pipeline, error, status: 2)
    }

    /// `ferry run` of `pipeline` beside two inputs: exactly `error` on standard error, `status`,
    /// and nothing written.
    private func expectOneError(_ pipeline: String, _ error: String, status: Int32) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in/a.json")
        try box.copySample("pet-story-v1.json", to: "in/b.json")
        try box.write("p.json", pipeline)
        let run = try box.ferry(["run", "p.json"])
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderrLines == [error])
        #expect(try box.list() == ["in", "p.json"])
    }

    /// `$schema` and `$comment` are for editors and people: any object may hold them.
    @Test func annotationsAreAllowed() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in/a.json")
        try box.write("p.json", #"{"$schema": "https://example.com/pipeline.json", "$comment": "nightly", "inputs": ["in/"], "#
            + #""steps": [{"$comment": "check only", "validate": {}}], "options": {"$comment": "UTC days", "timeZone": "UTC"}}"#)
        let run = try box.ferry(["run", "p.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines.last == "run: 1 valid, 0 invalid (0 errors, 0 warnings)")
    }
}

/// A pipeline whose inputs fail side by side leaves no folder it made for their outputs: each
/// removed what it made only when empty, and another input's temporary file could stand in it at
/// that moment.
@Suite struct PipelineOutputFoldersCLITests {
    @Test(arguments: ["out/{name}.json", "out/a/b/{name}.json", "out/{name}.tar"])
    func failingInputsLeaveNoFolder(template: String) throws {
        let box = try Sandbox()
        let bad = try Fixtures.text("notes-v2.json").replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,")
        for name in ["a", "b", "c", "d"] { try box.write("in/\(name).json", bad) }
        try box.write("p.json", #"{"inputs": ["in/"], "steps": [], "output": {"path": "\#(template)"}, "options": {"jobs": 4}}"#)
        for round in 0..<6 {
            let run = try box.ferry(["run", "p.json"])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(try box.list() == ["in", "p.json"], "round \(round)")
        }
    }

    /// A folder one input made stays when another input wrote its output in it.
    @Test func aFolderWithAnOutputStays() throws {
        let box = try Sandbox()
        let good = try Fixtures.text("notes-v2.json")
        let bad = good.replacingOccurrences(of: "\"rating\": 5,", with: "\"rating\": 9,")
        try box.write("in/a.json", bad)
        try box.write("in/b.json", good)
        try box.write("in/c.json", bad)
        try box.write("p.json", #"{"inputs": ["in/"], "steps": [], "output": {"path": "out/{name}.json"}, "options": {"jobs": 3}}"#)
        let run = try box.ferry(["run", "p.json"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try box.list("out") == ["b.json"])
    }
}
