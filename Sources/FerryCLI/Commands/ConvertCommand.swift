import Foundation
import FerryCore
import FerryPipeline

/// `ferry convert INPUT... [-o OUT] [--to FORMAT] [--to-version N]`.
struct ConvertCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "a bundle's createdAt and its members' times, or an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "convert",
        abstract: "Convert data between formats, and migrate it with --to-version.",
        discussion: """
            Output format: --to, else the extension of -o, else the input's format. -o ending in / (or an
            existing folder) writes a folder: one <collection>.csv per collection for CSV. No -o, or -o -,
            writes to standard output. Without --to-version the schema version is kept.
            A file of no known domain converts as plain records (schema-free), like Miller.
            The output is written to a temporary file and renamed into place only when complete: on an
            error nothing is written (--lenient writes the valid records) and the previous file stays.
            Standard output too is written only once the run succeeds (held in memory, past 16 MiB in
            $TMPDIR; --lenient: as records are written).
            An output that is an input, or that two inputs would write, is refused (exit 2) before anything is read.
            A folder that is not a bundle, an app Documents folder or a CSV folder of one dataset holds
            datasets: each file under it is converted on its own, and a folder output mirrors the tree.
            --csv-safe prefixes CSV cells that start with =, +, -, @, tab or CR with ' so spreadsheets do
            not run them as formulas (CSV injection).
            --skip, --limit and --sample count the records of each collection on its own, after --where and
            the migration; --select keeps the named fields of each record, and a selection that leaves
            out a required field writes schema-free records (Docs/selection.md).
            """,
        arguments: "INPUT...", argumentCount: 1...Int.max,
        options: [
            OptionSpec(["--output", "-o"], .single, value: "OUT", help: "Output file or folder (DIR/); - or none: standard output."),
            OptionSpec(["--to"], .single, value: "FORMAT", help: "Output format: json, jsonl, csv, xml, ..."),
            OptionSpec(["--to-version"], .single, value: "N", help: "Migrate to schema version N (no down-migration)."),
            OptionSpec(["--csv-safe"], help: "CSV output: prefix cells starting with = + - @ tab CR with ' (formula injection)."),
            OptionSpec(["--compact"], help: "JSON and XML documents: no indentation."),
            OptionSpec(["--where"], .single, value: "EXPR", help: "Keep records matching an NSPredicate-format filter: 'rating >= 4 AND title CONTAINS[c] \"pinot\"'; 'stories: ...' limits it to one collection."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in --where."),
            OptionSpec(["--map"], .single, value: "FILE", help: "A field mapping (JSON) that brings foreign records into a domain (Docs/mappings.md)."),
            OptionSpec(["--data-format"], .single, value: "FORMAT", help: "Format of the data files inside a bundle output (default json); with -o DIR/ it makes a bundle folder."),
        ] + SelectionOptions.specs + ConversionRunner.reportSpecs + CommonOptions.specs,
        exitCodes: ExitCodes.all)

    var request: ConversionRequest
    var runner: ConversionRunner

    init(_ arguments: ParsedArguments) throws {
        try self.init(arguments, action: .convert)
    }

    /// - Parameter limit: the record limit when `--limit` is absent (`ferry head`).
    init(_ arguments: ParsedArguments, action: ConversionRequest.Action, limit: Int? = nil) throws {
        var request = ConversionRequest(action: action, inputs: arguments.positionals)
        request.selection = try SelectionOptions.parse(arguments, limit: limit)
        let common = try CommonOptions(arguments, into: &request)
        runner = try ConversionRunner(common: common, arguments: arguments)
        request.output = arguments.value("output")
        if request.output == "" { throw UsageError("-o needs a file, a folder (DIR/) or - for standard output, not ''") }
        request.outputFormat = arguments.value("to")
        if let format = request.outputFormat { _ = try common.registry.outputFormat(named: format) }
        request.targetVersion = try arguments.integer("to-version", in: 1...Int.max)
        request.notesVersionAlreadyReached = request.targetVersion != nil
        request.write.csvSafe = arguments.flag("csv-safe")
        request.write.pretty = !arguments.flag("compact")
        request.filter = arguments.value("where")
        request.filterBeforeMigration = false
        request.variables = try VariableParsing.parse(arguments.values("var"))
        request.mapping = arguments.value("map")
        request.dataFormat = arguments.value("data-format")
        if let dataFormat = request.dataFormat, common.registry.format(named: dataFormat) == nil {
            throw FerryError(.unknownFormat, "unknown data format '\(dataFormat)'; `ferry formats` lists them")
        }
        // A data format is what a bundle holds: with a folder output (DIR/) it asks for a bundle folder.
        if request.dataFormat != nil, request.outputFormat == nil, let output = request.output, output != "-" {
            var isFolder: ObjCBool = false
            if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue) {
                request.outputFormat = common.registry.format(playing: .defaultBundle)?.name
            }
        }
        if (request.output == nil || request.output == "-"), action == .convert, runner.report != .text, runner.reportFile == nil {
            throw UsageError("--report \(runner.report.rawValue) with the data on standard output needs --report-file FILE")
        }
        self.request = request
    }

    func run() throws -> ExitStatus {
        try runner.run(request)
    }
}

