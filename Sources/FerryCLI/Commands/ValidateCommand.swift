import FerryCore
import FerryPipeline

/// `ferry validate INPUT... [--report text|json|junit|github|html] [--report-file F] [--max-errors N]`.
struct ValidateCommand: FerryCommand {
    static let sourceDateEpochStamps: String? = "an HTML report's date"
    static let configuration = CommandConfiguration(
        name: "validate",
        abstract: "Check data against its schema: types, required fields, ranges, enums, ids, references.",
        discussion: """
            Every problem is reported, not the first only, compiler-style on standard error:
              FILE:LINE:COL: error: MESSAGE [code]
            --report json|junit|github also writes a machine-readable report to standard output (or to
            --report-file); --report html writes one self-contained page with a code frame per problem
            (Docs/reports.md). Data of no known domain is checked for well-formedness only.
            """,
        arguments: "INPUT...", argumentCount: 1...Int.max,
        // Validation writes nothing, so --lenient has nothing to keep; it migrates nothing, so no
        // lossy step for --strict to make an error (what a V1 record's migration would reject is
        // checked without it); typing schema-free CSV cells changes no verdict (and would mistype
        // a domain's text cells).
        options: ConversionRunner.reportSpecs + CommonOptions.specs(excluding: ["lenient", "strict", "infer-types"]),
        exitCodes: ExitCodes.all, exitMeanings: [.invalidData: "invalid data"])

    var request: ConversionRequest
    var runner: ConversionRunner

    init(_ arguments: ParsedArguments) throws {
        var request = ConversionRequest(action: .validate, inputs: arguments.positionals)
        let common = try CommonOptions(arguments, into: &request)
        runner = try ConversionRunner(common: common, arguments: arguments)
        runner.command = "validate"
        self.request = request
    }

    func run() throws -> ExitStatus {
        try runner.run(request)
    }
}
