import FerryCore
import FormatBundle
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Every file a run would write, worked out before any input is read and checked against every
/// input and every other output (DESIGN.md "Safety"): the check that keeps `-o .`, a folder that
/// holds an input, symlinked folders, hard links and several inputs of one name from overwriting
/// an input or one output with another.
///
/// Paths are compared resolved (`PlannedPath`): symlinks and `.`/`..` followed for the part of a
/// path that exists, and existing files also by device and inode, so a hard link is the file it
/// links to.
public struct OutputPlan: Sendable {
    /// What one input writes.
    public struct Job: Sendable {
        /// The input as named (`-` for standard input).
        public var input: String
        /// Where its output goes.
        var target: OutputTarget
        /// The request it runs with: its formats and inputs decide the output's file names.
        public var request: ConversionRequest
        /// The output's name in a folder output (`DatasetInput.stem`); nil: the input's base name.
        var stem: String? = nil
        /// Whether a folder output gives this input its own file or folder; nil: when the request
        /// has several inputs.
        var ownFolder: Bool? = nil
    }

    /// The shape of one planned output.
    enum Shape: Sendable, Equatable {
        /// One file at the path.
        case file
        /// A folder written whole and renamed into place (a bundle folder): whatever it held goes.
        case tree
        /// One `<collection>.EXT` file per collection in the folder at the path; the collections
        /// are known only once the data is read.
        case collectionFiles(ext: String)
    }

    /// One output the run would write.
    struct Output: Sendable {
        /// The path as it will be shown (`./n.json`, `out/`).
        var shown: String
        /// The input that writes it, as named ("" for the report).
        var input: String
        /// Who writes it, for messages: the input as shown and quoted, or `--report-file`.
        var writer: String
        var shape: Shape
        var path: PlannedPath
    }

    /// One file an input reads (a folder input stands for every file under it).
    struct InputFile: Sendable {
        var shown: String
        var path: PlannedPath
    }

    let outputs: [Output]
    let inputs: [InputFile]
    /// The inputs that are folders of one dataset (a bundle folder, a CSV folder, an app
    /// Documents folder): no output goes inside them, where it would become part of the input.
    let inputFolders: [InputFile]

