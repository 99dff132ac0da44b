import FerryCore
import FerrySchemas
import FormatJSON

/// A declarative field mapping (`--map FILE.json`, or a pipeline `map` step) that brings foreign
/// records (a CSV export of another app) into one collection of a domain. Its format is
/// documented in `Docs/mappings.md`.
public struct FieldMapping: Sendable {
    /// The target domain and schema version.
    public var domain: Domain
    public var schemaVersion: Int
    /// The target collection of every mapped record.
    public var collection: String
    /// Target fields in order, each with its rule.
    public var fields: [(name: String, rule: FieldRule)]
    /// Constant records written before the mapped ones, per collection (the word book the words belong to).
    public var records: [(collection: String, values: [Value])]
    /// Cell texts read as absent (`NA`).
    public var nullTokens: Set<String>
    /// Trim white space around every cell (default true).
    public var trim: Bool
    /// IANA time zone of dates without a time (default UTC).
    public var timeZone: String
    /// The mapping file, for locations.
    public var path: String
    /// Finds an entry's line and column in the mapping file, for diagnostics about it.
    var locator: JSONFieldLocator?

    /// Every source column some rule reads.
    var usedColumns: Set<String> { Set(fields.flatMap(\.rule.columns)) }

    /// Reads a mapping file.
    /// - Throws: `FerryError(.usage)` naming the JSON Pointer of the member at fault, or the JSON
    ///   reader's error for a malformed file.
    public static func load(_ path: String) throws -> FieldMapping {
        let bytes = try FileDescriptorSource(path: path).readAll(limit: 16 << 20)
        let value = try JSONText.parse(bytes, options: ReadOptions(fileName: path))
        var mapping = try MappingParser(path: path).parse(value)
        mapping.locator = JSONFieldLocator(bytes: bytes, start: TextPosition(line: 1, column: 1))
        return mapping
    }
}
