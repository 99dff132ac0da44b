import FerryCore
import FerryPipeline
import Foundation

/// `ferry diff OLD NEW [--report text|json|html] [--as json-patch] [--ignore PTR]... [--where EXPR]`.
struct DiffCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "diff",
        abstract: "Compare two datasets by id: records added, removed and changed; media by SHA-256.",
        discussion: """
            OLD and NEW may be in any formats and versions: the older is migrated to the newer's version
            (a lossy step is reported as a warning) and both are compared in the canonical form
            `ferry convert --to json` writes. Records pair by id per collection (schema-free records by
            their `id` field when every record has a distinct one, else by position); each change names
            the field's JSON Pointer in the record, its old and its new value. Media files are compared
            by SHA-256: added, removed, changed, or renamed when the same bytes moved to another path.
            Output (standard output): readable text (coloured on a terminal unless NO_COLOR is set),
            --report json, --report html (one self-contained page: Docs/reports.md), or --as json-patch,
            an RFC 6902 patch turning OLD's canonical JSON at the compared version into NEW's (records
            only: media files are no part of a JSON document; a note says so when a side has them).
            --ignore takes a JSON Pointer from the dataset root where * stands for any one token
            (/words/*/studyState); it may repeat. --where compares only the records it keeps.
            An input with invalid records is not compared: a line says so, and the exit status is 1.
            See Docs/diff.md.
            """,
        arguments: "OLD NEW", argumentCount: 2...2,
        options: [
            OptionSpec(["--report"], .single, value: "FORMAT", help: "text (default), json or html."),
            OptionSpec(["--as"], .single, value: "FORM", help: "json-patch: print an RFC 6902 patch from OLD to NEW instead of a report."),
            OptionSpec(["--ignore"], .repeating, value: "PTR", help: "Leave out fields matching a JSON Pointer pattern (/words/*/studyState); repeatable."),
            OptionSpec(["--where"], .single, value: "EXPR", help: "Compare only records matching an NSPredicate-format filter (Docs/filters.md)."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in --where."),
                // Nothing is written: --lenient compares the valid records of an input with invalid ones.
        ] + CommonOptions.specs(help: ["lenient": "Compare the valid records of an input that has invalid ones; fix what migration can."]),
        exitCodes: ExitCodes.all,
        exitMeanings: [
            .success: "the same (warnings allowed)",
            .invalidData: "different, or an input with invalid records (then nothing is compared)",
        ])

    enum Output {
        case text, json, html, patch
    }

    var request: DiffRequest
    var output: Output
    var common: CommonOptions

    init(_ arguments: ParsedArguments) throws {
        var reading = ConversionRequest(action: .dryRun, inputs: arguments.positionals)
        common = try CommonOptions(arguments, into: &reading)
        reading.variables = try VariableParsing.parse(arguments.values("var"))
        switch (arguments.value("report"), arguments.value("as")) {
        case (nil, nil), ("text", nil): output = .text
        case ("json", nil): output = .json
        case ("html", nil): output = .html
        case (nil, "json-patch"): output = .patch
        case (let report?, nil): throw UsageError("unknown report format '\(report)'; diff writes text, json or html")
        case (nil, let form?): throw UsageError("unknown form '\(form)'; diff writes --as json-patch")
        case (_?, _?): throw UsageError("--report and --as exclude each other: a patch is the whole output")
        }
        for pattern in arguments.values("ignore") where !pattern.hasPrefix("/") {
            throw UsageError("--ignore takes a JSON Pointer from the dataset root, such as /words/*/studyState, not '\(pattern)'")
        }
        let positionals = arguments.positionals
        request = DiffRequest(old: positionals[0], new: positionals[1], reading: reading, filter: arguments.value("where"),
                              ignore: DiffIgnore(arguments.values("ignore")), canonicalJSON: output == .patch)
    }

    func run() throws -> ExitStatus {
        let printer = DiagnosticPrinter(limit: common.maxErrors, quiet: common.quiet)
        let verbose = common.verbose
        let sink = FileDescriptorSink(descriptor: 1, name: "-")
        let reporter: any DiffReporter = switch output {
        case .text:
            DiffTextReporter(sink: sink, color: isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        case .json: DiffJSONReporter(sink: sink)
        case .html: HTMLDiffReporter(sink: sink)
        case .patch: JSONPatchReporter(sink: sink)
        }
        let quiet = common.quiet
        let remark: @Sendable (String) -> Void = { text in if !quiet { StandardError.write("ferry diff: " + text + "\n") } }
        let status = try DatasetDiffer(registry: common.registry).run(request, reporter: reporter, remark: remark) { diagnostic in
            // Reading both sides says what a conversion says; its notes only with --verbose.
            if diagnostic.severity == .note && !verbose { return }
            printer.print(diagnostic)
        }
        printer.finish()
        return status
    }
}
