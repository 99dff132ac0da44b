import CLibXML2
import FerryCore

/// The XML format (SCHEMAS.md "Formats", Docs/xml.md): name `xml`, extension `.xml`.
public enum XMLFormat {
    /// The registry entry. Its writer names record elements after `WriteOptions.recordTypeNames`
    /// (the domain's record types), else `record`.
    public static let descriptor = FormatDescriptor(
        name: "xml", extensions: ["xml"],
        summary: "XML: <dataset> with an element per collection and per record (libxml2, no entities, no network)",
        scalarsAreText: true, recognize: recognize, reader: XMLFormatReader(), writer: XMLFormatWriter())

    /// `<` first; in UTF-16 text (which declares itself in its XML declaration), a `<` anywhere.
    @Sendable static func recognize(_ head: InputHead) -> HeadMatch? {
        if head.isUTF16 { return head.text.contains(UInt8(ascii: "<")) ? .distinctive : nil }
        return head.firstNonBlank == UInt8(ascii: "<") ? .distinctive : nil
    }
}

/// Makes `XMLRecordReader`s.
public struct XMLFormatReader: FormatReader {
    /// UTF-8 and the encodings libxml2 converts from (its own and iconv's: `ISO-8859-2`,
    /// `Shift_JIS`, ...), as `--encoding` forces them on the parser.
    public func knowsEncoding(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "utf-8" || lower == "utf8" { return true }
        guard let handler = xmlFindCharEncodingHandler(name) else { return false }
        xmlCharEncCloseFunc(handler)
        return true
    }

    public init() {}

    /// - Throws: `FerryError(.invalidEncoding)` for an unknown `options.encoding`, or a read failure.
    public func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws -> any RecordReader {
        try XMLRecordReader(source, options: options, log: log)
    }
}

/// Makes `XMLRecordWriter`s.
public struct XMLFormatWriter: FormatWriter {
    /// The record element name per collection (`wineTastingNotes` -> `WineTastingNote`, SCHEMAS.md
    /// record types); collections not named get `record`.
    public var recordNames: [String: String]

    public init(recordNames: [String: String] = [:]) {
        self.recordNames = recordNames
    }

    /// Names from `options.recordTypeNames` come first, then this writer's own `recordNames`.
    /// - Throws: `FerryError(.usage)` when a record name is not an XML name.
    public func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
        let names = recordNames.merging(options.recordTypeNames) { _, fromOptions in fromOptions }
        return try XMLRecordWriter(sink, options: options, recordNames: names)
    }
}
