import FerryCore
import FerrySchemas

/// What a run learnt of an input's media by the time its records are read: which records read
/// and which written referenced each file, and why records were left out (`OutputMedia`).
struct MediaOutcome {
    /// The media the records read referenced (invalid ones included).
    var read: MediaReferences
    /// The media the records written reference.
    var written: MediaReferences
    /// Media of external-storage fields, put back into their records and written again from them.
    var inlined: Set<String>
    /// For a bundle output of an input with media, the records left out and why; nil otherwise.
    var dropped: OutputMedia?
    /// Whether media no record read referenced are carried over (`OutputMedia.plan`).
    var carriesOrphans: Bool
}

extension Converter {
    /// Finishes the output once every record is read: a bundle gets the input's media its written
    /// records reference (and the input's orphans when the whole dataset is written), with a note
    /// for each file left out because its records are; a plain output, which holds no media
    /// file, gets a `lossy-drop` warning saying so (an error under `--strict`).
    /// - Returns: false when `--strict` refused that loss and the output was discarded.
    func commit(_ router: OutputRouter?, media: MediaOutcome, source: DatasetSource, request: ConversionRequest, input: String,
                log: DiagnosticLog, into result: inout DatasetReport) throws -> Bool
    {
        // Media of external-storage fields were inlined and are written again from the records
        // (under the new collection's folder after a migration); the others are copied.
        let copied = source.media.filter { !media.inlined.contains($0.key) }
        result.mediaOutsideRecords = Array(copied.keys)
        if let router, !router.carriesMedia, !copied.isEmpty, !request.mediaAccountedFor {
            let examples = copied.keys.sorted().prefix(2).joined(separator: ", ")
            let message = "\(copied.count) media file\(copied.count == 1 ? "" : "s") (\(examples)\(copied.count > 2 ? ", ..." : "")) "
                + "cannot go into a plain data file and are left out; the records keep their paths. Write a bundle (-o NAME.tar, or --to tar -o DIR/) to keep them"
            log.report(Diagnostic(request.processing.mode == .strict ? .error : .warning, .lossyDrop, message,
                                  at: SourceLocation(file: input)))
            if request.processing.mode == .strict {
                router.discard()
                return false
            }
        }
        var only: Set<String>? = nil
        if let dropped = media.dropped {
            let plan = dropped.plan(media: copied, read: media.read, written: media.written, carriesOrphans: media.carriesOrphans,
                                    input: input)
            log.report(contentsOf: plan.notes)
            only = plan.copied
        }
        try router?.commit(media: source.bundle.map { ($0, copied, only) })
        return true
    }
}
