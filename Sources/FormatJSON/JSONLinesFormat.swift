import FerryCore

/// The JSON Lines format (`jsonl`, also `.ndjson`): one JSON value per line, an optional header
/// line, `"$collection"` naming each record's collection. Read by `JSONLinesReader`, written by
/// `JSONLinesWriter`.
public enum JSONLinesFormat {
    /// Name `jsonl`, extensions `jsonl` and `ndjson`.
    public static let descriptor = FormatDescriptor(
        name: "jsonl", title: "JSON Lines", extensions: ["jsonl", "ndjson"],
        summary: "JSON Lines: a header line, then one record a line with \"$collection\"",
        roles: .comparisonForm, recognize: recognize, reader: Reader(), writer: Writer())

    /// A first line that closes the object it opens, and a next non-blank line that opens another.
    @Sendable static func recognize(_ head: InputHead) -> HeadMatch? {
        guard !head.isUTF16, head.firstNonBlank == UInt8(ascii: "{") else { return nil }
        let bytes = head.text[head.start...]
        var depth = 0
        var inString = false
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { break }
            } else if byte == 0x0A {
                return nil
            }
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        let rest = bytes[(index + 1)...]
        guard let newline = rest.firstIndex(of: 0x0A),
              rest[..<newline].allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }),
              rest[(newline + 1)...].first(where: { !InputHead.isBlank($0) }) == UInt8(ascii: "{")
        else { return nil }
        return .distinctive
    }

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
