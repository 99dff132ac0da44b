import FerryCore
import FerrySchemas
import FormatJSON
import Foundation

/// Runs a pipeline file: every input through the same steps, in parallel, each output atomic, one
/// bad input never stopping or corrupting the others.
public struct PipelineRunner: Sendable {
    public let registry: FormatRegistry
    /// Counts bytes and records of every input for a progress display.
    public let progress: ProgressMeter?

    public init(registry: FormatRegistry, progress: ProgressMeter? = nil) {
        self.registry = registry
        self.progress = progress
    }

    /// Reads and checks a pipeline file: its members (`PipelineFileCheck`), their types and its
    /// options, before any input is read.
    /// - Throws: `FerryError(.usage)` at the JSON Pointer of a bad member (`p.json: error:
    ///   /options/jobs: expected a number, found string [usage]`), or `unreadable-input` /
    ///   `malformed-json` for the file itself.
    public static func load(_ path: String) throws -> PipelineDefinition {
        let source = try FileDescriptorSource(path: path)
        let bytes = try source.readAll(limit: 16 << 20)
        let value = try JSONText.parse(bytes, options: ReadOptions(fileName: path))
        try PipelineFileCheck.members(of: value, path: path)
        do {
            let definition = try ValueDecoder().decode(PipelineDefinition.self, from: value)
            try check(definition, path: path)
            try PipelineFileCheck.options(definition.options, path: path)
            return definition
        } catch let error as DecodingError {
            throw FerryError(.usage, Self.reason(error), at: SourceLocation(file: path, field: error.jsonPointer))
        }
    }

    private static func check(_ definition: PipelineDefinition, path: String) throws {
        for (index, step) in definition.steps.enumerated() {
            let set = [step.map != nil, step.filter != nil, step.migrate != nil, step.validate != nil].filter { $0 }.count
            if set != 1 {
                throw FerryError(.usage, "a step has exactly one of map, filter, migrate, validate",
                                 at: SourceLocation(file: path, field: JSONPointer(tokens: ["steps", String(index)])))
            }
        }
    }

