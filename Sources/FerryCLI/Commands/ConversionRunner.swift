import FerryCore
import FerryPipeline
import FerrySchemas

/// Runs a conversion request and prints what happened: diagnostics as they come, then one
/// summary line per input on standard error.
struct ConversionRunner {
    var common: CommonOptions
    /// `--report`: a machine-readable report besides the diagnostics on standard error.
    var report: ReportFormat = .text
    /// `--report-file`: where the report goes; nil is standard output.
    var reportFile: String?
    /// Whether a summary line per input goes to standard error after the run (not for `head`).
    var summary = true
    /// The command's name, for the HTML report's title.
    var command = "convert"

    /// The `--report` and `--report-file` options, shared by convert, migrate and validate.
    static let reportSpecs: [OptionSpec] = [
        OptionSpec(["--report"], .single, value: "FORMAT", help: "Also write a report: text (default), json, junit, github, html."),
        OptionSpec(["--report-file"], .single, value: "FILE", help: "Write the report to FILE (needed when standard output carries data)."),
    ]

    init(common: CommonOptions, arguments: ParsedArguments? = nil) throws {
        self.common = common
        let name = arguments?.value("report") ?? "text"
        guard let report = ReportFormat(rawValue: name) else {
            throw UsageError("unknown report format '\(name)'; use text, json, junit, github or html")
        }
        self.report = report
        reportFile = try arguments.flatMap(Self.reportFile)
    }

    /// `--report-file`, which must name a file; `-` is standard output (nil), as for `-o`.
    /// - Throws: `UsageError` for an empty path (it names no file, and its folder would be swept)
    ///   and for a folder (a path ending in `/`, or an existing folder), before anything is made.
    static func reportFile(_ arguments: ParsedArguments) throws -> String? {
        let file = arguments.value("report-file")
        if file == "" { throw UsageError("--report-file needs a file name, not ''") }
        if let file, file != "-", file.hasSuffix("/") || ReportFormat.isFolder(file) {
            throw UsageError("--report-file needs a file name, not the folder '\(file)'")
        }
        return file == "-" ? nil : file
    }

    /// - Throws: `FerryError(.usage)` before anything is read when an output or the report would
    ///   replace an input or another output (`Converter.checkOutputs`); what writing the report throws.
    func run(_ request: ConversionRequest) throws -> ExitStatus {
        var request = request
        request.reportFile = reportFile
        // A report written inside a folder input is not one of its datasets the next time, as a
        // pipeline's is not (a report named as an input stays one, and is refused as the output).
        if let reportFile { request.ignoredFiles.insert(InputExpander.standardized(reportFile)) }
        if report == .text && reportFile == nil {
            // The diagnostics go to standard error as found.
            request.keepsDiagnostic = Self.keepsForSummary
        }
        try Converter(registry: common.registry).checkOutputs(request)
        let printer = DiagnosticPrinter(limit: common.maxErrors, quiet: common.quiet)
        let verbose = common.verbose
        let progress = ProgressBar.make(quiet: common.quiet)
        defer { progress?.finish() }
        let reports = Converter(registry: common.registry, progress: progress?.meter).run(request) { diagnostic in
            if diagnostic.severity == .note && !verbose && diagnostic.code == .assumption && diagnostic.location.file == nil { return }
            printer.print(diagnostic)
        }
        progress?.finish()
        printer.finish()
        let ignored = DatasetInputs.expansion(of: request.inputs, ignoring: request.ignoredFiles, registry: common.registry).skipped.map { $0.folder + "/" + $0.file }
        try Self.writeReport(reports, as: report, to: reportFile, command: command, action: request.action, ignored: ignored)
        if !common.quiet && summary {
            for report in reports { StandardError.write(Summary.line(for: report, action: request.action) + "\n") }
            if reports.count > 1 { StandardError.write(Summary.total(of: reports, action: request.action) + "\n") }
        }
        return reports.map(\.status).max() ?? .success
    }

    /// Writes the machine-readable report, atomically when it goes to a file; nothing for plain
    /// text to the terminal (the diagnostics already went to standard error).
    /// - Parameters:
    ///   - command: the command's name, for the HTML page's title.
    ///   - action: what the run did, for the HTML page's verdict words.
    ///   - ignored: the files under folders of datasets that are none, as shown (`backups/README.txt`).
    static func writeReport(_ reports: [DatasetReport], as report: ReportFormat, to reportFile: String?,
                            command: String, action: ConversionRequest.Action, ignored: [String] = []) throws {
        guard report != .text || reportFile != nil else { return }
        try write(report.render(reports, command: command, action: action, ignored: ignored), to: reportFile)
    }

