import FerryCore
import FormatBundle
import Foundation

/// Where output goes, decided once from `-o` and the inputs (DESIGN.md "What goes where").
enum OutputTarget: Equatable {
    case standardOutput
    case file(String)
    /// A folder: `<collection>.csv` files for single-collection formats, or one file per input.
    case folder(String)

    /// Decides the target from `-o`.
    /// - Throws: `FerryError(.usage)` when several inputs go to one file, or the output is `""`.
    static func resolve(_ output: String?, inputs: [String]) throws -> OutputTarget {
        if output == "" { throw FerryError(.usage, "the output path is empty; name a file, a folder (DIR/) or - for standard output") }
        guard let output, output != "-" else {
            if inputs.count > 1 {
                throw FerryError(.usage, "several inputs need a folder output: -o DIR/")
            }
            return .standardOutput
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder)
        let target: OutputTarget = output.hasSuffix("/") || (exists && isFolder.boolValue) ? .folder(output) : .file(output)
        if case .file = target, inputs.count > 1 {
            throw FerryError(.usage, "several inputs need a folder output: -o DIR/")
        }
        // Whether it names an input, or another input's output, is `OutputPlan`'s check.
        return target
    }

    /// The format named by the output's extension, if any.
    func formatName(registry: FormatRegistry) -> String? {
        if case .file(let path) = self { return registry.format(forPath: Compression.forPath(path).innerPath)?.name }
        return nil
    }
}
