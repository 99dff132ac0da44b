import FerryCore
import FerryFormats
import FerryPipeline

/// Runs a conversion request and prints what happened: diagnostics as they come, then one
/// summary line per input on standard error.
struct ConversionRunner {
    var common: CommonOptions

    func run(_ request: ConversionRequest) throws -> ExitStatus {
        let printer = DiagnosticPrinter(limit: common.maxErrors, quiet: common.quiet)
        let verbose = common.verbose
        let reports = Converter(registry: common.registry).run(request) { diagnostic in
            if diagnostic.severity == .note && !verbose && diagnostic.code == .assumption && diagnostic.location.file == nil { return }
            printer.print(diagnostic)
        }
        printer.finish()
        if !common.quiet {
            for report in reports { StandardError.write(Summary.line(for: report, action: request.action) + "\n") }
        }
        return reports.map(\.status).max() ?? .success
    }
}

/// One-line summaries of what a run did.
enum Summary {
    static func line(for report: DatasetReport, action: ConversionRequest.Action) -> String {
        var text = report.input + ":"
        if let domain = report.domain {
            text += " \(domain.rawValue) v\(report.sourceVersion.map(String.init) ?? "?")"
            if let target = report.targetVersion, target != report.sourceVersion { text += " -> v\(target)" }
        } else if !report.format.isEmpty {
            text += " schema-free \(report.format)"
        }
        let counts = report.collections.map { "\($0.name.isEmpty ? "records" : $0.name) \($0.count)" }.joined(separator: ", ")
        if !counts.isEmpty { text += ": " + counts }
        text += " (\(report.recordCount) record\(report.recordCount == 1 ? "" : "s")"
        text += ", \(report.errorCount) error\(report.errorCount == 1 ? "" : "s")"
        text += ", \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s"))"
        switch action {
        case .convert:
            if let output = report.output { text += " -> " + (output == "-" ? "standard output" : output) } else { text += "; nothing written" }
        case .dryRun:
            text += "; dry run, nothing written"
        case .validate:
            text += report.status == .success ? "; valid" : "; invalid"
        }
        return text
    }
}
