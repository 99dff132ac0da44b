import FerryCore
import FerryPipeline
import FerrySchemas

/// The library's way to files: the command line's own `Converter` (the same detection, reading,
/// checks, diagnostics and atomic writing as `ferry convert`), handed the library's records and
/// handing it back the records it reads.
enum FileConversion {
    /// Writes `input`'s records to `output` as `ferry convert` writes a file's, and returns the
    /// warnings and notes.
    /// - Parameters:
    ///   - output: a file, or a folder (ending in `/`: one file a collection, a bundle folder).
    ///   - format: the output format's name; nil takes it from `output`'s extension.
    ///   - domain: the records' domain; nil with `schemaFree` for plain records.
    ///   - version: the records' schema version.
    /// - Throws: `FerryError` with every diagnostic (`DiagnosticList`) when the conversion fails;
    ///   `unknown-format` when neither `format` nor the extension names one. The records' own
    ///   diagnostics name no file: the pointer and the id say where.
    static func write(
        _ input: RecordsInput, to output: String, format: String?, domain: Domain?, version: Int?,
        schemaFree: Bool = false, registry: FormatRegistry
    ) throws(FerryError) -> [Diagnostic] {
        var request = ConversionRequest(action: .convert, inputs: ["-"])
        request.records = input
        request.output = output
        request.outputFormat = format
        request.domain = domain
        request.sourceVersion = version
        request.targetVersion = version
        request.schemaFree = schemaFree
        let reports = Converter(registry: registry).run(request) { _ in }
        let diagnostics = reports.flatMap(\.diagnostics).map(withoutFile)
        guard reports.allSatisfy({ $0.status == .success }) else { throw .failed(diagnostics) }
        return diagnostics
    }

    /// `diagnostic` without the file, member, line and column of the records in memory, which
    /// the converter reads as standard input.
    private static func withoutFile(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.location.file == "-" else { return diagnostic }
        var copy = diagnostic
        copy.location.file = nil
        copy.location.member = nil
        copy.location.position = nil
        return copy
    }

    /// Reads `input` as `ferry validate` would and hands `body` every record the run keeps, in
    /// input order, each a canonical value of `domain` (or a plain record for `schemaFree`) at its
    /// place in the input (file, line, column).
    /// - Returns: the warnings and notes of reading.
    /// - Throws: `FerryError` with every diagnostic (`DiagnosticList`) when the input has an
    ///   error, or what `body` throws (the rest of the input is then still read, unseen).
    static func read(
        _ input: String, format: String?, domain: Domain?, version: Int?, schemaFree: Bool = false,
        options: ProcessingOptions = ProcessingOptions(), registry: FormatRegistry,
        body: @escaping (Record) throws -> Void
    ) throws(FerryError) -> [Diagnostic] {
        // A run that writes nothing, as `ferry stats` profiles: its observer sees what a
        // conversion would write, after the checks (and records held for their references).
        var request = ConversionRequest(action: .dryRun, inputs: [input])
        request.inputFormat = format
        request.domain = domain
        request.sourceVersion = version
        request.targetVersion = version
        request.schemaFree = schemaFree
        request.processing = options
        let observer = RecordObserver(body)
        request.recordObserver = { observer.see($0) }
        let datasets = DatasetInputs.expand([input]).datasets
        if datasets.count > 1 {
            let examples = datasets.prefix(2).map { DiagnosticText.quoted($0.path) }.joined(separator: ", ")
            throw FerryError(.usage, "\(DiagnosticText.quoted(input)) holds \(datasets.count) datasets (\(examples)\(datasets.count > 2 ? ", ..." : "")): read each on its own",
                             at: SourceLocation(file: input))
        }
        let reports = Converter(registry: registry).run(request) { _ in }
        if let failure = observer.failure { throw .wrapping(failure) }
        var diagnostics = reports.flatMap(\.diagnostics)
        for report in reports where !report.mediaOutsideRecords.isEmpty {
            // Memory holds the records, not the media files of a bundle: say so, as a conversion
            // to a plain data file does (an error under `.strict`).
            let media = report.mediaOutsideRecords.sorted()
            let examples = media.prefix(2).joined(separator: ", ") + (media.count > 2 ? ", ..." : "")
            let message = "\(media.count) media file\(media.count == 1 ? "" : "s") (\(examples)) are not read into memory: "
                + "the records keep their paths, and a write leaves the files out"
            diagnostics.append(Diagnostic(options.mode == .strict ? .error : .warning, .lossyDrop, message,
                                          at: SourceLocation(file: report.input)))
        }
        guard reports.allSatisfy({ $0.status == .success }), !diagnostics.contains(where: { $0.severity == .error }) else {
            throw .failed(diagnostics)
        }
        return diagnostics
    }
}

/// Hands a run's records to the library's closure, on the converter's calling thread (the one
/// that called `Converter.run`), keeping the first error it throws.
private final class RecordObserver: @unchecked Sendable {
    private let body: (Record) throws -> Void
    private(set) var failure: (any Error)?

    init(_ body: @escaping (Record) throws -> Void) { self.body = body }

    func see(_ record: Record) {
        guard failure == nil else { return }
        do { try body(record) } catch { failure = error }
    }
}
