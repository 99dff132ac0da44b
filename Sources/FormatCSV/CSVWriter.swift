#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// Writes one collection as RFC 4180 CSV (SCHEMAS.md "Formats: CSV"; `Docs/csv.md`).
///
/// The header needs every record's shape (list columns as wide as the longest list), so records
/// are spooled to an unlinked temporary file and written at `finish()`: the first pass (as records
/// arrive) merges their shapes and spools each leaf's cell bytes already rendered (quoted, escaped),
/// tagged with its shape node; the second puts the cells in their columns and writes the rows.
///
/// - Header: Miller's flattened names (`look.tint`, `tastes.1.label`, 1-based); column order from
///   the merged shape: object keys in first-seen order, lists widened to their longest, so
///   `tastes.2.*` follows `tastes.1.*`.
/// - Cells: booleans `true` / `false`; `.integer` digits; `.double` in the ECMAScript form
///   (`NumberText.ecmaScript`); `.number` text verbatim; strings quoted only when they hold the
///   delimiter, `"`, CR or LF, with `""` for a quote (RFC 4180 section 2.6, 2.7); an empty string is
///   `""` so it differs from an absent value, which (like `.null`) is an empty unquoted cell.
/// - Rows end with CRLF (RFC 4180 section 2.1). No records: nothing is written.
/// - Several collections (records naming more than one `Record.collection`): the first column is
///   `$collection`, naming each row's collection, as JSON Lines records carry `"$collection"`. Each
///   collection has a shape of its own; the header is `$collection`, then the columns of each
///   collection in turn (those of `options.collections` in that order, then the others in the order
///   first met), each name once: a name two collections share is one column. A row's cells of
///   columns its collection lacks are empty (absent). One collection writes no `$collection` column.
/// - `options.csvSafe`: string cells and header names starting with `=`, `+`, `-`, `@`, tab or CR get
///   a `'` in front (OWASP "CSV Injection"); numbers and booleans are left alone.
///
/// A record can also come as a leaf stream made ahead, on another thread, with its cells already
/// encoded (`writeLeafStream(_:table:collection:)`, `CSVLeafStream`): it is spooled exactly as its value would be.
public final class CSVWriter: RecordWriter {
    private let sink: any ByteSink
    private let options: WriteOptions
    private let spool: CSVSpool
    /// The merged shape of the records of the collection written last (`select(collection:nextID:)`).
    var shape: CSVShape
    /// Each collection's shape, in the order first met; its root's id marks an empty record.
    private var shapes: [(collection: String?, shape: CSVShape)] = []
    /// The collection `shape` belongs to.
    private var shapeCollection: String?
    /// The id the next node of `shape` gets.
    var nodeCount = 1
    private var recordCount = 0
    private let encoder: CSVCellEncoder
    /// How this writer encodes its cells: a leaf stream's cells must have been encoded the same
    /// way (`writeLeafStream(_:table:collection:)`).
    public let cellFormat: CSVCellFormat
    /// The key table of the leaf streams replayed so far (`CSVShape.byKeyIndex` indexes it).
    var leafTable: CSVLeafTable?
    /// Records spooled and not yet handed to the spool file: per cell, the varint node id and the
    /// cell as `CSVCellEncoder` writes it (a value with no CSV form, NaN, is marked invalid there
    /// and thrown at `finish()` where the rows are written, as a row in its place would have).
    @exclusivity(unchecked) var pending = ByteBuffer(capacity: CSVWriter.blockSize + 4096)
    /// How many bytes are gathered before a write, to the spool in the first pass and to the sink
    /// in the second.
    private static let blockSize = 64 * 1024

    /// - Throws: `FerryError(.outputUnwritable)` when the temporary spool file cannot be created.
    public init(_ sink: any ByteSink, options: WriteOptions = WriteOptions()) throws {
        self.sink = sink
        self.options = options
        self.spool = try CSVSpool()
        self.shape = CSVShape(id: 0)
        self.encoder = CSVCellEncoder(delimiter: options.delimiter, csvSafe: options.csvSafe)
        self.cellFormat = CSVCellFormat(options: options)
    }

    deinit {
        encoder.deallocate()
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
        let start = CSVSpool.beginRecord(&pending)
        var nextID = nodeCount
        select(collection: record.collection, nextID: &nextID)
        spoolLeaves(record.value, node: shape, nextID: &nextID, into: &pending)
        try endRecord(at: start, nextID: nextID)
    }

    /// Makes `shape` the shape of `collection`'s records, made (with the next id) on first use.
    @inline(__always)
    func select(collection: String?, nextID: inout Int) {
        if shapes.isEmpty {
            shapes.append((collection, shape))
            shapeCollection = collection
        } else if collection != shapeCollection {
            selectAnother(collection, nextID: &nextID)
        }
    }

