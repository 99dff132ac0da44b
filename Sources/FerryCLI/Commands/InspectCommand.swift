import FerryCore
import FerryFormats
import FerryPipeline

/// `ferry inspect INPUT [--json]`: format, domain, version, collections, counts and, for a bundle
/// or folder, its media (files, bytes, by kind, missing, orphans).
struct InspectCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Describe an input: format, domain and version (or schema-free), collections, counts and media.",
        discussion: "Reads the whole input; problems are counted, not printed (run `ferry validate` for them).\n\n"
            + FerryMain.exitCodesHelp,
        arguments: "INPUT", argumentCount: 1...1,
        options: [OptionSpec(["--json"], help: "Print the description as JSON.")] + CommonOptions.specs)

    var request: ConversionRequest
    var json: Bool
    var common: CommonOptions

    init(_ arguments: ParsedArguments) throws {
        var request = ConversionRequest(action: .validate, inputs: arguments.positionals)
        common = try CommonOptions(arguments, into: &request)
        json = arguments.flag("json")
        self.request = request
    }

    func run() throws -> ExitStatus {
        guard let report = Converter(registry: common.registry).run(request, report: { _ in }).first else { return .internalError }
        if let fatal = report.diagnostics.first(where: { $0.severity == .error && $0.exitStatus > .invalidData }) {
            StandardError.write(fatal.description + "\n")
            return fatal.exitStatus
        }
        // A tar (or a folder with `data/`) that is not a bundle has nothing to describe: the input
        // is malformed for inspect, whatever validate counts it as.
        if let notBundle = report.diagnostics.first(where: { $0.severity == .error && $0.code == .missingManifest }) {
            StandardError.write(notBundle.description + "\n")
            return .malformedInput
        }
        StandardOutput.write(json ? Self.json(report) : Self.text(report))
        return .success
    }

    private static func text(_ report: DatasetReport) -> String {
        var out = "input:       \(report.input)\nformat:      \(report.format)\n"
        if let domain = report.domain {
            out += "domain:      \(domain.rawValue)\nversion:     \(report.sourceVersion.map(String.init) ?? "?")\n"
        } else {
            out += "domain:      none (schema-free records)\n"
        }
        out += "collections:\n"
        for collection in report.collections {
            out += "  \(collection.name.isEmpty ? "(records)" : collection.name): \(collection.count)\n"
        }
        if let media = report.media?.counting(report.diagnostics) {
            let kinds = media.byKind.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")
            out += "media:       \(media.count) file\(media.count == 1 ? "" : "s"), \(media.bytes) bytes (\(kinds)); "
                + "\(media.missing) missing, \(media.orphans) orphan\(media.orphans == 1 ? "" : "s")\n"
        }
        out += "records:     \(report.recordCount)"
        // Records read can be fewer than records out (a Firestore document holds its sub-collections):
        // only say it when records were lost to errors.
        if report.recordsRead > report.recordCount { out += " valid of \(report.recordsRead) read" }
        out += "\nproblems:    \(report.errorCount) errors, \(report.warningCount) warnings\n"
        return out
    }

    private static func json(_ report: DatasetReport) -> String {
        var out = "{\n  \"input\": \(ReportFormat.quote(report.input)),\n  \"format\": \(ReportFormat.quote(report.format)),\n"
        out += "  \"schemaFree\": \(report.domain == nil),\n"
        out += "  \"domain\": \(report.domain.map { ReportFormat.quote($0.rawValue) } ?? "null"),\n"
        out += "  \"schemaVersion\": \(report.sourceVersion.map(String.init) ?? "null"),\n  \"collections\": {"
        out += report.collections.map { "\n    \(ReportFormat.quote($0.name)): \($0.count)" }.joined(separator: ",")
        out += report.collections.isEmpty ? "},\n" : "\n  },\n"
        if let media = report.media?.counting(report.diagnostics) {
            out += "  \"media\": {\n    \"files\": \(media.count),\n    \"bytes\": \(media.bytes),\n    \"byKind\": {"
            out += media.byKind.map { "\(ReportFormat.quote($0.kind)): \($0.count)" }.joined(separator: ", ")
            out += "},\n    \"missing\": \(media.missing),\n    \"orphans\": \(media.orphans)\n  },\n"
        } else {
            out += "  \"media\": null,\n"
        }
        out += "  \"records\": \(report.recordCount),\n  \"errors\": \(report.errorCount),\n  \"warnings\": \(report.warningCount)\n}\n"
        return out
    }
}
