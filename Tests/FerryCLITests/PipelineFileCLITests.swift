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
         "p.json: error: /options/jobs: jobs is at least 1, not 0 [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"jobs": "two"}}"#,
         "p.json: error: /options/jobs: expected a number, found string [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}}], "options": {"strict": true, "lenient": true}}"#,
         "p.json: error: /options: strict and lenient exclude each other [usage]"),
        (#"{"inputs": ["in/"], "steps": [{"validate": {}, "filter": "rating > 3"}]}"#,
         "p.json: error: /steps/0: a step has exactly one of map, filter, migrate, validate [usage]"),
        (#"{"inputs": ["in/"]}"#,
         #"p.json: error: /steps: required member "steps" is missing [usage]"#),
    ]

    @Test(arguments: cases)
    func aBadPipelineFileIsOneUsageError(pipeline: String, error: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in/a.json")
        try box.copySample("pet-story-v1.json", to: "in/b.json")
        try box.write("p.json", pipeline)
        let run = try box.ferry(["run", "p.json"])
        #expect(run.status == 2, "\(run.stderr)")
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
        #expect(run.stderrLines.last == "run: 1 valid, 0 invalid, 0 warnings")
    }
}
