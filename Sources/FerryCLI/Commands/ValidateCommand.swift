import FerryCore
import FerryFormats
import FerryPipeline
import Foundation

/// `ferry validate INPUT... [--report text|json|junit|github] [--report-file F] [--max-errors N]`.
struct ValidateCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "validate",
        abstract: "Check data against its schema: types, required fields, ranges, enums, ids, references.",
        discussion: """
            Every problem is reported, not the first only, compiler-style on standard error:
              FILE:LINE:COL: error: MESSAGE [code]
            --report json|junit|github also writes a machine-readable report to standard output (or to
            --report-file). Data of no known domain is checked for well-formedness only.
            """ + "\n\n" + FerryMain.exitCodesHelp,
        arguments: "INPUT...", argumentCount: 1...Int.max,
        options: [
            OptionSpec(["--report"], .single, value: "FORMAT", help: "Report format: text (default), json, junit, github."),
            OptionSpec(["--report-file"], .single, value: "FILE", help: "Write the report to FILE instead of standard output."),
        ] + CommonOptions.specs)

    var request: ConversionRequest
    var common: CommonOptions
    var report: ReportFormat
    var reportFile: String?

    init(_ arguments: ParsedArguments) throws {
        var request = ConversionRequest(action: .validate, inputs: arguments.positionals)
        common = try CommonOptions(arguments, into: &request)
        let name = arguments.value("report") ?? "text"
        guard let report = ReportFormat(rawValue: name) else {
            throw UsageError("unknown report format '\(name)'; use text, json, junit or github")
        }
        self.report = report
        reportFile = arguments.value("report-file")
        self.request = request
    }

    func run() throws -> ExitStatus {
        let printer = DiagnosticPrinter(limit: common.maxErrors, quiet: common.quiet)
        let verbose = common.verbose
        let progress = ProgressBar.make(quiet: common.quiet)
        defer { progress?.finish() }
        let reports = Converter(registry: common.registry, progress: progress?.meter).run(request) { diagnostic in
            if diagnostic.severity == .note && !verbose && diagnostic.location.file == nil { return }
            printer.print(diagnostic)
        }
        progress?.finish()
        printer.finish()
        if report != .text || reportFile != nil {
            let text = report.render(reports)
            if let reportFile {
                let file = try AtomicOutputFile(path: reportFile)
                try file.sink.write(text)
                try file.commit()
            } else {
                StandardOutput.write(text)
            }
        }
        if !common.quiet {
            for report in reports { StandardError.write(Summary.line(for: report, action: .validate) + "\n") }
        }
        return reports.map(\.status).max() ?? .success
    }
}
