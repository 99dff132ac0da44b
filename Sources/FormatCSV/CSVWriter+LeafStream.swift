import FerryCore

/// A writer that takes a record as a CSV leaf stream (`CSVLeafStream`) the typed path rendered,
/// instead of its value: what the pipeline asks of a CSV output, without naming its writer type.
public protocol LeafStreamWriter: RecordWriter {
    /// The delimiter and safe mode its cells are written in: a leaf stream's cells must be
    /// encoded for the same (`CSVLeafOutput`).
    var cellFormat: CSVCellFormat { get }

    /// Writes the record of `collection` that `stream` describes, its member tags indexing
    /// `table`, exactly as `write(_:)` writes the record's value.
    /// - Throws: `FerryError(.internalError)` for a malformed stream or one of another cell
    ///   format; `.outputUnwritable` when writing fails.
    func writeLeafStream(_ stream: UnsafeBufferPointer<UInt8>, table: CSVLeafTable, collection: String?) throws
}

extension CSVWriter: LeafStreamWriter {
    /// Spools one record given as a leaf stream (`CSVLeafStream`) whose member tags index `table`:
    /// the shape nodes it makes, the leaves it marks and the bytes it spools are those `write(_:)`
    /// makes for the record's value, which the stream describes.
    /// - Throws: `FerryError(.internalError)` for a stream that is cut short or malformed, or whose
    ///   cells were encoded for another cell format than this writer's; `.outputUnwritable` when
    ///   spooling fails.
    /// - Parameter collection: the record's collection (`Record.collection`), as `write(_:)` takes it.
    public func writeLeafStream(_ stream: UnsafeBufferPointer<UInt8>, table: CSVLeafTable, collection: String?) throws {
        if table !== leafTable { try adopt(table) }
        let start = CSVSpool.beginRecord(&pending)
        var nextID = nodeCount
        select(collection: collection, nextID: &nextID)
        var replay = LeafReplay(stream: stream, keys: table.keys)
        let complete = replay.members(below: shape, nextID: &nextID, into: &pending)
        guard complete, replay.isAtEnd else {
            nodeCount = nextID
            pending.truncate(to: start)
            throw FerryError(.internalError, "a malformed CSV leaf stream (\(stream.count) bytes)")
        }
        try endRecord(at: start, nextID: nextID)
    }

    /// Makes `table` the one whose key indexes the shape remembers.
    private func adopt(_ table: CSVLeafTable) throws {
        guard table.format == cellFormat else {
            throw FerryError(.internalError, "a CSV leaf stream encoded for another delimiter or safe mode than its writer's")
        }
        if leafTable != nil { forgetKeyIndexes() }
        leafTable = table
    }
}

/// Reads one leaf stream and replays it against a shape: members and elements find (or make) their
/// nodes as `CSVWriter.spoolLeaves` does (`CSVShape.child`, `element`; a key index's child is
/// remembered in its parent), and each leaf marks its node and spools `varint(node id)` and its
/// cell's bytes as they are. Nodes are passed unowned (the shape owns them all).
private struct LeafReplay {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private let keys: [String]
    /// The next byte to read.
    private var position = 0

    init(stream: UnsafeBufferPointer<UInt8>, keys: [String]) {
        // An empty stream has no base address; any pointer serves, as nothing is read.
        bytes = stream.baseAddress.map(UnsafePointer.init) ?? UnsafePointer(bitPattern: 1)!
        count = stream.count
        self.keys = keys
    }

    var isAtEnd: Bool { position == count }

    /// Replays the members of an object below `node` up to its end; false for a malformed stream.
    mutating func members(below node: CSVShape, nextID: inout Int, into out: inout ByteBuffer) -> Bool {
        members(below: Unmanaged.passUnretained(node), nextID: &nextID, into: &out)
    }

    private mutating func members(below node: Unmanaged<CSVShape>, nextID: inout Int, into out: inout ByteBuffer) -> Bool {
        while position < count {
            let tag = varint()
            let kind = tag & 3
            if kind == CSVLeafStream.Kind.end.rawValue { return true }
            let ref = tag >> 2
            let child: Unmanaged<CSVShape>
            if ref == 0 {
                guard let key = inlineKey() else { return false }
                child = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.child(key, nextID: &nextID)) }
            } else {
                guard ref <= UInt64(keys.count) else { return false }
                let index = Int(truncatingIfNeeded: ref) &- 1
                child = node._withUnsafeGuaranteedRef { $0.child(keyIndex: index, keys: keys, nextID: &nextID) }
            }
            guard value(kind, at: child, nextID: &nextID, into: &out) else { return false }
        }
        return false
    }

    /// Replays a list's elements below `node` up to its end; false for a malformed stream.
    private mutating func elements(below node: Unmanaged<CSVShape>, nextID: inout Int, into out: inout ByteBuffer) -> Bool {
        var index = 0
        while position < count {
            let tag = varint()
            let kind = tag & 3
            if kind == CSVLeafStream.Kind.end.rawValue { return true }
            guard tag >> 2 == 0 else { return false }
            let child = node._withUnsafeGuaranteedRef { $0.unownedElement(index, nextID: &nextID) }
            index += 1
            guard value(kind, at: child, nextID: &nextID, into: &out) else { return false }
        }
        return false
    }

    /// Replays the value a tag of `kind` (not `end`) announced, at `node`.
    @inline(__always)
    private mutating func value(_ kind: UInt64, at node: Unmanaged<CSVShape>, nextID: inout Int, into out: inout ByteBuffer)
        -> Bool
    {
        switch kind {
        case CSVLeafStream.Kind.leaf.rawValue: return leaf(at: node, into: &out)
        case CSVLeafStream.Kind.object.rawValue: return members(below: node, nextID: &nextID, into: &out)
        default: return elements(below: node, nextID: &nextID, into: &out)
        }
    }

    /// Marks `node` a leaf and spools its id and the cell that follows (length word and bytes).
    @inline(__always)
    private mutating func leaf(at node: Unmanaged<CSVShape>, into out: inout ByteBuffer) -> Bool {
        let id = node._withUnsafeGuaranteedRef { node in
            if !node.isLeaf { node.isLeaf = true }
            return node.id
        }
        let cellStart = position
        let length = varint() >> 1
        guard position > cellStart, length <= UInt64(count &- position) else { return false }
        position &+= Int(truncatingIfNeeded: length)
        let cell = position &- cellStart
        out.reserve(cell &+ 10)
        if id < 0x80 {
            out.appendReserved(UInt8(truncatingIfNeeded: id))
        } else {
            out.appendVarint(UInt64(id))
        }
        (out.base + out.count).copyShort(from: bytes + cellStart, count: cell)
        out.count &+= cell
        return true
    }

    /// A varint (LEB128) at `position`: one byte for the usual tag and cell length.
    @inline(__always)
    private mutating func varint() -> UInt64 {
        if position < count, bytes[position] < 0x80 {
            position &+= 1
            return UInt64(bytes[position &- 1])
        }
        return CSVSpool.readVarint(UnsafeBufferPointer(start: bytes, count: count), &position)
    }

    /// The key written after a tag: varint byte count, UTF-8 bytes; nil when cut short.
    private mutating func inlineKey() -> String? {
        let length = varint()
        guard length <= UInt64(count &- position) else { return nil }
        let key = String(decoding: UnsafeBufferPointer(start: bytes + position, count: Int(length)), as: UTF8.self)
        position &+= Int(length)
        return key
    }
}