    @inline(never)
    private func selectAnother(_ collection: String?, nextID: inout Int) {
        shapeCollection = collection
        if let known = shapes.first(where: { $0.collection == collection }) {
            shape = known.shape
            return
        }
        let node = CSVShape(id: nextID)
        nextID += 1
        shapes.append((collection, node))
        shape = node
    }

    /// Forgets the children remembered by key index in every collection's shape.
    func forgetKeyIndexes() {
        for entry in shapes { entry.shape.forgetKeyIndexes() }
        if shapes.isEmpty { shape.forgetKeyIndexes() }
    }

    /// Ends the record spooled in `pending` from `start` (`CSVSpool.beginRecord`); `nextID` is the
    /// id of the next node to make. Hands the spool a block once one is gathered.
    /// - Throws: `FerryError(.outputUnwritable)` when spooling fails.
    func endRecord(at start: Int, nextID: Int) throws {
        nodeCount = nextID
        if pending.count == start + 4 {
            // A record with no cells still tells its collection (a row of a `$collection` file):
            // an empty cell of its shape's root, which no column holds.
            pending.appendVarint(UInt64(shape.id))
            pending.appendVarint(0)
        }
        try CSVSpool.endRecord(&pending, at: start)
        recordCount += 1
        if pending.count >= Self.blockSize {
            try spool.write(pending.bytes)
            pending.count = 0
        }
    }

    /// Merges `value` into the shape below `node` and spools its leaves in flattening order
    /// (`CSVFlattening.flatten`): members in order, list elements in order.
    private func spoolLeaves(_ value: Value, node: CSVShape, nextID: inout Int, into out: inout ByteBuffer) {
        // Members and elements are read in place (through the arrays' buffers) rather than copied out.
        switch value {
        case .object(let object):
            object.members.withUnsafeBufferPointer { members in
                for position in members.indices {
                    let child = node.member(members[position].key, at: position, nextID: &nextID)
                    spoolLeaves(members[position].value, node: child, nextID: &nextID, into: &out)
                }
            }
        case .array(let elements):
            elements.withUnsafeBufferPointer { elements in
                for index in elements.indices {
                    spoolLeaves(elements[index], node: node.element(index, nextID: &nextID), nextID: &nextID, into: &out)
                }
            }
        default:
            if !node.isLeaf { node.isLeaf = true }
            out.appendVarint(UInt64(node.id))
            encoder.appendCell(value, into: &out)
        }
    }

