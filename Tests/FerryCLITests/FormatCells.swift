import FerryTestSupport
import Foundation
import Testing

/// The (domain, format) cells a CLI test of one small dataset runs over: every domain, in each
/// format a JSON document converts to (a CSV folder, a tar bundle).
enum FormatCells {
    static let formats = ["json", "jsonl", "csv", "xml", "tar"]
    static let all: [(String, String)] = GeneratedDocuments.domains.flatMap { domain in formats.map { (domain, $0) } }

    /// The error lines of a run that reports `problems` (pointer and message, the CSV column it
    /// names, what follows: id and code) at `positions` ("line:column") of `file`; the column is
    /// named where `format` is CSV.
    static func errorLines(_ problems: [(String, String, String)], at positions: [String], of file: String,
                           format: String) -> [String] {
        zip(problems, positions).map { problem, position in
            let column = format == "csv" ? " (column '\(problem.1)')" : ""
            return "\(file):\(position): error: \(problem.0)\(column) \(problem.2)"
        }
    }
}

extension Sandbox {
    /// Writes `document` (a JSON dataset) as `source.json` and makes the input of `format` from
    /// it: `in.json` (the same bytes), the CSV folder `in/`, or `in.<format>` (a bundle's data in
    /// `dataFormat` when given). Returns the name to give ferry.
    func input(_ document: String, as format: String, dataFormat: String? = nil,
               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        try write("source.json", document)
        if format == "json" {
            try write("in.json", document)
            return "in.json"
        }
        let name = format == "csv" ? "in/" : "in.\(format)"
        let data = dataFormat.map { ["--data-format", $0] } ?? []
        let made = try ferry(["convert", "source.json", "--to", format, "-o", name, "--schema-free", "--quiet"] + data)
        #expect(made.status == 0, sourceLocation: sourceLocation)
        return name
    }
}
