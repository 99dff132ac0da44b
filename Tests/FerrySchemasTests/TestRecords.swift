import FerryCore
import FerrySchemas
import Foundation

/// A locator with fixed positions per relative pointer (the JSON reader's job in production).
struct TestLocator: FieldLocating {
    var positions: [String: TextPosition]
    func position(of field: JSONPointer) -> TextPosition? { positions[field.description] }
}

/// A hand-built record: file `in.json`, the record at `line`:3, and its fields at the given
/// line:column (relative pointers such as "/finish/length").
func makeRecord(
    _ collection: String?, _ index: Int, _ value: Value, line: Int = 2, documentID: String? = nil,
    fields: [String: (Int, Int)] = [:]
) -> Record {
    var positions: [String: TextPosition] = ["": TextPosition(line: line, column: 3)]
    for (pointer, position) in fields { positions[pointer] = TextPosition(line: position.0, column: position.1) }
    return Record(
        collection: collection, documentID: documentID, value: value,
        location: SourceLocation(file: "in.json", line: line, column: 3, collection: collection, recordIndex: index),
        locator: TestLocator(positions: positions))
}

/// Runs records through a processor; returns the output and every diagnostic as
/// "severity code line:column field".
func run(
    _ domain: Domain, from: Int, to: Int, _ records: [Record], mode: ProcessingMode = .normal,
    configure: (inout ProcessingOptions) -> Void = { _ in }
) throws -> (records: [Record], diagnostics: [String], log: DiagnosticLog) {
    var options = ProcessingOptions()
    options.mode = mode
    configure(&options)
    let log = DiagnosticLog()
    let processor = try DatasetProcessor(domain: domain, sourceVersion: from, targetVersion: to, options: options, log: log)
    var output: [Record] = []
    for record in records { output += processor.process(record) }
    processor.finish()
    return (output, log.diagnostics.map(summary), log)
}

/// "error out-of-range 4:5 /wineNotes/0/rating"
func summary(_ diagnostic: Diagnostic) -> String {
    let where_ = diagnostic.location.position.map { "\($0.line):\($0.column)" } ?? "-"
    return "\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) \(where_) \(diagnostic.location.field?.description ?? "-")"
}

/// Decodes one value as a model at `/collection/0` and returns the diagnostics' summaries.
func decode<M: SchemaModel>(_ type: M.Type, _ value: Value, collection: String = "c", options: DecodingOptions = DecodingOptions())
    -> (M, [String], [Diagnostic])
{
    let record = makeRecord(collection, 0, value)
    var diagnostics: [Diagnostic] = []
    let model = M(value: value, at: RecordContext(record: record, options: options), diagnostics: &diagnostics)
    return (model, diagnostics.map(summary), diagnostics)
}
