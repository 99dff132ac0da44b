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
///
/// A line depends on its record alone, so `renderer` can make lines on other threads
/// (`--jobs`) and `writeRendered(_:)` writes them.
public final class JSONLinesWriter: PrerenderingWriter {
    private let sink: any ByteSink
    private var out: JSONSerializer
    private var finished = false

    private static let flushThreshold = 64 * 1024

    /// The smallest string value (UTF-8 bytes) `write(_:)` sends to the sink piece by piece
    /// rather than gathering its line whole; `renderer` leaves a record holding one to `write(_:)`
    /// (its range nil), and so does any renderer that means to make the same bytes in as little
    /// memory.
    public static let longStringThreshold = 64 * 1024

    /// - Parameters:
    ///   - sink: where the lines go.
    ///   - options: `header` for the header line (`pretty` is ignored: lines are always compact).
    public init(sink: any ByteSink, options: WriteOptions = WriteOptions()) {
        self.sink = sink
        self.out = JSONSerializer(pretty: false, capacity: Self.flushThreshold + 16 * 1024)
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
    ///   collection whose value is not an object (a line cannot name its collection then; its
    ///   cause `RecordLeftOut`: nothing of it was written);
    ///   `FerryError(.tooDeep)`; the sink's write errors.
    public func write(_ record: Record) throws {
        guard !finished else { throw FerryError(.internalError, "record written after the JSON Lines output was finished") }
        let mark = out.bytes.count
        // A long string goes to the sink piece by piece rather than gathered in `out` whole.
        out.longStringSink = sink
        out.uncheckedValue = record.value
        defer {
            out.longStringSink = nil
            out.uncheckedValue = nil
        }
        do {
            try Self.appendLine(collection: record.collection, value: record.value, location: record.location, to: &out)
        } catch {
            out.bytes.truncate(to: min(mark, out.bytes.count))
            throw error
        }
        if out.bytes.count >= Self.flushThreshold { try flushOut() }
    }

    /// Makes lines on any thread, exactly as `write(_:)` makes them; a record holding a string of
    /// `longStringThreshold` bytes or more gets no line (nil range), for `write(_:)` to stream.
    public var renderer: any RecordRenderer { Renderer() }

    /// Writes lines `renderer` made (one or more in a row).
    public func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !finished else { throw FerryError(.internalError, "record written after the JSON Lines output was finished") }
        if bytes.count >= Self.flushThreshold / 2 {
            // A batch's lines: straight to the sink after what is buffered, not copied first.
            try flushOut()
            return try sink.write(UnsafeRawBufferPointer(bytes))
        }
        out.bytes.append(bytes)
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
        try out.bytes.withBytes { try sink.write(UnsafeRawBufferPointer($0)) }
        out.bytes.removeAll()
    }

    /// Appends one line (its LF included). On a throw, `out` holds part of the line.
    fileprivate static func appendLine(
        collection: String?, value: Value, location: SourceLocation, to out: inout JSONSerializer
    ) throws {
        if let collection {
            guard case .object(let object) = value else {
                // Found before anything of the line is written: the record can be left out.
                throw FerryError(.error(
                    .invalidValue,
                    "a record of collection '\(collection)' that is a \(value.kindName), not an object, "
                        + "cannot carry \"$collection\" in JSON Lines",
                    at: location), cause: RecordLeftOut())
            }
            out.appendASCII("{\"$collection\":")
            out.appendString(collection)
            try object.members.withUnsafeBufferPointer { members in
                for index in members.indices where members[index].key != "$collection" {
                    out.bytes.append(JSONSyntax.comma)
                    out.appendKey(members[index].key)
                    try out.appendValue(members[index].value)
                }
            }
            out.bytes.append(JSONSyntax.closeBrace)
        } else {
            try out.appendValue(value)
        }
        out.bytes.append(JSONSyntax.newline)
    }

    /// Renders lines for `writeRendered(_:)`.
    private struct Renderer: RecordRenderer {
        func render(_ records: [(collection: String?, value: Value)]) -> RenderedRecords {
            var out = JSONSerializer(pretty: false, capacity: 1024 * max(records.count, 1))
            out.declinesLongStrings = true
            var ranges: [Range<Int>?] = []
            ranges.reserveCapacity(records.count)
            for record in records {
                let mark = out.bytes.count
                do {
                    try JSONLinesWriter.appendLine(
                        collection: record.collection, value: record.value, location: SourceLocation(), to: &out)
                    ranges.append(mark..<out.bytes.count)
                } catch {
                    out.bytes.truncate(to: mark)
                    ranges.append(nil)
                }
            }
            return RenderedRecords(bytes: out.bytes.array, ranges: ranges)
        }
    }
}