    /// The decoder's message without the place it starts with (`at /options/jobs: `): the
    /// diagnostic's pointer says it.
    private static func reason(_ error: DecodingError) -> String {
        let text: String
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            text = context.debugDescription
        @unknown default:
            text = "\(error)"
        }
        guard text.hasPrefix("at "), let colon = text.range(of: ": ") else { return text }
        return String(text[colon.upperBound...])
    }

    /// The inputs of a pipeline, optionally one shard of them.
    ///
    /// A file found by expanding a folder or a glob is left out when it is the pipeline file, the
    /// report file, or an output of the run (the output template filled for any input found, or a
    /// file inside such an output folder): `"inputs": ["./"]` beside the pipeline file reads
    /// neither the file nor what an earlier run wrote. A file the pipeline names itself stays an
    /// input (an output that is an input is then `checkOutputs`' usage error).
    /// - Parameters:
    ///   - pipelinePath: the pipeline file; patterns are relative to its folder.
    ///   - shard: `(k, n)` keeps the inputs whose shard (SHA-256 of the NFC relative path) is `k` (1-based) of `n`.
    ///   - reportFile: `--report-file`, relative to the working folder.
    ///   - registry: the formats, for `{ext}` in the output template.
    ///   - ignored: receives each file under a folder input that is no dataset (of no data
    ///     format) and no output of the run, as the folder (absolute) and the file's path inside
    ///     it, in byte order, whatever the shard.
    public static func inputs(
        of definition: PipelineDefinition, pipelinePath: String, shard: (Int, Int)?, reportFile: String? = nil,
        registry: FormatRegistry, ignored: ((_ folder: String, _ file: String) -> Void)? = nil
    ) throws -> [PipelineInput] {
        let base = URL(fileURLWithPath: pipelinePath).deletingLastPathComponent().standardizedFileURL.path
        let own = ownFiles(pipelinePath: pipelinePath, reportFile: reportFile)
        var seen: Set<String> = []
        var all: [PipelineInput] = []
        var named: Set<String> = []  // files the pipeline names as they are, no folder or glob
        var skipped: [(folder: String, file: String)] = []
        for input in definition.inputs {
            let map = input.map.map { $0.hasPrefix("/") ? $0 : base + "/" + $0 }
            let expanded = try InputExpander.expand([input.path], relativeTo: base, ignoring: own, registry: registry) { folder, file in
                skipped.append((folder, file))
            }
            for path in expanded where seen.insert(path).inserted {
                all.append(PipelineInput(path: path, map: map))
            }
            let literal = input.path.hasPrefix("/") ? input.path : base + "/" + input.path
            if !input.path.contains(where: { "*?[".contains($0) }) { named.insert(Self.standardized(literal)) }
        }
        var outputs: Set<String> = []
        if let output = definition.output, !output.path.isEmpty {
            for input in all {
                outputs.insert(Self.standardized(outputPath(output.path, input: input.path, base: base, registry: registry, format: output.format)))
            }
        }
        all.removeAll { input in
            let path = Self.standardized(input.path)
            guard !named.contains(path) else { return false }
            return own.contains(path) || outputs.contains(path) || outputs.contains { path.hasPrefix($0 + "/") }
        }
        all.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        var reportedSkips: Set<String> = []
        for (folder, file) in skipped {
            let path = Self.standardized(folder + "/" + file)
            guard reportedSkips.insert(path).inserted, !outputs.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
            ignored?(folder, file)
        }
        guard let (k, n) = shard else { return all }
        return all.filter { input in
            let relative = input.path.hasPrefix(base + "/") ? String(input.path.dropFirst(base.count + 1)) : input.path
            return ShardSelector.shard(of: relative, count: n) == k
        }
    }

    /// `path` absolute (from the working folder), without `.`, `..` or a final `/`, to compare.
    private static func standardized(_ path: String) -> String { InputExpander.standardized(path) }

    /// The pipeline file and the report file: no data, wherever a folder input finds them.
    static func ownFiles(pipelinePath: String, reportFile: String?) -> Set<String> {
        Set([pipelinePath] + (reportFile.map { [$0] } ?? [])).reduce(into: []) { $0.insert(standardized($1)) }
    }

    /// Runs every input of the pipeline. Callers check the outputs first (`checkOutputs`): each
    /// input's own conversion checks only its own output.
    /// - Parameters:
    ///   - overrideJobs: `--jobs`, else the file's `jobs`, else the number of cores.
    ///   - reportFile: `--report-file`, which a folder input does not read.
    ///   - report: receives every diagnostic as it is found, from several threads.
    /// - Returns: one report per input, in input order.
    public func run(
        _ definition: PipelineDefinition, pipelinePath: String, inputs: [PipelineInput], variables: [String: String],
        overrideJobs: Int?, reportFile: String? = nil, report: @escaping @Sendable (Diagnostic) -> Void
    ) -> [DatasetReport] {
        let folders = MadeFolders()
        let own = Self.ownFiles(pipelinePath: pipelinePath, reportFile: reportFile)
        let base = URL(fileURLWithPath: pipelinePath).deletingLastPathComponent().standardizedFileURL.path
        let jobs = max(1, overrideJobs ?? definition.options?.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let results = ReportSlots(count: inputs.count)
        let ordered = OrderedDiagnostics(count: inputs.count, report: report)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = jobs
        for (index, input) in inputs.enumerated() {
            queue.addOperation {
                let reports: [DatasetReport]
                do {
                    var request = try makeRequest(definition, input: input.path, base: base, variables: variables, ignoring: own)
                    if let map = input.map { request.mapping = map }
                    request.runFolders = folders
                    reports = Converter(registry: registry, progress: progress).run(request) { ordered.add($0, input: index) }
                } catch {
                    let diagnostic = Converter.diagnostic(for: error)
                    ordered.add(diagnostic, input: index)
                    reports = [DatasetReport(input: input.path, format: "", collections: [], errorCount: 1, warningCount: 0,
                                             status: diagnostic.exitStatus, diagnostics: [diagnostic])]
                }
                results.set(index, reports.first)
                ordered.finish(input: index)
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        folders.removeEmpty()
        return results.all
    }

    /// The conversion request for one input.
    /// `ignoring`: the pipeline's own files (`ownFiles`), which a folder input neither reads nor counts.
    func makeRequest(
        _ definition: PipelineDefinition, input: String, base: String, variables: [String: String], ignoring: Set<String> = []
    ) throws -> ConversionRequest {
        var request = ConversionRequest(action: definition.output == nil ? .validate : .convert, inputs: [input])
        request.ignoredFiles = ignoring
        let options = definition.options
        if options?.strict == true { request.processing.mode = .strict }
        if options?.lenient == true { request.processing.mode = .lenient }
        if let zone = options?.timeZone { request.processing.timeZone = zone }
        if let name = options?.dateStrategy {
            guard let strategy = DateStrategy(rawValue: name) else { throw FerryError(.usage, "/options/dateStrategy: unknown strategy '\(name)'") }
            request.processing.dateStrategy = strategy
        }
        if let name = options?.domain {
            guard let domain = Domain(rawValue: name) else { throw FerryError(.usage, "/options/domain: unknown domain '\(name)'") }
            request.domain = domain
        }
        request.sourceVersion = options?.schemaVersion
        request.read.collection = options?.collection
        request.read.nullToken = options?.nullToken
        if let delimiter = options?.delimiter { request.read.delimiter = delimiter == "tab" ? 0x09 : delimiter.utf8.first }
        request.dataFormat = options?.dataFormat
        request.variables = variables
        var migrated = false
        for step in definition.steps {
            if let map = step.map { request.mapping = map.hasPrefix("/") ? map : base + "/" + map }
            if let filter = step.filter {
                request.filter = filter
                request.filterBeforeMigration = !migrated
            }
            if let migrate = step.migrate {
                request.targetVersion = migrate.toVersion
                request.notesVersionAlreadyReached = true
                migrated = true
            }
        }
        if let output = definition.output {
            request.output = Self.outputPath(output.path, input: input, base: base, registry: registry, format: output.format)
            request.outputFormat = output.format
        }
        return request
    }

    /// Fills a path template: `{name}` is the input's file name without its extensions, `{path}`
    /// the input's path from the pipeline's folder without its extensions (`2024/may/x` for
    /// `2024/may/x.json`; an input outside that folder gives its absolute path without the first
    /// `/`, so the output stays under the template's folder), `{ext}` the extension of the output
    /// format.
    static func outputPath(_ template: String, input: String, base: String, registry: FormatRegistry, format: String?) -> String {
        let ext = format.flatMap { registry.format(named: $0)?.extensions.first } ?? ""
        let path = template.replacingOccurrences(of: "{name}", with: nameVariable(input))
            .replacingOccurrences(of: "{path}", with: pathVariable(input, base: base))
            .replacingOccurrences(of: "{ext}", with: ext)
        return path.hasPrefix("/") ? path : base + "/" + path
    }

    /// `{name}`: the file name without its extensions (a hidden file's name whole).
    static func nameVariable(_ input: String) -> String {
        let fileName = URL(fileURLWithPath: input).lastPathComponent
        return fileName.hasPrefix(".") ? fileName : String(fileName.prefix { $0 != "." })
    }

    /// `{path}`: the input's path from `base` without its extensions.
    static func pathVariable(_ input: String, base: String) -> String {
        let trimmed = input.hasSuffix("/") ? String(input.dropLast()) : input
        var relative = trimmed.hasPrefix(base + "/") ? String(trimmed.dropFirst(base.count + 1)) : trimmed
        while relative.hasPrefix("/") { relative.removeFirst() }
        let folder = (relative as NSString).deletingLastPathComponent
        let name = nameVariable(relative)
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Checks, before any input is read, that no output of the pipeline is one of its inputs or
    /// the output of another input (`OutputPlan`).
    /// - Throws: `FerryError(.usage)` naming both sides and, for two inputs of one output, how the
    ///   template could tell them apart, or for an empty template.
    /// - Parameter reportFile: `--report-file`, written after the run.
    public func checkOutputs(
        _ definition: PipelineDefinition, pipelinePath: String, inputs: [PipelineInput], variables: [String: String],
        reportFile: String? = nil
    ) throws {
        let output = definition.output ?? PipelineDefinition.Output(path: "", format: nil)
        // Format names, once at the file: each input would report the same unknown name.
        if let name = output.format {
            _ = try registry.outputFormat(named: name, at: SourceLocation(file: pipelinePath, field: JSONPointer(tokens: ["output", "format"])))
        }
        if let name = definition.options?.dataFormat,
           registry.format(named: name).map({ $0.writer == nil || $0.isContainer }) ?? true {
            throw FerryError(.unknownFormat, "no format named '\(name)' writes bundle data files; `ferry formats` lists what writes",
                             at: SourceLocation(file: pipelinePath, field: JSONPointer(tokens: ["options", "dataFormat"])))
        }
        guard definition.output != nil || reportFile != nil else { return }
        if definition.output != nil, output.path.isEmpty { throw FerryError(.usage, "/output/path: the output path template is empty") }
        // Inputs run in parallel, each to an output of its own: standard output cannot be one.
        if definition.output != nil, output.path == "-" {
            throw FerryError(.usage, "/output/path: '-' (standard output) cannot be a pipeline's output, which is one file per input; "
                + "name a template such as 'out/{name}.{ext}', or use ferry convert for standard output")
        }
        let base = URL(fileURLWithPath: pipelinePath).deletingLastPathComponent().standardizedFileURL.path
        var jobs: [OutputPlan.Job] = []
        for input in inputs {
            // A request that cannot be made fails its input's own run, with its diagnostic there.
            guard let request = try? makeRequest(definition, input: input.path, base: base, variables: variables,
                                                 ignoring: Self.ownFiles(pipelinePath: pipelinePath, reportFile: reportFile)),
                  let target = try? OutputTarget.resolve(request.output, inputs: [input.path])
            else { continue }
            jobs.append(OutputPlan.Job(input: input.path, target: target, request: request))
        }
        let show = { (path: String) in path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path }
        try OutputPlan.check(jobs, report: reportFile, registry: registry, show: show) { first, second in
            if !output.path.contains("{path}"), Self.pathVariable(first, base: base) != Self.pathVariable(second, base: base) {
                return "add {path} (the input's path without its extensions) to the output template '\(output.path)'"
            }
            return "the output template '\(output.path)' gives both one name, as they differ only in their extensions; rename one of them"
        }
    }
}

/// One input of a pipeline run: its absolute path and the mapping that applies to it, if any.
public struct PipelineInput: Sendable, Equatable {
    public var path: String
    public var map: String?
}

/// Reports filled in by parallel jobs, each at its input's index.
final class ReportSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [DatasetReport?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ report: DatasetReport?) { lock.withLock { slots[index] = report } }

    var all: [DatasetReport] { lock.withLock { slots.compactMap { $0 } } }
}

/// Passes the diagnostics of parallel inputs on in input order, so a run's output is the same
/// whatever the timing: the first unfinished input's diagnostics go out as they come, later
/// inputs' are held until every input before them has finished.
final class OrderedDiagnostics: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [[Diagnostic]]
    private var finished: [Bool]
    private var next = 0
    private let report: @Sendable (Diagnostic) -> Void

    init(count: Int, report: @escaping @Sendable (Diagnostic) -> Void) {
        held = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
        self.report = report
    }

    func add(_ diagnostic: Diagnostic, input: Int) {
        lock.withLock {
            if input == next { report(diagnostic) } else { held[input].append(diagnostic) }
        }
    }

    func finish(input: Int) {
        lock.withLock {
            finished[input] = true
            while next < finished.count, finished[next] {
                next += 1
                if next < held.count {
                    for diagnostic in held[next] { report(diagnostic) }
                    held[next] = []
                }
            }
        }
    }
}
