import FerryCore

/// The JSON Lines format (`jsonl`, also `.ndjson`): one JSON value per line, an optional header
/// line, `"$collection"` naming each record's collection. Read by `JSONLinesReader`, written by
/// `JSONLinesWriter`.
public enum JSONLinesFormat {
    /// Name `jsonl`, extensions `jsonl` and `ndjson`.
    public static let descriptor = FormatDescriptor(
        name: "jsonl", title: "JSON Lines", extensions: ["jsonl", "ndjson"],
        summary: "JSON Lines: a header line, then one record a line with \"$collection\"",
        roles: .comparisonForm, reader: Reader(), writer: Writer())

    /// Makes `JSONLinesReader`s.
    public struct Reader: FormatReader {
        public init() {}

        /// - Throws: `FerryError(.invalidEncoding)` when `options.encoding` names anything but UTF-8.
        public func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws
            -> any RecordReader
        {
            try JSONFormat.checkEncoding(options)
            return JSONLinesReader(source: source, options: options, log: log)
        }
    }

    /// Makes `JSONLinesWriter`s.
    public struct Writer: FormatWriter {
        public init() {}

        public func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
            JSONLinesWriter(sink: sink, options: options)
        }
    }
}
