import FerryCore
import FerryPipeline
import Foundation
import FerryFormats

/// `ferry run PIPELINE.json [--shard K/N] [--jobs N] [--report ...]`: a batch job.
struct RunCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "a bundle's createdAt and its members' times, or an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a batch job described by a pipeline file: inputs, steps, output, options.",
        discussion: """
            The pipeline file (JSON) names inputs (files, folders, globs, relative to the file's folder), steps in
            order (map, filter, migrate, validate), an output path template such as out/{name}.tar, and options
            (strict, lenient, jobs, timeZone, ...). Inputs run in parallel; each output is written atomically; one
            bad input never stops the others. The run ends with a summary and the exit code of the worst input.
            --shard K/N takes a deterministic 1/N of the inputs (by SHA-256 of the NFC relative path), so N
            machines can split a batch with any scheduler (Kubernetes indexed Jobs, Slurm arrays, GNU parallel).
            See Docs/pipelines.md.
            """,
        arguments: "PIPELINE.json", argumentCount: 1...1,
        options: [
            OptionSpec(["--shard"], .single, value: "K/N", help: "Run only shard K of N (K from 1)."),
            OptionSpec(["--jobs", "-j"], .single, value: "N", help: "Inputs processed at once (default: the file's jobs, else the cores)."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in filters."),
            OptionSpec(["--report"], .single, value: "FORMAT", help: "Report format: text (default), json, junit, github, html."),
            OptionSpec(["--report-file"], .single, value: "FILE", help: "Write the report to FILE instead of standard output."),
            OptionSpec(["--max-errors"], .single, value: "N", help: "Print at most N errors and warnings; the counts stay exact."),
            OptionSpec(["--adapter-timeout"], .single, value: "SECONDS", help: "Stop an external ferry-format-* adapter silent this long (default 30)."),
            OptionSpec(["--quiet", "-q"], help: "Print errors only; no summary."),
        ],
        exitCodes: ExitCodes.all)

    var pipeline: String
    var shard: (Int, Int)?
    var jobs: Int?
    var variables: [String: String]
    var report: ReportFormat
    var reportFile: String?
    var maxErrors: Int?
    var quiet: Bool
    var timeout: Int

    init(_ arguments: ParsedArguments) throws {
        pipeline = arguments.positionals[0]
        shard = try arguments.value("shard").map(ShardSelector.parse)
        jobs = try arguments.integer("jobs", in: 1...1024)
        variables = try VariableParsing.parse(arguments.values("var"))
        let name = arguments.value("report") ?? "text"
        guard let report = ReportFormat(rawValue: name) else { throw UsageError("unknown report format '\(name)'; use text, json, junit, github or html") }
        self.report = report
        reportFile = try ConversionRunner.reportFile(arguments)
        maxErrors = try arguments.integer("max-errors", in: 0...Int.max)
        quiet = arguments.flag("quiet")
        timeout = try arguments.integer("adapter-timeout", in: 1...86_400) ?? 30
    }

    func run() throws -> ExitStatus {
        let definition = try PipelineRunner.load(pipeline)
        let registry = FormatRegistry.withExternalAdapters(timeout: Double(timeout))
        var ignored: [(folder: String, file: String)] = []
        let inputs = try PipelineRunner.inputs(
            of: definition, pipelinePath: pipeline, shard: shard, reportFile: reportFile, registry: registry
        ) { ignored.append(($0, $1)) }
        let printer = DiagnosticPrinter(limit: maxErrors, quiet: quiet)
        let progress = ProgressBar.make(quiet: quiet)
        defer { progress?.finish() }
        let runner = PipelineRunner(registry: registry, progress: progress?.meter)
        try runner.checkOutputs(definition, pipelinePath: pipeline, inputs: inputs, variables: variables, reportFile: reportFile)
        let paths = PipelinePaths(pipeline: pipeline)
        // A file of no data format under a folder input is named, as `ferry validate FOLDER` names it.
        for (folder, file) in ignored {
            printer.print(DatasetInputs.ignoredNote(file, in: paths.shown(folder)))
        }
        let reports = runner.run(definition, pipelinePath: pipeline, inputs: inputs, variables: variables, overrideJobs: jobs,
                                 reportFile: reportFile) { diagnostic in
            if diagnostic.severity == .note && diagnostic.location.file == nil { return }
            printer.print(paths.shown(diagnostic))
        }
        progress?.finish()
        printer.finish()
        // Reports name inputs relative to the pipeline file, the same on every machine of a sharded run.
        let named = reports.map { paths.relative($0) }
        let action: ConversionRequest.Action = definition.output == nil ? .validate : .convert
        try ConversionRunner.writeReport(named, as: report, to: reportFile, command: "run", action: action,
                                         ignored: ignored.map { paths.relative($0.folder) + "/" + $0.file })
        if !quiet {
            for report in reports { StandardError.write(Summary.line(for: paths.shown(report), action: action) + "\n") }
            let failed = Summary.failures(reports, action: action)
            let errors = reports.reduce(0) { $0 + $1.errorCount }
            let warnings = reports.reduce(0) { $0 + $1.warningCount }
            let shardText = shard.map { " (shard \($0.0)/\($0.1))" } ?? ""
            // A pipeline with no output validates: its inputs are valid or invalid, not converted.
            let (good, bad) = action == .convert ? ("converted", "failed") : Summary.words(action)
            // The errors too: with `lenient`, an input with errors is converted all the same.
            StandardError.write("run\(shardText): \(reports.count - failed) \(good), \(failed) \(bad) "
                + "(\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))\n")
        }
        return reports.map(\.status).max() ?? .success
    }
}