/// `ferry migrate INPUT... --to-version N [-o OUT] [--dry-run]`.
struct MigrateCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "a bundle's createdAt and its members' times, or an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "migrate",
        abstract: "Migrate data to another schema version (V1 -> V2), keeping its format.",
        discussion: """
            Runs the migration plan of the data's domain (SCHEMAS.md): lossy steps are warnings (errors with
            --strict); --lenient fixes what can be fixed and reports it. --dry-run reads, migrates and
            validates, reports what would be written, and writes nothing. The output is complete or absent:
            a file is renamed into place when complete, and standard output is written once the run
            succeeds (held in memory, past 16 MiB in $TMPDIR; --lenient: as records are written).
            """,
        arguments: "INPUT...", argumentCount: 1...Int.max,
        options: [
            OptionSpec(["--to-version"], .single, value: "N", help: "The schema version to migrate to (required)."),
            OptionSpec(["--output", "-o"], .single, value: "OUT", help: "Output file or folder (DIR/); - or none: standard output."),
            OptionSpec(["--to"], .single, value: "FORMAT", help: "Output format; default: the input's."),
            OptionSpec(["--dry-run"], help: "Migrate and validate, write nothing."),
            OptionSpec(["--csv-safe"], help: "CSV output: prefix cells starting with = + - @ tab CR with '."),
            OptionSpec(["--compact"], help: "JSON and XML documents: no indentation."),
            OptionSpec(["--where"], .single, value: "EXPR", help: "Keep the migrated records matching an NSPredicate-format filter (on the new version's fields); 'stories: ...' limits it to one collection."),
            OptionSpec(["--var"], .repeating, value: "NAME=VALUE", help: "A value for $NAME in --where."),
            OptionSpec(["--data-format"], .single, value: "FORMAT", help: "Format of the data files inside a bundle output (default json); with -o DIR/ it makes a bundle folder."),
        // A migration needs a domain: schema-free records (and their CSV typing) have none.
        ] + SelectionOptions.specs + ConversionRunner.reportSpecs + CommonOptions.specs(excluding: ["schema-free", "infer-types"]),
        exitCodes: ExitCodes.all)

    var convert: ConvertCommand

    init(_ arguments: ParsedArguments) throws {
        guard arguments.value("to-version") != nil else { throw UsageError("migrate needs --to-version N") }
        convert = try ConvertCommand(arguments, action: arguments.flag("dry-run") ? .dryRun : .convert)
        convert.runner.command = "migrate"
    }

    func run() throws -> ExitStatus { try convert.run() }
}
