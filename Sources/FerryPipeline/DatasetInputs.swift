import FerryCore
import FerryFormats
import Foundation

/// One dataset of a request: a file given on the command line, or one found in a folder of
/// datasets, with the name its output takes in a folder output.
public struct DatasetInput: Sendable, Equatable {
    /// The dataset's path as it is read and shown (`backups/2024/notes.json`, `-`).
    public var path: String
    /// Its output's path in a folder output, relative to the folder and without extension
    /// (`2024/notes`): the base name for a file named on the command line (two of one name are
    /// refused by `OutputPlan`), the path inside the folder for a file found in one.
    public var stem: String
}

/// Turns a request's inputs into datasets (DESIGN.md: "a dataset is a unit"): a folder that is
/// neither a bundle, an app Documents folder nor a CSV folder of one dataset stands for every
/// data file under it, each read, checked and written on its own, as `ferry run` does.
public enum DatasetInputs {
    /// The datasets of `inputs`, in argument order, each folder's files in byte order.
    /// - Parameters:
    ///   - ignoring: files that are no data (`ConversionRequest.ignoredFiles`).
    ///   - registry: the formats whose files are data: an external adapter's files in a folder
    ///     are datasets too.
    /// - Returns: the datasets and whether a folder output gives each its own file or folder
    ///   (several datasets, or any found in a folder), rather than one folder for one dataset.
    public static func expand(_ inputs: [String], ignoring: Set<String> = [], registry: FormatRegistry = .builtIn)
        -> (datasets: [DatasetInput], ownFolders: Bool)
    {
        let expansion = expansion(of: inputs, ignoring: ignoring, registry: registry)
        return (expansion.datasets, expansion.ownFolders)
    }

    /// What `expand` finds, with the files it passed over.
    public struct Expansion: Sendable {
        /// `expand`'s datasets.
        public var datasets: [DatasetInput]
        /// `expand`'s `ownFolders`.
        public var ownFolders: Bool
        /// Files under a folder of datasets that are none (`notes.txt`, `photo.jpg`: an ending of
        /// no data format), each with the folder input that holds it, in the datasets' order.
        public var skipped: [(folder: String, file: String)]
    }

    /// `expand`, naming the files it passed over as well.
    public static func expansion(of inputs: [String], ignoring: Set<String> = [], registry: FormatRegistry = .builtIn) -> Expansion {
        var datasets: [DatasetInput] = []
        var skipped: [(folder: String, file: String)] = []
        var expanded = false
        for input in inputs {
            guard input != "-", isFolderOfDatasets(input, ignoring: ignoring, registry: registry) else {
                datasets.append(DatasetInput(path: input, stem: OutputRouter.stem(of: input)))
                continue
            }
            let base = OutputRouter.base(of: input)
            var found: Set<String> = []
            var passed: [String] = []
            InputExpander.datasets(at: base, into: &found, skipped: &passed, ignoring: ignoring, registry: registry)
            let byteOrder = { (a: String, b: String) in Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }
            skipped += passed.sorted(by: byteOrder).map { (folder: base, file: String($0.dropFirst(base.count + 1))) }
            let files = found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            // An empty folder stays one input, so that reading it says what is missing.
            guard !files.isEmpty else {
                datasets.append(DatasetInput(path: input, stem: OutputRouter.stem(of: input)))
                continue
            }
            expanded = true
            for file in files {
                let relative = String(file.dropFirst(base.count + 1))
                datasets.append(DatasetInput(path: file, stem: stem(relative, at: file)))
            }
        }
        return Expansion(datasets: datasets, ownFolders: datasets.count > 1 || expanded, skipped: skipped)
    }

    /// The note naming a file under a folder of datasets that is none (`DatasetInputs.Expansion.skipped`),
    /// as an app Documents folder names its unrelated files: not an error, and part of no dataset.
    /// - Parameters:
    ///   - file: the file's path inside the folder (`2024-01/photo.jpg`).
    ///   - folder: the folder as shown (`backups`).
    public static func ignoredNote(_ file: String, in folder: String) -> Diagnostic {
        .note(.assumption, "not part of any dataset, ignored: '\(DiagnosticText.escaped(file))'", at: SourceLocation(file: folder))
    }

    /// True for a folder that holds several datasets: not a bundle folder (`manifest.json`,
    /// `data/`), not an app Documents folder, not a CSV folder of one dataset.
    public static func isFolderOfDatasets(_ path: String, ignoring: Set<String> = [], registry: FormatRegistry = .builtIn) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return false }
        return !InputExpander.isOneDataset(OutputRouter.base(of: path), ignoring: ignoring, registry: registry)
    }

    /// `relative` (`2024/notes.json`) without the extensions of its file name (`2024/notes`); a
    /// folder's name (`2024/backup.2025`, a CSV folder) whole. `path` is where it is.
    private static func stem(_ relative: String, at path: String) -> String {
        let name = OutputRouter.stem(of: path)
        guard let slash = relative.lastIndex(of: "/") else { return name }
        return String(relative[...slash]) + name
    }
}
