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
/// Memory: a string cell of at least 64 KiB is never gathered in memory. The first pass streams
/// it, quoted and escaped piece by piece, from the string's bytes to the spool file; the second
/// holds one spooled record and writes such a cell from it straight to the sink. A 250 MB string
/// costs its own bytes and one spooled copy of its cell, not five copies.
///
/// A record can also come as a leaf stream made ahead, on another thread, with its cells already
/// encoded (`writeLeafStream(_:table:collection:)`, `CSVLeafStream`): it is spooled exactly as its value would be.
public final class CSVWriter: RecordWriter {
    private let sink: any ByteSink
    private let options: WriteOptions
    private let spool: CSVSpool
    // One thread uses it at a time: its state is not checked for exclusive access at run time
    // (`@exclusivity(unchecked)`; each check cost about 65 instructions, several a record).
    /// The merged shape of the records of the collection written last (`select(collection:nextID:)`).
    @exclusivity(unchecked) var shape: CSVShape
    /// Each collection's shape, in the order first met; its root's id marks an empty record.
    @exclusivity(unchecked) private var shapes: [(collection: String?, shape: CSVShape)] = []
    /// The collection `shape` belongs to.
    @exclusivity(unchecked) private var shapeCollection: String?
    /// The id the next node of `shape` gets.
    @exclusivity(unchecked) var nodeCount = 1
    @exclusivity(unchecked) private var recordCount = 0
    private let encoder: CSVCellEncoder
    /// How this writer encodes its cells: a leaf stream's cells must have been encoded the same
    /// way (`writeLeafStream(_:table:collection:)`).
    public let cellFormat: CSVCellFormat
    /// The key table of the leaf streams replayed so far (`CSVShape.byKeyIndex` indexes it).
    @exclusivity(unchecked) var leafTable: CSVLeafTable?
    /// Records spooled and not yet handed to the spool file: per cell, the varint node id and the
    /// cell as `CSVCellEncoder` writes it (a value with no CSV form, NaN, is marked invalid there
    /// and thrown at `finish()` where the rows are written, as a row in its place would have).
    @exclusivity(unchecked) var pending = ByteBuffer(capacity: CSVWriter.blockSize + 4096)
    /// How many bytes are gathered before a write, to the spool in the first pass and to the sink
    /// in the second.
    private static let blockSize = 64 * 1024
    /// Where the record being spooled starts in `pending` (`CSVSpool.beginRecord`).
    @exclusivity(unchecked) private var recordStart = 0
    /// Set while part of the record being spooled is in the spool file already (a long string
    /// streamed there): the file offset of its length field and how many of its bytes went.
    @exclusivity(unchecked) private var flushedRecord: (offset: Int64, bytes: Int)?
    /// Where a long string's cell is rendered piece by piece on its way to the spool.
    @exclusivity(unchecked) private var scratch = ByteBuffer(capacity: 0)

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
    /// - Throws: `FerryError(.invalidValue)` for a scalar record (its cause `RecordLeftOut`: nothing
    ///   of it was written); `.outputUnwritable` when spooling fails.
    public func write(_ record: Record) throws {
        switch record.value {
        case .object, .array: break
        default:
            throw FerryError(.error(.invalidValue, "a CSV row needs an object record, not a \(record.value.kindName)",
                at: record.location), cause: RecordLeftOut())
        }
        recordStart = CSVSpool.beginRecord(&pending)
        var nextID = nodeCount
        select(collection: record.collection, nextID: &nextID)
        do {
            try spoolLeaves(record.value, node: shape, nextID: &nextID, into: &pending)
        } catch {
            flushedRecord = nil
            throw error
        }
        try endRecord(at: recordStart, nextID: nextID)
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
        if flushedRecord == nil && pending.count == start + 4 {
            // A record with no cells still tells its collection (a row of a `$collection` file):
            // an empty cell of its shape's root, which no column holds.
            pending.appendVarint(UInt64(shape.id))
            pending.appendVarint(0)
        }
        if let flushed = flushedRecord {
            flushedRecord = nil
            let length = flushed.bytes + pending.count
            try spool.write(pending.bytes)
            pending.count = 0
            try spool.patchLength(length, at: flushed.offset)
        } else {
            try CSVSpool.endRecord(&pending, at: start)
        }
        recordCount += 1
        if pending.count >= Self.blockSize {
            try spool.write(pending.bytes)
            pending.count = 0
            // A leaf stream's long cell grew the buffer: give the memory back.
            if pending.capacity > 16 * Self.blockSize { pending = ByteBuffer(capacity: Self.blockSize + 4096) }
        }
    }