    /// Writes a report's text to `reportFile`, complete or not at all (its folder made), or to
    /// standard output when nil.
    static func write(_ text: String, to reportFile: String?) throws {
        if let reportFile {
            let file = try AtomicOutputFile.makingFolder(path: reportFile)
            try file.sink.write(text)
            try file.commit()
        } else {
            StandardOutput.write(text)
        }
    }

    /// The diagnostics a run that prints them as they come keeps for its summary: those that
    /// stopped an input (`Summary.verdict`, the output's failure, a profile left out).
    static let keepsForSummary: @Sendable (Diagnostic) -> Bool = { $0.exitStatus > .invalidData }
}

/// One-line summaries of what a run did.
enum Summary {
    /// The line after the summaries of several datasets:
    /// `total: 6 datasets, 5 valid, 1 invalid (3 errors, 0 warnings)`; `written` and `failed` for a
    /// conversion, `passed` and `failed` for a dry run.
    static func total(of reports: [DatasetReport], action: ConversionRequest.Action) -> String {
        let failed = failures(reports, action: action)
        let (good, bad) = words(action)
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        return "total: \(reports.count) datasets, \(reports.count - failed) \(good), \(failed) \(bad)"
            + " (\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))"
    }

    /// How many inputs did not pass: for a conversion, those that wrote nothing (`--lenient`
    /// writes the valid records of an invalid input: it counts as written); otherwise those
    /// with errors.
    static func failures(_ reports: [DatasetReport], action: ConversionRequest.Action) -> Int {
        action == .convert ? reports.filter { $0.output == nil }.count : reports.filter { $0.status > .success }.count
    }

    /// The words for an input that passed and one that did not: `valid`/`invalid` for a
    /// validation, `written`/`failed` for a conversion, `passed`/`failed` for a dry run.
    static func words(_ action: ConversionRequest.Action) -> (String, String) {
        switch action {
        case .convert: ("written", "failed")
        case .dryRun: ("passed", "failed")
        case .validate: ("valid", "invalid")
        }
    }

    static func line(for report: DatasetReport, action: ConversionRequest.Action) -> String {
        var text = DiagnosticText.escaped(report.input) + ":"
        if let domain = report.domain {
            text += " \(domain.rawValue) v\(report.sourceVersion.map(String.init) ?? "?")"
            if let target = report.targetVersion, target != report.sourceVersion { text += " -> v\(target)" }
        } else if !report.format.isEmpty, report.recordCount > 0 || report.errorCount == 0 {
            text += " schema-free \(report.format)"
        }
        let counts = report.collections.map { "\($0.name.isEmpty ? "records" : $0.name) \($0.count)" }.joined(separator: ", ")
        if !counts.isEmpty { text += ": " + counts }
        // An output that cannot be written is no problem of the records: said at the end instead.
        let outputFailed = report.status == .outputUnwritable
        let errors = report.errorCount - (outputFailed ? report.diagnostics.filter { $0.severity == .error && $0.code == .outputUnwritable }.count : 0)
        // Records read can be fewer than those counted (a Firestore document holds its
        // sub-collections): the records read are said only when some were not kept, lost to
        // errors or left out by a filter (`passed`: kept for the output), so that a file whose
        // records all fail does not read as empty.
        if report.recordsRead > report.recordCount {
            let read = "\(report.recordsRead) record\(report.recordsRead == 1 ? "" : "s")"
            text += " (\(report.recordCount) of \(read) \(action == .validate ? "valid" : "passed")"
        } else {
            text += " (\(report.recordCount) record\(report.recordCount == 1 ? "" : "s")"
        }
        text += ", \(errors) error\(errors == 1 ? "" : "s")"
        text += ", \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s"))"
        switch action {
        case .convert where outputFailed:
            text += "; the output could not be written (the error above), nothing written"
        case .convert:
            if let output = report.output { text += " -> " + (output == "-" ? "standard output" : DiagnosticText.escaped(output)) } else { text += "; nothing written" }
        case .dryRun:
            text += "; dry run, nothing written"
        case .validate:
            text += "; " + verdict(report)
        }
        return text
    }

    /// What a validation came to: `valid`, `invalid` (its data breaks rules), or, when the input
    /// could not be checked in full, what stopped it: `unreadable` (exit 3, it could not be read),
    /// `malformed, not read in full` (exit 3: broken or cut short; the records before were
    /// checked), `not checked: unknown format` (exit 4; or `unknown domain`, `unknown version`).
    static func verdict(_ report: DatasetReport) -> String {
        switch report.status {
        case .success: return "valid"
        case .malformedInput:
            return report.diagnostics.contains { $0.code == .unreadableInput } ? "unreadable" : "malformed, not read in full"
        case .unknown:
            let code = report.diagnostics.first { $0.exitStatus == .unknown }?.code.rawValue ?? "unknown-format"
            return "not checked: " + code.split(separator: "-").joined(separator: " ")
        default: return "invalid"
        }
    }
}
