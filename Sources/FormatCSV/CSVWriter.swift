import FerryCore

/// Writes one collection as RFC 4180 CSV (SCHEMAS.md "Formats: CSV"; `Docs/csv.md`).
///
/// The header needs every record's shape (list columns as wide as the longest list), so records
/// are spooled to an unlinked temporary file and written at `finish()`: the first pass (as records
/// arrive) merges their shapes and spools each leaf's cell text already rendered, tagged with its
/// shape node; the second puts the cells in their columns and writes the rows.
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
    private let shape: Shape
    private var nodeCount = 1
    private var recordCount = 0
    /// The record being spooled: (node id, cell) pairs.
    private var encoded: [UInt8] = []

    /// Spooled cell tags: text follows, or the value had no CSV form (NaN), thrown at `finish()`
    /// where the rows are written, as a row in its place would have.
    private static let cellText: UInt8 = 0, cellInvalid: UInt8 = 1

    /// A merged shape: a node is a leaf when any record holds a scalar there, and has children in
    /// first-seen order (list elements keyed `1`, `2`, ...).
    private final class Shape {
        let id: Int
        var isLeaf = false
        var keys: [String] = []
        var children: [String: Shape] = [:]
        /// `children` in `keys` order, for the usual record whose members come in that order.
        var ordered: [Shape] = []
        /// Children by list index (the child named `String(index + 1)`).
        var indexed: [Shape] = []

        init(id: Int) { self.id = id }

        func child(_ key: String, nextID: inout Int) -> Shape {
            if let existing = children[key] { return existing }
            let node = Shape(id: nextID)
            nextID += 1
            children[key] = node
            keys.append(key)
            ordered.append(node)
            return node
        }

        /// The child named `key`, the member at `position` of its object.
        @inline(__always)
        func member(_ key: String, at position: Int, nextID: inout Int) -> Shape {
            if position < keys.count, keys[position] == key { return ordered[position] }
            return child(key, nextID: &nextID)
        }

        func element(_ index: Int, nextID: inout Int) -> Shape {
            if index < indexed.count { return indexed[index] }
            let node = child(String(index + 1), nextID: &nextID)
            if index == indexed.count { indexed.append(node) }
            return node
        }

        /// The leaves below this node in column order: names and node ids.
        func columns(prefix: String?, into out: inout [(name: String, id: Int)]) {
            if isLeaf, let prefix { out.append((prefix, id)) }
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
        self.shape = Shape(id: 0)
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
        encoded.removeAll(keepingCapacity: true)
        var nextID = nodeCount
        spoolLeaves(record.value, node: shape, nextID: &nextID, into: &encoded)
        nodeCount = nextID
        try spool.appendRaw(encoded)
        recordCount += 1
    }

    /// Merges `value` into the shape below `node` and spools its leaves in flattening order
    /// (`CSVFlattening.flatten`): members in order, list elements in order.
    private func spoolLeaves(_ value: Value, node: Shape, nextID: inout Int, into out: inout [UInt8]) {
        switch value {
        case .object(let object):
            for (position, member) in object.members.enumerated() {
                spoolLeaves(member.value, node: node.member(member.key, at: position, nextID: &nextID), nextID: &nextID, into: &out)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                spoolLeaves(element, node: node.element(index, nextID: &nextID), nextID: &nextID, into: &out)
            }
        default:
            node.isLeaf = true
            CSVSpool.putVarint(UInt64(node.id), into: &out)
            let lengthAt = out.count
            out.append(Self.cellText)
            out.append(contentsOf: [0, 0, 0, 0])  // the cell's length, filled in below
            let start = out.count
            if !appendCell(value, into: &out) {
                // The number as the error message will name it.
                out.removeSubrange(start...)
                out[lengthAt] = Self.cellInvalid
                if case .double(let d) = value { out.append(contentsOf: "\(d)".utf8) }
            }
            let length = UInt32(truncatingIfNeeded: out.count - start)
            withUnsafeBytes(of: length.littleEndian) { raw in
                for k in 0..<4 { out[lengthAt + 1 + k] = raw[k] }
            }
        }
    }

    /// Writes the header and every spooled row, then flushes the sink.
    /// - Throws: `FerryError(.invalidValue)` for a NaN or infinite double; `.outputUnwritable`.
    public func finish() throws {
        var leaves: [(name: String, id: Int)] = []
        shape.columns(prefix: nil, into: &leaves)
        guard recordCount > 0, !leaves.isEmpty else {
            try sink.flush()
            return
        }
        let names = leaves.map(\.name)
        // A name that appears twice (a key holding a dot next to a nested key) fills its first column.
        var columnOf: [String: Int] = [:]
        for (index, name) in names.enumerated() where columnOf[name] == nil { columnOf[name] = index }
        var columnOfNode = [Int](repeating: -1, count: nodeCount)
        for leaf in leaves { columnOfNode[leaf.id] = columnOf[leaf.name] ?? -1 }
        var line: [UInt8] = []
        for (index, name) in names.enumerated() {
            if index > 0 { line.append(options.delimiter) }
            appendText(name, into: &line)
        }
        line.append(contentsOf: [0x0D, 0x0A])
        try sink.write(line)
        try spool.rewind()
        // Per column: where its cell's text lies in the spooled record (start, length), or the
        // invalid mark (length -1); (0, 0) for an empty cell.
        var starts = [Int](repeating: 0, count: names.count)
        var lengths = [Int](repeating: 0, count: names.count)
        var invalid = [Bool](repeating: false, count: names.count)
        var recordIndex = 0
        while try spool.nextRaw({ bytes in
            for k in 0..<lengths.count {
                lengths[k] = 0
                invalid[k] = false
            }
            var i = 0
            while i < bytes.count {
                let id = Int(CSVSpool.readVarint(bytes, &i))
                let tag = bytes[i]
                var length = 0
                for k in 0..<4 { length |= Int(bytes[i + 1 + k]) << (8 * k) }
                i += 5
                let column = id < columnOfNode.count ? columnOfNode[id] : -1
                if column >= 0 {
                    starts[column] = i
                    lengths[column] = length
                    invalid[column] = tag == Self.cellInvalid
                }
                i += length
            }
            line.removeAll(keepingCapacity: true)
            for column in 0..<names.count {
                if column > 0 { line.append(options.delimiter) }
                let length = lengths[column]
                guard length > 0 || invalid[column] else { continue }
                let text = UnsafeBufferPointer(rebasing: bytes[starts[column]..<(starts[column] + length)])
                if invalid[column] {
                    throw FerryError(.invalidValue, "\(String(decoding: text, as: UTF8.self)) has no CSV form (record \(recordIndex), column \(names[column]))",
                                     at: SourceLocation(file: options.fileName, recordIndex: recordIndex))
                }
                line.append(contentsOf: text)
            }
        }) {
            line.append(contentsOf: [0x0D, 0x0A])
            try sink.write(line)
            recordIndex += 1
        }
        try sink.flush()
    }

    /// Appends a cell's text; false for a double without a CSV form (NaN, infinity).
    private func appendCell(_ value: Value, into out: inout [UInt8]) -> Bool {
        switch value {
        case .null, .object, .array:
            return true
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i):
            out.append(contentsOf: String(i).utf8)
        case .double(let d):
            guard let text = NumberText.ecmaScript(d) else { return false }
            out.append(contentsOf: text.utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .string(let text):
            appendText(text, into: &out)
        }
        return true
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