    /// Spools a long string's cell (length word, then the cell) with the record's bytes so far
    /// handed to the spool file first, so that the cell goes from the string's own bytes to the
    /// file without a copy of it in `out`.
    private func spoolLongString(_ text: String, into out: inout ByteBuffer) throws {
        var text = text
        try text.withUTF8 { utf8 in
            let cell = encoder.measureString(utf8)
            out.appendVarint(UInt64(cell.length) << 1)
            if let flushed = flushedRecord {
                flushedRecord = (flushed.offset, flushed.bytes + out.count)
            } else {
                flushedRecord = (spool.offset + Int64(recordStart) , out.count - recordStart - 4)
            }
            try spool.write(out.bytes)
            out.count = 0
            try encoder.writeString(utf8, as: cell, piece: Self.blockSize, scratch: &scratch) { try spool.write($0) }
            flushedRecord?.bytes += cell.length
        }
    }

    /// Merges `value` into the shape below `node` and spools its leaves in flattening order
    /// (`CSVFlattening.flatten`): members in order, list elements in order.
    private func spoolLeaves(_ value: Value, node: CSVShape, nextID: inout Int, into out: inout ByteBuffer) throws {
        // Members and elements are read in place (through the arrays' buffers) rather than copied out.
        switch value {
        case .object(let object):
            try object.members.withUnsafeBufferPointer { members in
                for position in members.indices {
                    let child = node.member(members[position].key, at: position, nextID: &nextID)
                    try spoolLeaves(members[position].value, node: child, nextID: &nextID, into: &out)
                }
            }
        case .array(let elements):
            try elements.withUnsafeBufferPointer { elements in
                for index in elements.indices {
                    try spoolLeaves(elements[index], node: node.element(index, nextID: &nextID), nextID: &nextID, into: &out)
                }
            }
        default:
            if !node.isLeaf { node.isLeaf = true }
            out.appendVarint(UInt64(node.id))
            if case .string(let text) = value, text.utf8.count >= Self.blockSize {
                try spoolLongString(text, into: &out)
            } else {
                encoder.appendCell(value, into: &out)
            }
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
        while let spooled = try spool.next() {
            let record: UnsafeBufferPointer<UInt8>
            switch spooled {
            case .inMemory(let cells):
                record = cells
            case .inFile(let offset, let length):
                if out.count > 0 { try sink.write(out.bytes) }
                out.count = 0
                try writeRow(offset: offset, length: length, names: names, columnOfNode: columnOfNode,
                             collections: collections, cellStart: cellStart, cellWord: cellWord,
                             recordIndex: recordIndex, into: &out)
                recordIndex += 1
                continue
            }
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
            // The row's cells come from this record; those shorter than a block, plus separators,
            // bound what goes through `out`. Longer ones go from the record to the sink directly.
            // A cell with no CSV form is found before any of its row is written.
            var shortCells = 0
            for column in 0..<columns {
                let word = cellWord[column]
                let length = Int(truncatingIfNeeded: word >> 1)
                if length < Self.blockSize { shortCells += length }
                if word & 1 != 0 {
                    // The rows before this one go out, as they would have one by one.
                    if out.count > 0 { try sink.write(out.bytes) }
                    let number = String(decoding: UnsafeBufferPointer(start: bytes + cellStart[column], count: length), as: UTF8.self)
                    throw FerryError(.invalidValue, "\(number) has no CSV form (record \(recordIndex), column \(names[column]))",
                                     at: SourceLocation(file: options.fileName, recordIndex: recordIndex))
                }
            }
            let rowStart = out.count
            out.reserve(shortCells + collectionCell.count + columns + 2)
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
                if length >= Self.blockSize {
                    out.count = p - out.base
                    if out.count > 0 { try sink.write(out.bytes) }
                    try sink.write(UnsafeRawBufferPointer(start: text, count: length))
                    out.count = 0
                    p = out.base
                    continue
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

    /// Writes the row of a record the spool left in its file (longer than
    /// `CSVSpool.largeRecordSize`): its cells are located with small reads, then copied to the
    /// sink a block at a time, so the record is never in memory whole. `cellStart` and `cellWord`
    /// are scratch space of one entry per column; `out` is empty on entry and on return. With
    /// `collections`, the row starts with its collection's cell, as in `writeRows`.
    private func writeRow(offset: Int64, length: Int, names: [String], columnOfNode: UnsafeBufferPointer<Int>,
                          collections: (cells: [[UInt8]], ofNode: [Int])?, cellStart: UnsafeMutablePointer<Int>, cellWord: UnsafeMutablePointer<UInt64>,
                          recordIndex: Int, into out: inout ByteBuffer) throws {
        let columns = names.count
        cellWord.update(repeating: 0, count: columns)
        let end = offset + Int64(length)
        var position = offset
        var window = [UInt8](repeating: 0, count: 20)
        var firstNode: Int?
        while position < end {
            // Two varints (node id, length word) take at most 20 bytes.
            let n = try window.withUnsafeMutableBytes { buffer in
                try spool.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(20, end - position))]))
            }
            var i = 0
            let (id, word) = window.withUnsafeBufferPointer { buffer -> (Int, UInt64) in
                let bytes = UnsafeBufferPointer(rebasing: buffer[0..<n])
                let id = Int(truncatingIfNeeded: CSVSpool.readVarint(bytes, &i))
                return (id, CSVSpool.readVarint(bytes, &i))
            }
            position += Int64(i)
            if firstNode == nil { firstNode = id }
            let cellLength = Int(truncatingIfNeeded: word >> 1)
            guard i > 0, Int64(cellLength) <= end - position else {
                throw FerryError(.internalError, "a bad cell in the CSV spool file")
            }
            let column = id >= 0 && id < columnOfNode.count ? columnOfNode[id] : -1
            if column >= 0 {
                cellStart[column] = Int(position)
                cellWord[column] = word
            }
            position += Int64(cellLength)
        }
        for column in 0..<columns where cellWord[column] & 1 != 0 {
            var text = [UInt8](repeating: 0, count: Int(truncatingIfNeeded: cellWord[column] >> 1))
            _ = try text.withUnsafeMutableBytes { try spool.read(at: Int64(cellStart[column]), into: $0) }
            throw FerryError(.invalidValue, "\(String(decoding: text, as: UTF8.self)) has no CSV form (record \(recordIndex), column \(names[column]))",
                             at: SourceLocation(file: options.fileName, recordIndex: recordIndex))
        }
        if let collections, let firstNode, firstNode >= 0, firstNode < collections.ofNode.count {
            let shape = collections.ofNode[firstNode]
            if shape >= 0 { for byte in collections.cells[shape] { out.append(byte) } }
        }
        for column in 0..<columns {
            if column > 0 { out.append(options.delimiter) }
            var remaining = Int(truncatingIfNeeded: cellWord[column] >> 1)
            var at = Int64(cellStart[column])
            while remaining > 0 {
                let piece = min(remaining, Self.blockSize)
                out.reserve(piece)
                let n = try spool.read(at: at, into: UnsafeMutableRawBufferPointer(start: out.base + out.count, count: piece))
                guard n == piece else { throw FerryError(.internalError, "the CSV spool file ended early") }
                out.count += n
                at += Int64(n)
                remaining -= n
                if out.count >= Self.blockSize {
                    try sink.write(out.bytes)
                    out.count = 0
                }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
        try sink.write(out.bytes)
        out.count = 0
    }
}