    /// Writes the header and every spooled row, then flushes the sink.
    /// - Throws: `FerryError(.invalidValue)` for a NaN or infinite double; `.outputUnwritable`.
    public func finish() throws {
        if pending.count > 0 {
            try spool.write(pending.bytes)
            pending.count = 0
        }
        let layout = columnLayout()
        guard recordCount > 0, !layout.names.isEmpty else {
            try sink.flush()
            return
        }
        let names = layout.names
        var out = ByteBuffer(capacity: 2 * Self.blockSize)
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(options.delimiter) }
            encoder.appendString(name, into: &out, lengthWord: false)
        }
        out.append(0x0D)
        out.append(0x0A)
        try spool.rewind()
        try layout.columnOfNode.withUnsafeBufferPointer { columnOfNode in
            try writeRows(names: names, columnOfNode: columnOfNode, collections: layout.collections, into: &out)
        }
        if out.count > 0 { try sink.write(out.bytes) }
        try sink.flush()
    }

    /// The header and where each node's cells go. With several collections: `$collection` first,
    /// then each collection's columns in turn (see the type's notes), and `collections` tells the
    /// collection cell (encoded) of each node's records.
    private func columnLayout() -> (names: [String], columnOfNode: [Int], collections: (cells: [[UInt8]], ofNode: [Int])?) {
        let several = shapes.count > 1
        let listed = Dictionary(options.collections.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let order = shapes.indices.sorted { a, b in
            let (x, y) = (shapes[a].collection.flatMap { listed[$0] } ?? Int.max, shapes[b].collection.flatMap { listed[$0] } ?? Int.max)
            return x != y ? x < y : a < b
        }
        var names: [String] = several ? [Self.collectionColumn] : []
        var columnOfNode = [Int](repeating: -1, count: nodeCount)
        var shapeOfNode = [Int](repeating: -1, count: several ? nodeCount : 0)
        // A name met in an earlier collection is that column; within one collection a name that
        // appears twice (a key holding a dot next to a nested key) fills its first column.
        var earlier: [String: Int] = [:]
        for index in (shapes.isEmpty ? [] : order) {
            let root = shapes[index].shape
            var leaves: [(name: String, id: Int)] = []
            root.columns(prefix: nil, into: &leaves)
            var own: [String: Int] = [:]
            for leaf in leaves {
                if several { shapeOfNode[leaf.id] = index }
                if let column = earlier[leaf.name] {
                    columnOfNode[leaf.id] = column
                    continue
                }
                names.append(leaf.name)
                let column = own[leaf.name] ?? names.count - 1
                if own[leaf.name] == nil { own[leaf.name] = column }
                columnOfNode[leaf.id] = column
            }
            if several { shapeOfNode[root.id] = index }
            earlier.merge(own) { first, _ in first }
        }
        guard several else { return (names, columnOfNode, nil) }
        let cells = shapes.map { entry -> [UInt8] in
            var cell = ByteBuffer(capacity: 64)
            if let name = entry.collection { encoder.appendString(name, into: &cell, lengthWord: false) }
            return Array(cell.bytes)
        }
        return (names, columnOfNode, (cells, shapeOfNode))
    }

    /// The name of the first column of a CSV holding several collections.
    public static let collectionColumn = "$collection"

    /// The second pass: reads the spooled records, puts each cell in its column, and writes the
    /// rows through `out`, handing the sink a block whenever `blockSize` bytes are gathered.
    /// With `collections`, column 0 of each row is its collection's cell, told by the shape its
    /// first cell's node belongs to.
    private func writeRows(names: [String], columnOfNode: UnsafeBufferPointer<Int>,
                           collections: (cells: [[UInt8]], ofNode: [Int])?, into out: inout ByteBuffer) throws {
        let columns = names.count
        // Per column: where its cell lies in the record, and its length word (0: empty cell).
        let cellStart = UnsafeMutablePointer<Int>.allocate(capacity: columns)
        let cellWord = UnsafeMutablePointer<UInt64>.allocate(capacity: columns)
        cellStart.initialize(repeating: 0, count: columns)
        cellWord.initialize(repeating: 0, count: columns)
        defer {
            cellStart.deallocate()
            cellWord.deallocate()
        }
        let delimiter = options.delimiter
        var recordIndex = 0
        while let record = try spool.nextRecord() {
            guard let bytes = record.baseAddress else { continue }
            cellWord.update(repeating: 0, count: columns)
            var i = 0
            var collectionCell: [UInt8] = []
            if let collections, !record.isEmpty {
                var first = 0
                let id = Int(truncatingIfNeeded: CSVSpool.readVarint(record, &first))
                let shape = id >= 0 && id < collections.ofNode.count ? collections.ofNode[id] : -1
                if shape >= 0 { collectionCell = collections.cells[shape] }
            }
            while i < record.count {
                let id = Int(truncatingIfNeeded: CSVSpool.readVarint(record, &i))
                let word = CSVSpool.readVarint(record, &i)
                let length = Int(truncatingIfNeeded: word >> 1)
                guard length <= record.count - i else { throw FerryError(.internalError, "a bad cell in the CSV spool file") }
                let column = id >= 0 && id < columnOfNode.count ? columnOfNode[id] : -1
                if column >= 0 {
                    cellStart[column] = i
                    cellWord[column] = word
                }
                i += length
            }
            // The row's cells come from this record, so its length plus separators bounds the row.
            let rowStart = out.count
            out.reserve(record.count + collectionCell.count + columns + 2)
            var p = out.base + rowStart
            if !collectionCell.isEmpty {
                collectionCell.withUnsafeBufferPointer { cell in _ = memcpy(p, cell.baseAddress!, cell.count) }
                p += collectionCell.count
            }
            for column in 0..<columns {
                if column > 0 {
                    p[0] = delimiter
                    p += 1
                }
                let word = cellWord[column]
                if word == 0 { continue }
                let length = Int(truncatingIfNeeded: word >> 1)
                let text = bytes + cellStart[column]
                if word & 1 != 0 {
                    // The rows before this one go out, as they would have one by one.
                    out.count = rowStart
                    if out.count > 0 { try sink.write(out.bytes) }
                    let number = String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
                    throw FerryError(.invalidValue, "\(number) has no CSV form (record \(recordIndex), column \(names[column]))",
                                     at: SourceLocation(file: options.fileName, recordIndex: recordIndex))
                }
                _ = memcpy(p, text, length)
                p += length
            }
            p[0] = 0x0D
            p[1] = 0x0A
            out.count = p + 2 - out.base
            recordIndex += 1
            if out.count >= Self.blockSize {
                try sink.write(out.bytes)
                out.count = 0
            }
        }
    }
}
