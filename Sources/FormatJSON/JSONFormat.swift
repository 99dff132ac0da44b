import FerryCore

/// The JSON document format (`json`): one RFC 8259 document, usually the envelope of SCHEMAS.md
/// "Formats: JSON document". Read by `JSONDocumentReader`, written by `JSONDocumentWriter`.
public enum JSONFormat {
    /// Name `json`, extension `json`.
    public static let descriptor = FormatDescriptor(
        name: "json", extensions: ["json"],
        summary: "JSON document: an envelope {\"domain\", \"schemaVersion\", \"<collection>\": [...]}, an array or a value",
        roles: .defaultBundleData, recognize: recognize, reader: Reader(), writer: Writer())

    /// `{` or `[` first (a JSON Lines input starts with `{` too, and is surer of it), or blank text.
    @Sendable static func recognize(_ head: InputHead) -> HeadMatch? {
        guard !head.isUTF16 else { return nil }
        // Blank text is an empty JSON document, which the reader reports as one.
        guard let first = head.firstNonBlank else { return .plausible }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .plausible : nil
    }

    /// Makes `JSONDocumentReader`s.
    public struct Reader: FormatReader {
        public init() {}

        /// - Throws: `FerryError(.invalidEncoding)` when `options.encoding` names anything but UTF-8.
        public func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws
            -> any RecordReader
        {
            try checkEncoding(options)
            return JSONDocumentReader(source: source, options: options)
        }
    }

    /// Makes `JSONDocumentWriter`s.
    public struct Writer: FormatWriter {
        public init() {}

        public func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
            JSONDocumentWriter(sink: sink, options: options)
        }
    }

    /// JSON is read as UTF-8 only (RFC 8259 section 8.1): `--encoding` may only say so.
    static func checkEncoding(_ options: ReadOptions) throws {
        guard let encoding = options.encoding?.lowercased() else { return }
        guard encoding == "utf-8" || encoding == "utf8" else {
            throw FerryError(
                .invalidEncoding, "JSON is read as UTF-8 only (RFC 8259 section 8.1), not \(encoding)",
                at: options.inputLocation)
        }
    }
}
