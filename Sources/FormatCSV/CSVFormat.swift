import FerryCore

/// The CSV adapter as the format registry lists it: name `csv`, extensions `csv` and `tsv`, one
/// collection per file (SCHEMAS.md "Formats: CSV"; `Docs/csv.md`).
public enum CSVFormat {
    /// The registry entry. Reading `.tsv` with no `--delimiter` still detects the delimiter from
    /// the header line; `CSVFormat.tsvDescriptor` fixes tab for reading and writing.
    public static let descriptor = FormatDescriptor(
        name: "csv", extensions: ["csv", "tsv"],
        summary: "RFC 4180 comma-separated values, one collection per file (tsv: tab-separated)",
        isSingleCollection: true, scalarsAreText: true, hasHeaderColumns: true, recognize: recognize,
        reader: CSVFormatReader(), writer: CSVFormatWriter())

    /// Any text, as the format taken when no other recognises the bytes; not a binary file's
    /// bytes: a NUL byte, which no text holds in an ASCII-compatible encoding (UTF-8, Latin-1,
    /// Windows-1252), says it is none (a photo, a doubly compressed file), unless the bytes are
    /// UTF-16 text (with its byte order mark, or a NUL in every other byte and none between).
    @Sendable static func recognize(_ head: InputHead) -> HeadMatch? {
        head.isUTF16 || !head.bytes.contains(0) || utf16ByteOrder(of: head.bytes[...]) != nil ? .fallback : nil
    }

    /// The byte order of UTF-16 text without a byte order mark, as its first 512 bytes show it:
    /// NULs at odd offsets and none at even ones, at least one pair in two (the high byte of
    /// Latin characters), is little endian (true); the reverse big endian (false); anything else
    /// is no UTF-16 text seen this way (nil).
    static func utf16ByteOrder(of bytes: ArraySlice<UInt8>) -> Bool? {
        let sample = bytes.prefix(512)
        guard sample.count >= 4 else { return nil }
        var even = 0, odd = 0
        for (offset, byte) in sample.enumerated() where byte == 0 {
            if offset % 2 == 0 { even += 1 } else { odd += 1 }
        }
        let pairs = sample.count / 2
        if even == 0 && odd * 2 >= pairs { return true }
        if odd == 0 && even * 2 >= pairs { return false }
        return nil
    }

    /// Tab-separated values: the same adapter with a tab delimiter on both sides.
    public static let tsvDescriptor = FormatDescriptor(
        name: "tsv", extensions: ["tsv"], summary: "tab-separated values, one collection per file",
        isSingleCollection: true, scalarsAreText: true, hasHeaderColumns: true, reader: CSVFormatReader(delimiter: CSVReader.tab),
        writer: CSVFormatWriter(delimiter: CSVReader.tab))

    /// The delimiter a file name implies: tab for `.tsv`, nil (detect / comma) otherwise.
    public static func delimiter(forPath path: String) -> UInt8? {
        path.lowercased().hasSuffix(".tsv") ? CSVReader.tab : nil
    }
}

/// Makes `CSVReader`s. `delimiter` (when set) is used unless the options give one.
public struct CSVFormatReader: FormatReader {
    /// The names `CSVEncoding(name:)` takes.
    public func knowsEncoding(_ name: String) -> Bool { CSVEncoding(name: name) != nil }

    public var delimiter: UInt8?

    public init(delimiter: UInt8? = nil) { self.delimiter = delimiter }

    /// Starts a `CSVReader`; for a `.tsv` `fileName` with no delimiter given, the delimiter is tab.
    /// - Throws: what `CSVReader.init` throws.
    public func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws -> any RecordReader {
        var options = options
        if options.delimiter == nil {
            options.delimiter = delimiter ?? options.fileName.flatMap(CSVFormat.delimiter(forPath:))
        }
        return try CSVReader(source, options: options, log: log)
    }
}

/// Makes `CSVWriter`s. `delimiter` (when set) replaces the options' one; a `.tsv` `fileName` means tab.
public struct CSVFormatWriter: FormatWriter {
    public var delimiter: UInt8?

    public init(delimiter: UInt8? = nil) { self.delimiter = delimiter }

    /// - Throws: what `CSVWriter.init` throws.
    public func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
        var options = options
        if let delimiter {
            options.delimiter = delimiter
        } else if let tab = options.fileName.flatMap(CSVFormat.delimiter(forPath:)) {
            options.delimiter = tab
        }
        return try CSVWriter(sink, options: options)
    }
}
