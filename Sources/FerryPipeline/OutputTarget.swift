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
    /// - Parameters:
    ///   - inputs: the datasets the inputs hold (a folder of several files may hold several).
    ///   - given: the inputs as the user gave them, for the message when one of them holds several.
    ///   - offersFolderOutput: false for a command with no `-o` (`ferry head`), whose message for
    ///     a folder of several datasets then asks for one of them.
    /// - Throws: `FerryError(.usage)` when several datasets go to one file, or the output is `""`.
    static func resolve(_ output: String?, inputs: [String], given: [String] = [], offersFolderOutput: Bool = true) throws
        -> OutputTarget
    {
        if output == "" { throw FerryError(.usage, "the output path is empty; name a file, a folder (DIR/) or - for standard output") }
        guard let output, output != "-" else {
            if inputs.count > 1 {
                throw FerryError(.usage, severalInputs(inputs, given: given, offersFolderOutput: offersFolderOutput))
            }
            return .standardOutput
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder)
        let target: OutputTarget = output.hasSuffix("/") || (exists && isFolder.boolValue) ? .folder(output) : .file(output)
        if case .file = target, inputs.count > 1 {
            throw FerryError(.usage, severalInputs(inputs, given: given, offersFolderOutput: offersFolderOutput))
        }
        // Whether it names an input, or another input's output, is `OutputPlan`'s check.
        return target
    }

    /// The usage error of several datasets and one output file: one folder given holds them all,
    /// or several inputs were given.
    private static func severalInputs(_ datasets: [String], given: [String], offersFolderOutput: Bool) -> String {
        guard given.count == 1 else { return "several inputs need a folder output: -o DIR/" }
        let examples = datasets.prefix(2).map { DiagnosticText.quoted($0) }.joined(separator: ", ")
        let held = "\(DiagnosticText.quoted(given[0])) holds \(datasets.count) datasets (\(examples)\(datasets.count > 2 ? ", ..." : ""))"
        guard offersFolderOutput else { return held + ", and this command prints one: name one of them" }
        return held + ", which need a folder output: -o DIR/"
    }

    /// The format named by the output's extension, if any.
    func formatName(registry: FormatRegistry) -> String? {
        if case .file(let path) = self { return registry.format(forPath: Compression.forPath(path).innerPath)?.name }
        return nil
    }
}
