import FerryCore
import FerryPipeline
import FerrySchemas
import Foundation

/// The library's way to files: the command line's own `Converter` (the same detection, reading,
/// checks, diagnostics and atomic writing as `ferry convert`), with a JSON Lines file in a
/// `ScratchFolder` on the library's side.
enum FileConversion {
    /// Converts `input` to `output` and returns the warnings and notes.
    /// - Parameters:
    ///   - domain: the domain to read the input as; nil with `schemaFree` for plain records.
    ///   - version: the input's schema version; `targetVersion` the output's (nil: the same).
    ///   - hidden: a path of the library's own (a scratch file) that diagnostics must not name:
    ///     they keep their pointer and id, and lose the file, line and column.
    /// - Throws: `FerryError` with every diagnostic (`DiagnosticList`) when the conversion fails.
    static func run(
        input: String, output: String, inputFormat: String? = nil, outputFormat: String?, domain: Domain?,
        version: Int?, targetVersion: Int? = nil, schemaFree: Bool = false, options: ProcessingOptions = ProcessingOptions(),
        registry: FormatRegistry, hidden: String? = nil
    ) throws(FerryError) -> [Diagnostic] {
        var request = ConversionRequest(action: .convert, inputs: [input])
        request.output = output
        request.inputFormat = inputFormat
        request.outputFormat = outputFormat
        request.domain = domain
        request.sourceVersion = version
        request.targetVersion = targetVersion ?? version
        request.schemaFree = schemaFree
        request.processing = options
        let reports = Converter(registry: registry).run(request) { _ in }
        let diagnostics = reports.flatMap(\.diagnostics).map { hide(hidden, in: $0) }
        guard reports.allSatisfy({ $0.status == .success }) else { throw .failed(diagnostics) }
        return diagnostics
    }

    /// `diagnostic` without the file, member, line and column when it names `hidden`.
    static func hide(_ hidden: String?, in diagnostic: Diagnostic) -> Diagnostic {
        guard let hidden, diagnostic.location.file == hidden else { return diagnostic }
        var copy = diagnostic
        copy.location.file = nil
        copy.location.member = nil
        copy.location.position = nil
        return copy
    }

    /// The records of a JSON Lines file the library wrote, each located by collection and index
    /// only (the scratch file is no place to point a user at).
    static func readJSONLines(_ path: String, registry: FormatRegistry) throws(FerryError) -> (DatasetHeader, [Record]) {
        guard let reader = registry.format(named: "jsonl")?.reader else {
            throw FerryError(.unknownFormat, "the format registry has no jsonl reader")
        }
        let log = DiagnosticLog()
        do {
            let records = try reader.makeReader(FileDescriptorSource(path: path), options: ReadOptions(fileName: path), log: log)
            var result: [Record] = []
            var counts: [String: Int] = [:]
            while let record = try records.next() {
                let index = counts[record.collection ?? "", default: 0]
                counts[record.collection ?? ""] = index + 1
                result.append(Record(
                    collection: record.collection, documentID: record.documentID, value: record.value,
                    location: SourceLocation(collection: record.collection, recordIndex: index)))
            }
            guard log.errorCount == 0 else { throw FerryError.failed(log.diagnostics.map { hide(path, in: $0) }) }
            return (records.header, result)
        } catch {
            throw .wrapping(error)
        }
    }

    /// Writes `records` as a JSON Lines file with `header` first (the form `ferry convert --to
    /// jsonl` writes), collections named in canonical order.
    static func writeJSONLines(
        _ records: [Record], header: DatasetHeader, collections: [String], to path: String, registry: FormatRegistry
    ) throws(FerryError) {
        guard let format = registry.format(named: "jsonl")?.writer else {
            throw FerryError(.unknownFormat, "the format registry has no jsonl writer")
        }
        do {
            let file = try AtomicOutputFile(path: path)
            let writer = try format.makeWriter(
                file.sink, options: WriteOptions(header: header, collections: collections, fileName: path))
            for record in records { try writer.write(record) }
            try writer.finish()
            try file.commit()
        } catch {
            throw .wrapping(error)
        }
    }
}
