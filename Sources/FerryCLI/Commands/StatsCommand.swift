import FerryCore
import FerryPipeline
import Foundation

/// `ferry stats INPUT [--report json|html]`: per collection and field, counts, distinct values, ranges
/// and most frequent values, in one pass and bounded memory (Docs/stats.md).
struct StatsCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Profile an input: per collection and field, counts, distinct values, ranges, frequent values; media.",
        discussion: """
            Reads the input once, as convert would (its domain's rules, --where, --map, --to-version), and
            counts the records it would write: per field (a JSON Pointer, * for list items) the values
            present, null and missing, their kinds, distinct values (exact up to 100000, then a HyperLogLog
            estimate within about 0.8%), smallest and largest number or RFC 3339 instant, string lengths,
            list lengths, and the 5 most frequent values of fields holding short strings or Booleans.
            Records with errors are left out (their diagnostics are printed; exit 1); --schema-free counts
            every record as written. A folder of datasets is profiled file by file. --report html writes one
            self-contained page with inline SVG charts (Docs/reports.md).
            """,
        arguments: "INPUT", argumentCount: 1...1,
        options: [
            OptionSpec(["--report"], .single, value: "FORMAT", help: "text (default: a table per collection), json, or html (a page with charts)."),
            OptionSpec(["--report-file"], .single, value: "FILE", help: "Write the statistics to FILE, complete or not at all, instead of standard output."),
            OptionSpec(["--where"], .single, value: "EXPR", help: "Count only records matching an NSPredicate-format filter."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in --where."),
            OptionSpec(["--map"], .single, value: "FILE", help: "A field mapping (JSON) that brings foreign records into a domain (Docs/mappings.md)."),
            OptionSpec(["--to-version"], .single, value: "N", help: "Count the records as migrated to schema version N."),
                // Nothing is written: --lenient counts the records a migration (--to-version) can fix.
        ] + CommonOptions.specs(help: ["lenient": "Fix what migration (--to-version) can and count those records too."]),
        exitCodes: ExitCodes.all)

    var request: ConversionRequest
    var common: CommonOptions
    var report: String
    /// `--report-file`: where the statistics go; nil is standard output.
    var reportFile: String?

    init(_ arguments: ParsedArguments) throws {
        var request = ConversionRequest(action: .dryRun, inputs: arguments.positionals)
        common = try CommonOptions(arguments, into: &request)
        report = arguments.value("report") ?? "text"
        guard ["text", "json", "html"].contains(report) else {
            throw UsageError("unknown report format '\(report)' for stats; use text, json or html")
        }
        request.targetVersion = try arguments.integer("to-version", in: 1...Int.max)
        request.filter = arguments.value("where")
        request.variables = try VariableParsing.parse(arguments.values("var"))
        request.mapping = arguments.value("map")
        reportFile = try ConversionRunner.reportFile(arguments)
        request.reportFile = reportFile
        // Not one of a folder input's datasets on the next run (`ConversionRunner.run`).
        if let reportFile { request.ignoredFiles.insert(InputExpander.standardized(reportFile)) }
        // Diagnostics are printed as found; the statistics read only each input's status.
        request.keepsDiagnostic = ConversionRunner.keepsForSummary
        self.request = request
    }

    /// Profiles each dataset of the input and writes the statistics to standard output or the
    /// report file.
    /// - Returns: the worst status of the datasets (1 when records were invalid and left out).
    /// - Throws: `FerryError(.usage)` before anything is read when the report file would replace
    ///   the input; `output-unwritable` when it cannot be written.
    func run() throws -> ExitStatus {
        try Converter(registry: common.registry).checkOutputs(request)
        let printer = DiagnosticPrinter(limit: common.maxErrors, quiet: common.quiet)
        let verbose = common.verbose
        var results: [DatasetStatistics] = []
        var status = ExitStatus.success
        let expansion = DatasetInputs.expansion(of: request.inputs, ignoring: request.ignoredFiles, registry: common.registry)
        // Each dataset is profiled on its own: the files of no dataset are named here, as
        // `convert` and `validate` name them.
        for (folder, file) in expansion.skipped { printer.print(DatasetInputs.ignoredNote(file, in: folder)) }
        for dataset in expansion.datasets {
            var one = request
            one.inputs = [dataset.path]
            let collector = StatisticsCollector()
            one.recordObserver = { collector.add($0) }
            let reports = Converter(registry: common.registry).run(one) { diagnostic in
                if diagnostic.severity == .note && !verbose && diagnostic.code == .assumption && diagnostic.location.file == nil { return }
                printer.print(diagnostic)
            }
            for report in reports {
                status = max(status, report.status)
                // An input that could not be read has nothing to profile.
                if report.status > .invalidData { continue }
                results.append(DatasetStatistics(report: report, collections: collector.collections))
            }
        }
        printer.finish()
        // Nothing profiled (no input could be read): no report, and a report file is left as it was.
        if results.isEmpty && status > .invalidData { return status }
        let text: String
        if report == "html" {
            text = HTMLStatsReport.render(results)
        } else if report == "json" {
            let documents = results.map { StatsFormatter.json($0) }
            if documents.count == 1 {
                text = documents[0]
            } else if !documents.isEmpty {
                let items = documents.map { "  " + $0.dropLast().replacingOccurrences(of: "\n", with: "\n  ") }
                text = "[\n" + items.joined(separator: ",\n") + "\n]\n"
            } else {
                text = ""
            }
        } else {
            text = results.map { StatsFormatter.text($0) }.joined(separator: "\n")
        }
        try ConversionRunner.write(text, to: reportFile)
        return status
    }
}
