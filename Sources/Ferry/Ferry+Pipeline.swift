import FerryCore
import FerryPipeline
import Foundation

extension Ferry {
    /// Runs a pipeline file as `ferry run PIPELINE.json` does (Docs/pipelines.md): its inputs
    /// (globs and folders, relative to the file), steps and outputs, each input on its own.
    /// - Parameters:
    ///   - shard: `(k, n)` for `--shard k/n`: a deterministic 1/n of the inputs.
    ///   - variables: the values of `$name` in its filters (`--var`).
    ///   - jobs: inputs run at once; nil takes the file's `jobs`, else the number of cores.
    ///   - registry: the formats its inputs and outputs use.
    /// - Returns: one report per input, in input order, each with its diagnostics and status.
    /// - Throws: `FerryError` when the pipeline cannot start (an unreadable or invalid file, an
    ///   output that would replace an input); a failing input is a report, not an error.
    public static func run(
        pipeline url: URL, shard: (Int, Int)? = nil, variables: [String: String] = [:], jobs: Int? = nil,
        registry: FormatRegistry = Ferry.formats
    ) throws(FerryError) -> [DatasetReport] {
        do {
            let path = url.path
            let definition = try PipelineRunner.load(path)
            let inputs = try PipelineRunner.inputs(of: definition, pipelinePath: path, shard: shard, registry: registry)
            let runner = PipelineRunner(registry: registry)
            try runner.checkOutputs(definition, pipelinePath: path, inputs: inputs, variables: variables)
            return runner.run(definition, pipelinePath: path, inputs: inputs, variables: variables, overrideJobs: jobs) { _ in }
        } catch {
            throw .wrapping(error)
        }
    }
}
