import Ferry
import FerryTestSupport
import Foundation
import Testing

/// `Ferry.run(pipeline:)`: a pipeline file run in process gives the bytes `ferry migrate` writes.
@Suite struct PipelineTests {
    @Test func runsAPipelineFile() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        for name in ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-node-firestore.json"] {
            try FileManager.default.copyItem(at: Fixtures.sample(name), to: folder.appendingPathComponent("in/\(name)"))
        }
        let pipeline = folder.appendingPathComponent("to-v2.json")
        try Data(#"""
            {"inputs": ["in/"], "steps": [{"migrate": {"toVersion": 2}}], "output": {"path": "out/{name}.jsonl", "format": "jsonl"}}
            """#.utf8).write(to: pipeline)
        let reports = try Ferry.run(pipeline: pipeline, jobs: 1)
        #expect(reports.map(\.status) == [.success, .success, .success])
        #expect(reports.map { $0.domain?.rawValue ?? "" } == ["notes", "pet-story", "vocabulary"])
        for name in ["notes-v1", "pet-story-v1", "vocabulary-v1-node-firestore"] {
            let cli = folder.appendingPathComponent("\(name).cli.jsonl")
            let run = try runFerry(["migrate", Fixtures.sample("\(name).json").path, "--to-version", "2", "-o", cli.path, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("out/\(name).jsonl")) == Data(contentsOf: cli))
        }
    }

    /// A pipeline file that is not there is the command line's exit-3 error.
    @Test func missingPipeline() throws {
        #expect(throws: FerryError.self) { try Ferry.run(pipeline: URL(fileURLWithPath: "/nonexistent/pipeline.json")) }
    }

    /// Package.swift carries no unsafe flags: SwiftPM would refuse Ferry as a versioned dependency.
    @Test func noUnsafeFlags() throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains(".unsafeFlags("))
        #expect(!manifest.contains("unsafeFlags(["))
    }
}