    /// Plans the outputs of `jobs` and checks them.
    /// - Parameters:
    ///   - report: `--report-file`, written besides the outputs.
    ///   - show: how a path is named in messages (a pipeline strips its own folder).
    ///   - sameNameHint: the advice given when two inputs (as named, not as shown) would write one output.
    /// - Throws: `FerryError(.usage)` naming both sides of the first clash: an output that is, or
    ///   would replace, an input (or a file of a folder input), or two inputs writing one output.
    public static func check(
        _ jobs: [Job], report: String? = nil, registry: FormatRegistry, show: (String) -> String = { $0 },
        sameNameHint: (String, String) -> String
    ) throws {
        var outputs: [Output] = []
        for job in jobs {
            outputs += planned(job, registry: registry).map {
                Output(shown: show($0.path), input: job.input, writer: "'\(show(job.input))'", shape: $0.shape, path: PlannedPath($0.path))
            }
        }
        if let report, report != "-" {
            outputs.append(Output(shown: report, input: "", writer: "--report-file", shape: .file, path: PlannedPath(report)))
        }
        var inputs: [InputFile] = []
        var folders: [InputFile] = []
        var seenInputs: Set<String> = []
        for job in jobs where job.input != "-" && seenInputs.insert(job.input).inserted {
            inputs += files(of: job.input).map { InputFile(shown: show($0), path: PlannedPath($0)) }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: job.input, isDirectory: &isFolder), isFolder.boolValue {
                folders.append(InputFile(shown: show(job.input), path: PlannedPath(job.input)))
            }
        }
        let plan = OutputPlan(outputs: outputs, inputs: inputs, inputFolders: folders)
        try plan.checkInputs()
        try plan.checkOutputs(sameNameHint: sameNameHint)
        try plan.checkReplacedFolders()
    }

    /// The plan of a `ferry convert | migrate` request: its inputs share `target`.
    /// - Throws: what `check` throws.
    static func check(_ request: ConversionRequest, target: OutputTarget, registry: FormatRegistry) throws {
        let (datasets, ownFolders) = DatasetInputs.expand(request.inputs, ignoring: request.ignoredFiles, registry: registry)
        let jobs = datasets.map { Job(input: $0.path, target: target, request: request, stem: $0.stem, ownFolder: ownFolders) }
        try check(jobs, report: request.reportFile, registry: registry) { first, second in
            // Two files of one folder (`x.json`, `x.csv`) differ only in their extensions, which
            // no output keeps apart; files of two folders are kept apart by mirroring them.
            (first as NSString).deletingLastPathComponent == (second as NSString).deletingLastPathComponent
                ? "they differ only in their extensions, which outputs do not keep; rename one of them"
                : "inputs of one name cannot share a folder output; convert them to different folders, or convert their common folder (a folder of datasets is mirrored)"
        }
    }

    /// The outputs by what they claim, each key to the first output (by index) claiming it, so
    /// that a run of many inputs is checked in time linear in its files, not quadratic.
    private struct Claims {
        var files: [String: Int] = [:]
        var identities: [PlannedPath.Identity: Int] = [:]
        var trees: [String: Int] = [:]
        /// `folder + "/*." + ext` of each folder that gets one file per collection.
        var collections: [String: Int] = [:]

        init(_ outputs: [Output]) {
            for (index, output) in outputs.enumerated() {
                switch output.shape {
                case .file:
                    if files[output.path.resolved] == nil { files[output.path.resolved] = index }
                    if let identity = output.path.identity, identities[identity] == nil { identities[identity] = index }
                case .tree:
                    if trees[output.path.resolved] == nil { trees[output.path.resolved] = index }
                case .collectionFiles(let ext):
                    let key = Self.collectionKey(output.path.resolved, ext: ext)
                    if collections[key] == nil { collections[key] = index }
                }
            }
        }

        static func collectionKey(_ folder: String, ext: String) -> String { folder + "/*." + ext.lowercased() }

        /// The key of the collection folder a file at `path` would be one of.
        static func collectionKey(ofFile path: String) -> String? {
            let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
            return collectionKey(PlannedPath.folder(of: path), ext: String(name[name.index(after: dot)...]))
        }

        /// The folder bundles `path` lies in (or is), nearest first.
        func trees(holding path: String) -> [Int] {
            var found: [Int] = []
            var current = path
            while true {
                if let index = trees[current] { found.append(index) }
                guard current != "/" else { return found }
                current = PlannedPath.folder(of: current)
            }
        }
    }

    private func checkInputs() throws {
        for folder in inputFolders {
            let inside = folder.path.resolved.hasSuffix("/") ? folder.path.resolved : folder.path.resolved + "/"
            if let output = outputs.first(where: { $0.path.resolved.hasPrefix(inside) }) {
                throw refusal(output, folder, "is inside the input folder '\(folder.shown)'")
            }
        }
        let claims = Claims(outputs)
        for input in inputs {
            if let index = claims.files[input.path.resolved] {
                throw refusal(outputs[index], input, "is the input '\(input.shown)'")
            }
            if let identity = input.path.identity, let index = claims.identities[identity] {
                throw refusal(outputs[index], input, "is the input '\(input.shown)' (a hard link to it)")
            }
            if let index = claims.trees(holding: input.path.resolved).first {
                throw refusal(outputs[index], input, "would be replaced whole, and it holds the input '\(input.shown)'")
            }
            if let key = Claims.collectionKey(ofFile: input.path.resolved), let index = claims.collections[key],
               case .collectionFiles(let ext) = outputs[index].shape
            {
                throw refusal(outputs[index], input, "gets one <collection>.\(ext) file per collection, and the input '\(input.shown)' is such a file there")
            }
        }
    }

    /// A bundle folder output replaces its folder whole (it is swapped in when complete), so the
    /// folder must be new, empty, or an earlier bundle (it holds `manifest.json`) and nothing
    /// else: files of the user's in any other folder, or added to an earlier bundle, would be lost.
    private func checkReplacedFolders() throws {
        for output in outputs where output.shape == .tree {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output.path.resolved, isDirectory: &isFolder), isFolder.boolValue,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: output.path.resolved),
                  !names.isEmpty
            else { continue }
            guard names.contains("manifest.json") else {
                throw FerryError(.usage, "the output folder '\(output.shown)' holds files that are not a Ferry bundle (\(Self.shown(names))); "
                    + "a bundle folder output replaces its folder whole: give a new or empty folder, or an earlier bundle")
            }
            let foreign = Self.filesOutsideBundle(at: output.path.resolved)
            guard foreign.isEmpty else {
                throw FerryError(.usage, "the output folder '\(output.shown)' is an earlier bundle that also holds files that are not part of it "
                    + "(\(Self.shown(foreign))); a bundle folder output replaces its folder whole: move them out, or give a new or empty folder")
            }
        }
    }

    /// The first three of `names` in byte order, quoted, and "..." when there are more.
    private static func shown(_ names: [String]) -> String {
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return sorted.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (sorted.count > 3 ? ", ..." : "")
    }

    /// The files under the earlier bundle at `folder` (paths relative to it) that the bundle does
    /// not own: neither its manifest and BagIt tag files nor a file its `manifest.json` lists
    /// (Docs/bundles.md). A manifest that cannot be read owns everything under `data/`.
    private static func filesOutsideBundle(at folder: String) -> [String] {
        let tagFiles: Set<String> = ["manifest.json", "bagit.txt", "bag-info.txt"]
        var listed: Set<String>? = nil
        if let data = FileManager.default.contents(atPath: folder + "/manifest.json"),
           let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let files = manifest["files"] as? [[String: Any]]
        {
            var paths = Set(files.compactMap { $0["path"] as? String })
            if let collections = manifest["collections"] as? [String: Any] {
                paths.formUnion(collections.values.compactMap { ($0 as? [String: Any])?["path"] as? String })
            }
            listed = paths
        }
        var foreign: [String] = []
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        while let path = walk.nextObject() as? String {
            guard walk.fileAttributes?[.type] as? FileAttributeType != .typeDirectory else { continue }
            let isTag = !path.contains("/")
                && (tagFiles.contains(path) || (path.hasSuffix(".txt") && (path.hasPrefix("manifest-") || path.hasPrefix("tagmanifest-"))))
            let owned = isTag || (listed.map { $0.contains(path) } ?? path.hasPrefix("data/"))
            if !owned { foreign.append(path) }
        }
        return foreign
    }

    private func refusal(_ output: Output, _ input: InputFile, _ what: String) -> FerryError {
        let named = output.shape == .file ? "the output '\(output.shown)'" : "the output folder '\(output.shown)'"
        return FerryError(.usage, "\(named) \(what); inputs are never modified")
    }

    private func checkOutputs(sameNameHint: (String, String) -> String) throws {
        let claims = Claims(outputs)
        for (index, output) in outputs.enumerated() {
            var others: [Int] = []
            switch output.shape {
            case .file:
                others += [claims.files[output.path.resolved], output.path.identity.flatMap { claims.identities[$0] }].compactMap { $0 }
                others += Claims.collectionKey(ofFile: output.path.resolved).flatMap { claims.collections[$0] }.map { [$0] } ?? []
            case .tree:
                others += claims.trees[output.path.resolved].map { [$0] } ?? []
            case .collectionFiles(let ext):
                others += claims.collections[Claims.collectionKey(output.path.resolved, ext: ext)].map { [$0] } ?? []
            }
            others += claims.trees(holding: output.path.resolved)
            guard let other = others.first(where: { outputs[$0].input != output.input }) else { continue }
            let (first, second) = other < index ? (outputs[other], output) : (output, outputs[other])
            let hint = first.input.isEmpty || second.input.isEmpty ? "give --report-file another name" : sameNameHint(first.input, second.input)
            if first.shown == second.shown {
                throw FerryError(.usage, "the output '\(first.shown)' would be written from both \(first.writer) and \(second.writer); \(hint)")
            }
            throw FerryError(.usage, "the output '\(second.shown)' of \(second.writer) would overwrite the output '\(first.shown)' of \(first.writer); \(hint)")
        }
    }

    /// The outputs of one job, with the shapes `OutputRouter` gives them; none for standard output,
    /// a dry run, or an input whose format cannot be told before reading it.
    static func planned(_ job: Job, registry: FormatRegistry) -> [(path: String, shape: Shape)] {
        guard job.request.action == .convert else { return [] }
        let outputFormat = job.request.outputFormat.flatMap { registry.format(named: $0) }
            ?? job.target.formatName(registry: registry).flatMap { registry.format(named: $0) }
            ?? inputFormat(of: job.input, named: job.request.inputFormat, registry: registry)
        switch job.target {
        case .standardOutput:
            return []
        case .file(let path):
            return [(path, .file)]
        case .folder(let folder):
            guard let format = outputFormat else { return [] }
            let base = OutputRouter.base(of: folder)
            let ownFolder = job.ownFolder ?? (job.request.inputs.count > 1)
            let stem = job.stem ?? OutputRouter.stem(of: job.input)
            let ext = format.extensions.first ?? format.name
            if format.isContainer { return ownFolder ? [(base + "/" + stem + "." + ext, .file)] : [(folder, .tree)] }
            if format.isSingleCollection, ownFolder {
                // A dataset of one collection named after it is one file, of several a folder
                // (`OutputRouter`): which, the data tells, so both are claimed.
                return [(base + "/" + stem + "/", .collectionFiles(ext: ext)), (base + "/" + stem + "." + ext, .file)]
            }
            if format.isSingleCollection { return [(folder, .collectionFiles(ext: ext))] }
            return [(base + "/" + stem + "." + ext, .file)]
        }
    }

    /// The input's format as `DatasetSource` will find it: `--from`, a bundle, a folder's first
    /// data file, the extension, else the first bytes. Nil when none of these tells it.
    static func inputFormat(of input: String, named: String?, registry: FormatRegistry) -> FormatDescriptor? {
        if let named { return registry.format(named: named) }
        guard input != "-" else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            if !InputExpander.bundleMarkers.isDisjoint(with: names) {
                return registry.format(playing: .defaultBundle)
            }
            return names.lazy.compactMap { registry.format(forPath: $0) }.first { $0.reader != nil && !$0.isContainer }
        }
        let (compression, inner) = Compression.forPath(input)
        if let format = registry.format(forPath: inner) ?? registry.format(forPath: input) { return format }
        // Only a regular file's first bytes are looked at here: a pipe's (`<(cat f)`, /dev/stdin)
        // would be gone for the reading itself, as they are for standard input.
        var status = stat()
        guard compression == .none, stat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: input)
        else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64 << 10)) ?? Data()
        return registry.format(forHead: InputHead(Array(head)))
    }

    /// The input itself, or every file under a folder input.
    private static func files(of input: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [input] }
        let base = input.hasSuffix("/") ? String(input.dropLast()) : input
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: input) else { return [] }
        while let name = walker.nextObject() as? String {
            let path = base + "/" + name
            var childIsFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &childIsFolder), !childIsFolder.boolValue { found.append(path) }
        }
        return found.sorted()
    }
}

/// A path as the file system will take it: absolute, with symlinks and `.`/`..` followed for the
/// part that exists (the rest, to be created, taken as written), and the device and inode of the
/// file when it exists.
struct PlannedPath: Sendable, Equatable {
    /// Device and inode of an existing file or folder.
    struct Identity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
    }

    let resolved: String
    let identity: Identity?

    init(_ path: String) {
        resolved = Self.resolve(path)
        var status = stat()
        identity = stat(resolved, &status) == 0 ? Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) : nil
    }

    /// The folder holding `path` (an absolute, resolved path).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` made absolute and resolved component by component, so that `..` after a symlink
    /// goes where the file system goes (the symlink's target's parent), not where the text says.
    static func resolve(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var resolved = "/"
        for component in absolute.split(separator: "/") {
            if component == "." { continue }
            if component == ".." {
                resolved = folder(of: resolved)
                continue
            }
            let next = (resolved == "/" ? "/" : resolved + "/") + component
            if let real = realpath(next, nil) {
                resolved = String(cString: real)
                free(real)
            } else {
                resolved = next
            }
        }
        return resolved
    }
}
