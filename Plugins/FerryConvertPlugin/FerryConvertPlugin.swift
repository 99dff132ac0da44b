import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory ferry-convert [PATH...] --to FORMAT [options]`:
/// converts every dataset under the paths (default `Samples/`, leaving out its `broken/`, `mappings/`, `pipelines/`, `plugins/` and `swift-consumer/` folders) with
/// `ferry convert`, into `converted/` in the package (or `-o DIR/`).
@main
struct FerryConvertPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("""
                USAGE: swift package --allow-writing-to-package-directory ferry-convert [PATH...] [ferry convert options]
                Converts every dataset under PATH (default Samples/, without its broken/, mappings/, pipelines/, plugins/ and swift-consumer/ folders) with `ferry convert`,
                writing into converted/ in the package unless -o DIR/ is given. Example: ferry-convert Samples --to csv
                """)
            return
        }
        var (paths, options) = PluginArguments.split(arguments)
        let root = context.package.directoryURL
        let targets = paths.isEmpty ? [root.appendingPathComponent("Samples")] : paths.map { PluginArguments.resolve($0, root: root) }
        let inputs = DatasetFinder.inputs(under: targets, samples: root.appendingPathComponent("Samples"))
        if !options.contains("-o") && !options.contains("--output") {
            options += ["-o", root.appendingPathComponent("converted").path + "/"]
        }
        let ferry = try context.tool(named: "ferry").url
        // One run for all inputs: each lands in the folder under its own name, and one failing input
        // does not stop the others (ferry's exit status is the worst of them).
        let status = try ToolRunner.run(ferry, ["convert"] + inputs + options)
        if status != 0 {
            Diagnostics.error("ferry-convert: ferry convert exited \(status) for \(inputs.count) input(s)")
            throw PluginFailure(status: status)
        }
        print("ferry-convert: \(inputs.count) input(s) converted")
    }
}
