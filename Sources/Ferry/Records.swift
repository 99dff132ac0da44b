import FerryCore
import FerrySchemas
import Foundation

/// Records of any shape, for data no built-in domain describes: a domain of your own declared
/// with `FieldCodable` models (Docs/library.md "A domain of your own"). Read them, decode and
/// check each with `FieldCodable.decode(_:diagnostics:)`, migrate with your own code, write any
/// format.
public struct Records: Sendable {
    /// The records in input order, each with its collection and its location in the input.
    public var records: [Record]
    /// The problems met while reading (a bad JSON Lines line or CSV row is reported and skipped).
    public var diagnostics: [Diagnostic]
    /// True when the input's format gives every scalar as text (CSV, XML): decode with
    /// `DecodingOptions(scalarsAsText: true)` so `"4.5"` reads as a number.
    public var scalarsAreText: Bool

    /// Records to write.
    public init(_ records: [Record], diagnostics: [Diagnostic] = [], scalarsAreText: Bool = false) {
        self.records = records
        self.diagnostics = diagnostics
        self.scalarsAreText = scalarsAreText
    }

    /// Records made from models, each in the model type's collection, indexed in it.
    public init<Model: CollectionModel>(models: [Model]) {
        self.init(models.enumerated().map { index, model in
            Record(collection: Model.collection, value: model.value,
                   location: SourceLocation(collection: Model.collection, recordIndex: index))
        })
    }

    /// Reads a file as plain records. A file of a stream format (JSON, JSON Lines, CSV, XML) is
    /// read by its adapter directly, so each record keeps its file, line and column and finds its
    /// fields' positions; a bundle (tar, zip or folder) or a compressed file is read by the
    /// command line's converter, each record located in its file or member.
    /// - Parameters:
    ///   - format: the format's name when the extension does not tell (`csv`).
    ///   - collection: the collection of records that name none (a CSV file, a top-level array).
    /// - Throws: `FerryError` when the input cannot be read at all (`unknown-format`,
    ///   `unreadable-input`, a broken JSON document); bad lines and rows are in `diagnostics`.
    public static func read(
        _ url: URL, format: String? = nil, collection: String? = nil, registry: FormatRegistry = Ferry.formats
    ) throws(FerryError) -> Records {
        let path = url.path
        let descriptor = format.flatMap { registry.format(named: $0) } ?? registry.format(forPath: path)
        if let format, descriptor == nil {
            throw FerryError(.unknownFormat, "unknown format \(quoted: format)")
        }
        guard let descriptor, !descriptor.isContainer, let reader = descriptor.reader else {
            return try readConverted(path, format: format, registry: registry)
        }
        let log = DiagnosticLog()
        do {
            let records = try reader.makeReader(
                FileDescriptorSource(path: path), options: ReadOptions(fileName: path, collection: collection), log: log)
            var result: [Record] = []
            while let record = try records.next() { result.append(record) }
            return Records(result, diagnostics: log.diagnostics, scalarsAreText: descriptor.scalarsAreText)
        } catch {
            throw .wrapping(error)
        }
    }

    /// A container or compressed input, read by the command line's converter.
    private static func readConverted(_ path: String, format: String?, registry: FormatRegistry) throws(FerryError)
        -> Records
    {
        var records: [Record] = []
        let diagnostics = try FileConversion.read(path, format: format, domain: nil, version: nil, schemaFree: true,
                                                  registry: registry) { records.append($0) }
        // A bundle of CSV or XML members gives text scalars, as such a file does.
        return Records(records, diagnostics: diagnostics, scalarsAreText: !records.isEmpty && records.allSatisfy(\.scalarsAreText))
    }

    /// Writes the records, complete or not at all, in any format the command line writes: by
    /// `format`, else by the name's extension (a URL ending in `/` is a folder output).
    /// - Parameters:
    ///   - collections: the collections in the order writers emit them (others follow as met).
    ///   - recordTypeNames: each collection's record type (`readingEntries` -> `ReadingEntry`),
    ///     the element name XML gives each record.
    /// - Returns: the warnings and notes of writing.
    /// - Throws: `FerryError` (`output-unwritable`, `unknown-format`, a value the format cannot hold).
    @discardableResult
    public func write(
        to url: URL, format: String? = nil, collections: [String] = [], registry: FormatRegistry = Ferry.formats
    ) throws(FerryError) -> [Diagnostic] {
        let output = url.hasDirectoryPath && !url.path.hasSuffix("/") ? url.path + "/" : url.path
        return try FileConversion.write(RecordsInput(records, collections: collections), to: output, format: format,
                                        domain: nil, version: nil, schemaFree: true, registry: registry)
    }
}

extension FieldCodable {
    /// Decodes and checks one record as this model: every rule its `recordType` declares (types,
    /// required fields, ranges, steps, enumerations) and its own `check`s, each problem a
    /// diagnostic at the field's pointer with the record's file, line and column.
    /// - Parameters:
    ///   - options: `DecodingOptions(scalarsAsText: true)` for records read from CSV or XML.
    ///   - diagnostics: receives the problems, in field order.
    /// - Returns: the model, or nil when the record has an error.
    public static func decode(
        _ record: Record, options: DecodingOptions = DecodingOptions(), diagnostics: inout [Diagnostic]
    ) -> Self? {
        var found: [Diagnostic] = []
        let model = Self(value: record.value, at: RecordContext(record: record, options: options), diagnostics: &found)
        diagnostics += found
        return found.contains { $0.severity == .error } ? nil : model
    }
}

extension FieldCodable {
    /// Decodes and checks a bare value as this model (a record of no file: diagnostics name the
    /// field by its pointer only).
    /// - Throws: `FerryError` with every problem (`diagnostics`) when the value has an error.
    public init(validating value: Value, options: DecodingOptions = DecodingOptions()) throws(FerryError) {
        var diagnostics: [Diagnostic] = []
        let record = Record(collection: nil, value: value, location: SourceLocation())
        guard let model = Self.decode(record, options: options, diagnostics: &diagnostics) else {
            throw .failed(diagnostics)
        }
        self = model
    }
}
