import FerryCore
import FerryPipeline
import FerrySchemas
import Foundation

/// `ferry inspect INPUT [--json]`: format, domain, version, collections, counts and, for a bundle
/// or folder, its media (files, bytes, by kind, missing, orphans).
struct InspectCommand: FerryCommand {
    static let configuration = CommandConfiguration(
        name: "inspect",
        abstract: "Describe an input: format, domain and version (or schema-free), collections, counts and media.",
        discussion: "Reads the whole input; problems are counted, not printed (run `ferry validate` for them).\n"
            + "A folder of datasets (not a bundle, Documents or CSV folder) is described file by file; a file of no\n"
            + "data format under it is named in a note on standard error.",
        arguments: "INPUT", argumentCount: 1...1,
        // Inspect prints no diagnostics, summary or progress, writes nothing and migrates nothing:
        // the options about those, --lenient, --strict and the schema-free CSV typing (no count
        // changes) do nothing here. Problems in the data are counted, not a failure: no exit 1.
        options: [OptionSpec(["--json"], help: "Print the description as JSON.")]
            + CommonOptions.specs(excluding: ["lenient", "strict", "infer-types", "max-errors", "quiet", "verbose"]),
        exitCodes: [.success, .usage, .malformedInput, .unknown, .outputUnwritable, .internalError])

    var request: ConversionRequest
    var json: Bool
    var common: CommonOptions

    init(_ arguments: ParsedArguments) throws {
        var request = ConversionRequest(action: .validate, inputs: arguments.positionals)
        common = try CommonOptions(arguments, into: &request)
        json = arguments.flag("json")
        self.request = request
    }

    /// Describes each dataset of the input (every data file of a folder of datasets, in order,
    /// separated by a blank line; as a JSON array with --json when there are several).
    /// - Returns: the worst status of a dataset that could not be read; data errors are counted only.
    func run() throws -> ExitStatus {
        let reports = Converter(registry: common.registry).run(request, report: { _ in })
        guard !reports.isEmpty else { return .internalError }
        // Files of no data format under a folder of datasets are named, as validate names them:
        // notes, not problems, so they are printed when problems are not.
        for (folder, file) in DatasetInputs.expansion(of: request.inputs, ignoring: request.ignoredFiles, registry: common.registry).skipped {
            StandardError.write(DatasetInputs.ignoredNote(file, in: folder).description + "\n")
        }
        var status = ExitStatus.success
        var described: [String] = []
        for report in reports {
            // So are the files of an app Documents folder that are not its data (a stray notes.json).
            for note in report.diagnostics where note.severity == .note && note.message.hasPrefix("not part of the dataset, ignored: ") {
                StandardError.write(note.description + "\n")
            }
            if let fatal = report.diagnostics.first(where: { $0.severity == .error && $0.exitStatus > .invalidData }) {
                StandardError.write(fatal.description + "\n")
                status = max(status, fatal.exitStatus)
                continue
            }
            described.append(json ? Self.json(report) : Self.text(report))
        }
        if json && reports.count > 1 {
            let items = described.map { "  " + $0.dropLast().replacingOccurrences(of: "\n", with: "\n  ") }
            StandardOutput.write("[\n" + items.joined(separator: ",\n") + "\n]\n")
        } else {
            StandardOutput.write(described.joined(separator: "\n"))
        }
        return status
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
        out += "\nproblems:    \(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), "
            + "\(report.warningCount) warning\(report.warningCount == 1 ? "" : "s")\n"
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
        out += "  \"records\": \(report.recordCount),\n  \"recordsRead\": \(report.recordsRead),\n  \"errors\": \(report.errorCount),\n  \"warnings\": \(report.warningCount)\n}\n"
        return out
    }
}
