import FerryCore

/// Writes one collection as RFC 4180 CSV (SCHEMAS.md "Formats: CSV"; `Docs/csv.md`).
///
/// The header needs every record's shape (list columns as wide as the longest list), so records
/// are spooled to an unlinked temporary file and written at `finish()`: the first pass (as records
/// arrive) merges their shapes, the second writes the rows.
///
/// - Header: Miller's flattened names (`look.tint`, `tastes.1.label`, 1-based); column order from
///   the merged shape: object keys in first-seen order, lists widened to their longest, so
///   `tastes.2.*` follows `tastes.1.*`.
/// - Cells: booleans `true` / `false`; `.integer` digits; `.double` in the ECMAScript form
///   (`NumberText.ecmaScript`); `.number` text verbatim; strings quoted only when they hold the
///   delimiter, `"`, CR or LF, with `""` for a quote (RFC 4180 section 2.6, 2.7); an empty string is
///   `""` so it differs from an absent value, which (like `.null`) is an empty unquoted cell.
/// - Rows end with CRLF (RFC 4180 section 2.1). No records: nothing is written.
/// - `options.csvSafe`: string cells and header names starting with `=`, `+`, `-`, `@`, tab or CR get
///   a `'` in front (OWASP "CSV Injection"); numbers and booleans are left alone.
public final class CSVWriter: RecordWriter {
    private let sink: any ByteSink
    private let options: WriteOptions
    private let spool: CSVSpool
    private let shape = Shape()
    private var recordCount = 0

    /// A merged shape: a node is a leaf when any record holds a scalar there, and has children in
    /// first-seen order (list elements keyed `1`, `2`, ...).
    private final class Shape {
        var isLeaf = false
        var keys: [String] = []
        var children: [String: Shape] = [:]

        func child(_ key: String) -> Shape {
            if let existing = children[key] { return existing }
            let node = Shape()
            children[key] = node
            keys.append(key)
            return node
        }

        func merge(_ value: Value) {
            switch value {
            case .object(let object):
                for member in object.members { child(member.key).merge(member.value) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { child(String(index + 1)).merge(element) }
            default:
                isLeaf = true
            }
        }

        func columns(prefix: String?, into out: inout [String]) {
            if isLeaf, let prefix { out.append(prefix) }
            for key in keys {
                guard let node = children[key] else { continue }
                node.columns(prefix: prefix.map { $0 + "." + key } ?? key, into: &out)
            }
        }
    }

    /// - Throws: `FerryError(.outputUnwritable)` when the temporary spool file cannot be created.
    public init(_ sink: any ByteSink, options: WriteOptions = WriteOptions()) throws {
        self.sink = sink
        self.options = options
        self.spool = try CSVSpool()
    }

    /// Spools one record. Its value must be an object (or a list, written as columns `1`, `2`, ...).
    /// - Throws: `FerryError(.invalidValue)` for a scalar record; `.outputUnwritable` when spooling fails.
    public func write(_ record: Record) throws {
        switch record.value {
        case .object, .array: break
        default:
            throw FerryError(.invalidValue, "a CSV row needs an object record, not a \(record.value.kindName)",
                             at: record.location)
        }
        shape.merge(record.value)
        try spool.append(record.value)
        recordCount += 1
    }

    /// Writes the header and every spooled row, then flushes the sink.
    /// - Throws: `FerryError(.invalidValue)` for a NaN or infinite double; `.outputUnwritable`.
    public func finish() throws {
        var names: [String] = []
        shape.columns(prefix: nil, into: &names)
        guard recordCount > 0, !names.isEmpty else {
            try sink.flush()
            return
        }
        var columnOf: [String: Int] = [:]
        for (index, name) in names.enumerated() where columnOf[name] == nil { columnOf[name] = index }
        var line: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { line.append(options.delimiter) }
            appendText(name, into: &line)
        }
        line.append(contentsOf: [0x0D, 0x0A])
        try sink.write(line)
        try spool.rewind()
        var cells = [Value?](repeating: nil, count: names.count)
        var recordIndex = 0
        while let value = try spool.next() {
            for k in cells.indices { cells[k] = nil }
            for (name, leaf) in CSVFlattening.flatten(value) {
                if let column = columnOf[name] { cells[column] = leaf }
            }
            line.removeAll(keepingCapacity: true)
            for (index, cell) in cells.enumerated() {
                if index > 0 { line.append(options.delimiter) }
                try appendCell(cell, into: &line, record: recordIndex, column: names[index])
            }
            line.append(contentsOf: [0x0D, 0x0A])
            try sink.write(line)
            recordIndex += 1
        }
        try sink.flush()
    }

    private func appendCell(_ value: Value?, into out: inout [UInt8], record: Int, column: String) throws {
        switch value {
        case nil, .null?, .object?, .array?:
            return
        case .bool(let b)?:
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i)?:
            out.append(contentsOf: String(i).utf8)
        case .double(let d)?:
            guard let text = NumberText.ecmaScript(d) else {
                throw FerryError(.invalidValue, "\(d) has no CSV form (record \(record), column \(column))",
                                 at: SourceLocation(file: options.fileName, recordIndex: record))
            }
            out.append(contentsOf: text.utf8)
        case .number(let text)?:
            out.append(contentsOf: text.utf8)
        case .string(let text)?:
            appendText(text, into: &out)
        }
    }

    /// Appends a string cell: `""` when empty, the csv-safe prefix when asked, quoted when needed.
    private func appendText(_ text: String, into out: inout [UInt8]) {
        let utf8 = text.utf8
        guard let first = utf8.first else {
            out.append(contentsOf: [0x22, 0x22])
            return
        }
        let prefix = options.csvSafe && (first == UInt8(ascii: "=") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: "-") || first == UInt8(ascii: "@") || first == 0x09 || first == 0x0D)
        let delimiter = options.delimiter
        let needsQuotes = utf8.contains { $0 == delimiter || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
        if needsQuotes { out.append(0x22) }
        if prefix { out.append(UInt8(ascii: "'")) }
        if needsQuotes {
            for b in utf8 {
                out.append(b)
                if b == 0x22 { out.append(0x22) }
            }
            out.append(0x22)
        } else {
            out.append(contentsOf: utf8)
        }
    }
}
