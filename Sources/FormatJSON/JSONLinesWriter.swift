import FerryCore

/// Writes records as JSON Lines (SCHEMAS.md "Formats: JSON Lines"), streaming.
///
/// - When `options.header.domain` is set, the first line is the header, written exactly like
///   Python's `json.dumps` default: `{"domain": "notes", "schemaVersion": 2}` (`schemaVersion`
///   only when set).
/// - Then one compact line per record (no whitespace, like `separators=(",", ":")`), with
///   `"$collection"` as the first key when the record has a collection. A `$collection` member
///   already in the value is not written twice.
/// - Every line ends with LF. `documentID` is not written.
public final class JSONLinesWriter: RecordWriter {
    private let sink: any ByteSink
    private var out: JSONSerializer
    private var finished = false

    private static let flushThreshold = 64 * 1024

    /// - Parameters:
    ///   - sink: where the lines go.
    ///   - options: `header` for the header line (`pretty` is ignored: lines are always compact).
    public init(sink: any ByteSink, options: WriteOptions = WriteOptions()) {
        self.sink = sink
        self.out = JSONSerializer(pretty: false)
        if let domain = options.header.domain {
            out.appendASCII("{\"domain\": ")
            out.appendString(domain)
            if let version = options.header.schemaVersion {
                out.appendASCII(", \"schemaVersion\": ")
                out.appendInteger(Int64(version))
            }
            out.bytes.append(JSONSyntax.closeBrace)
            out.bytes.append(JSONSyntax.newline)
        }
    }

    /// Writes one record as one line.
    /// - Throws: `FerryError(.invalidValue)` for NaN or infinity, and for a record with a
    ///   collection whose value is not an object (a line cannot name its collection then);
    ///   `FerryError(.tooDeep)`; the sink's write errors.
    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "record written after the JSON Lines output was finished") }
        let mark = out.bytes.count
        do {
            if let collection = record.collection {
                guard case .object(let object) = record.value else {
                    throw FerryError(
                        .invalidValue,
                        "a record of collection '\(collection)' that is a \(record.value.kindName), not an object, "
                            + "cannot carry \"$collection\" in JSON Lines",
                        at: record.location)
                }
                out.appendASCII("{\"$collection\":")
                out.appendString(collection)
                for member in object.members where member.key != "$collection" {
                    out.bytes.append(JSONSyntax.comma)
                    out.appendKey(member.key)
                    try out.appendValue(member.value)
                }
                out.bytes.append(JSONSyntax.closeBrace)
            } else {
                try out.appendValue(record.value)
            }
        } catch {
            out.bytes.removeSubrange(mark...)
            throw error
        }
        out.bytes.append(JSONSyntax.newline)
        if out.bytes.count >= Self.flushThreshold { try flushOut() }
    }

    /// Writes out what is buffered and flushes the sink.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try flushOut()
        try sink.flush()
    }

    private func flushOut() throws {
        guard !out.bytes.isEmpty else { return }
        try sink.write(out.bytes)
        out.bytes.removeAll(keepingCapacity: true)
    }
}