/// Parses `--var NAME=VALUE` arguments.
enum VariableParsing {
    static func parse(_ arguments: [String]) throws -> [String: String] {
        var variables: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw UsageError("--var takes NAME=VALUE, not '\(argument)'")
            }
            variables[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        return variables
    }
}

/// The paths of a pipeline run as people read them. Inputs and outputs are absolute inside the
/// run; the terminal shows them under the pipeline file's folder as it was typed
/// (`ferry run jobs/nightly.json` shows `jobs/backups/notes.json`), and reports name inputs
/// relative to the pipeline file (`backups/notes.json`), the same on every machine of a sharded
/// run. A path outside the pipeline's folder stays absolute.
struct PipelinePaths {
    /// The pipeline file's folder, absolute and standardized, with a final `/`.
    let base: String
    /// The pipeline file's folder as typed, with a final `/` (empty for a file in the working folder).
    let typed: String

    init(pipeline: String) {
        base = URL(fileURLWithPath: pipeline).deletingLastPathComponent().standardizedFileURL.path + "/"
        let folder = (pipeline as NSString).deletingLastPathComponent
        typed = folder.isEmpty ? "" : folder + "/"
    }

    /// `path` as the terminal shows it (the pipeline's folder itself, an input `./`, as typed).
    func shown(_ path: String) -> String {
        if path + "/" == base { return typed.isEmpty ? "." : String(typed.dropLast()) }
        return path.hasPrefix(base) ? typed + path.dropFirst(base.count) : path
    }

    /// `path` as reports show it.
    func relative(_ path: String) -> String {
        path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// A diagnostic whose file is shown as the terminal shows it.
    func shown(_ diagnostic: Diagnostic) -> Diagnostic {
        var diagnostic = diagnostic
        diagnostic.location.file = diagnostic.location.file.map(shown)
        return diagnostic
    }

    /// A report whose input and output are shown as the terminal shows them (for its summary line).
    func shown(_ report: DatasetReport) -> DatasetReport {
        var report = report
        report.input = shown(report.input)
        report.output = report.output.map { $0 == "-" ? $0 : shown($0) }
        return report
    }

    /// A report whose input is relative to the pipeline file. Its diagnostics keep their files
    /// as read, which the HTML report opens for code frames wherever it is run from.
    func relative(_ report: DatasetReport) -> DatasetReport {
        var report = report
        report.input = relative(report.input)
        return report
    }
}
