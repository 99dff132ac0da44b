import Foundation
import PackagePlugin

/// `swift package ferry-validate [PATH...] [ferry validate options]`: runs `ferry validate` on every
/// dataset under the paths (default `Samples/`, leaving out its `broken/`, `mappings/`, `pipelines/`, `plugins/` and `swift-consumer/` folders), for a Swift project's CI.
/// Fails when any input is invalid. Options starting with `-` are passed to `ferry validate`
/// (`--report github`, `--max-errors 20`).
@main
struct FerryValidatePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("""
                USAGE: swift package ferry-validate [PATH...] [ferry validate options]
                Validates every dataset under PATH (default Samples/, without its broken/, mappings/, pipelines/, plugins/ and swift-consumer/ folders) with `ferry validate`.
                Datasets: .json .jsonl .csv .tsv .xml .tar(.gz|.zst|.xz) files and bundle folders.
                """)
            return
        }
        let (paths, options) = PluginArguments.split(arguments)
        let root = context.package.directoryURL
        let targets = paths.isEmpty ? [root.appendingPathComponent("Samples")] : paths.map { PluginArguments.resolve($0, root: root) }
        let inputs = DatasetFinder.inputs(under: targets, samples: root.appendingPathComponent("Samples"))
        guard !inputs.isEmpty else {
            Diagnostics.warning("ferry-validate: no dataset found under \(targets.map(\.path).joined(separator: ", "))")
            return
        }
        let ferry = try context.tool(named: "ferry").url
        let status = try ToolRunner.run(ferry, ["validate"] + inputs + options)
        if status != 0 {
            Diagnostics.error("ferry-validate: \(inputs.count) input(s) checked; ferry validate exited \(status)")
            throw PluginFailure(status: status)
        }
        print("ferry-validate: \(inputs.count) input(s) valid")
    }
}
