import FerryCore
import FormatBundle

/// A single compressed data file (`notes.jsonl.gz`, `words.csv.xz`, `dataset.xml.zst`) whose
/// stream may stop early: its decompressor ends quietly at the stop, so the file's reader reads
/// the bytes before it as the same plain file cut there (with one job or several, every record
/// whole in them kept; a CSV row with no line break after it dropped, `ByteSource.endsAtCut`).
/// What the reader then says of its own end (a record, element or document left open) only
/// repeats the stop and is not reported (`echoes`); the stop is said once, after the records,
/// in the stream's words (`truncated gzip input at byte offset N of the decompressed data`).
/// The same mechanism as a tar cut inside a member (`BundleRecordReader`).
final class CutCompressedInput: @unchecked Sendable {
    // @unchecked: used on the calling thread only (the reader's log reports there; batch items
    // are taken there), the decompressor included.
    private let source: any DecompressingSource
    private let file: String
    /// True once the stop was handed out as the reading's failure.
    private(set) var reported = false

    /// Watches `source` (made to end quietly at its stop) of the input `file`.
    init(_ source: any DecompressingSource, file: String) {
        source.endQuietlyAtStop()
        self.source = source
        self.file = file
    }

    /// True for what the reader says of the end of the bytes before the stop: malformed input
    /// on the line of their last byte or past it, or with no line. False while the stream has
    /// not stopped.
    func echoes(_ diagnostic: Diagnostic) -> Bool {
        guard let stop = source.stop, source.endsAtCut else { return false }
        return BundleReader.echoesCut(diagnostic, lastLine: stop.lastLine)
    }

    /// True for an error thrown by the reader that `echoes` the stop.
    func echoes(_ error: any Error) -> Bool {
        guard let error = error as? FerryError else { return false }
        return echoes(error.diagnostic)
    }

    /// The stop's error, once, when the stream stopped early; nil otherwise (or once given).
    func takeStop() -> FerryError? {
        guard !reported, let stop = source.stop, source.endsAtCut else { return nil }
        reported = true
        return stop.error(file: file)
    }

    /// A log that passes what `log` should hear from the reader: all but the echoes of the stop.
    func filtering(_ log: DiagnosticLog) -> DiagnosticLog {
        DiagnosticLog(onReport: { [self] diagnostic in
            if !echoes(diagnostic) { log.report(diagnostic) }
        })
    }
}

/// The batches of a cut compressed file's reader (`CutCompressedInput`): its items with the
/// echoes of the stop left out, and a failure that echoes it replaced by the stop.
final class CutCompressedBatchReader: BatchRecordReader {
    let inner: any BatchRecordReader
    private let cut: CutCompressedInput

    init(_ inner: any BatchRecordReader, cut: CutCompressedInput) {
        self.inner = inner
        self.cut = cut
    }

    var header: DatasetHeader { inner.header }
    var recordsNameCollections: Bool { inner.recordsNameCollections }
    var takesRawRecords: Bool { inner.takesRawRecords }

    func next() throws -> Record? { try inner.next() }

    func nextBatch(limit: Int) throws -> (any RecordBatch)? { try inner.nextBatch(limit: limit) }

    func items(from batch: any RecordBatch) -> [RecordBatchItem] {
        var items = inner.items(from: batch)
        items.removeAll { item in
            if case .problem(let diagnostic) = item { return cut.echoes(diagnostic) }
            return false
        }
        if case .failure(let error)? = items.last, cut.echoes(error) {
            items.removeLast()
            if let stop = cut.takeStop() { items.append(.failure(stop)) }
        }
        return items
    }
}
