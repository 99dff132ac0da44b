import FerryCore
import FerrySchemas
import FormatCSV

/// Where one value stands in a CSV row: a node of the header's `CSVHeaderTree` (a cell, or an
/// object or list its flattened columns make), or a list's `null` (an absent element before a
/// present one).
struct CSVItem {
    /// The node's index in the tree; `CSVItem.nullNode` for a null element.
    let node: Int

    static let nullNode = -1
}

/// The `RecordCursor` of one CSV row: a `ModelReader` over it reads a row's model straight from
/// its cells, and reports every problem as it does over the `Value` the CSV reader builds of the
/// row (`CSVCursorConformanceTests` compare the two on every model of every domain and version).
///
/// The row's value is the header's tree (`CSVHeaderTree`: dotted names as nested objects, `1...n`
/// levels as lists) with each leaf's cell: an absent cell (unquoted empty, or the null token) is
/// no member, an object or list with no present cell is none either, and a list's absent
/// elements before its last present one are `null`. Cells are strings; a number, integer or
/// Boolean field reads its cell's text when `scalarsAsText` (SCHEMAS.md "Formats: CSV"), and
/// plain text (`12.4`, `-7`, `true`) is read straight from the bytes with the rules the checked
/// path applies. Only a value with a problem is made a `Value`, for the message; positions are
/// the record's locator's (`CSVRowLocator`), asked only for a diagnostic.
///
/// Holds the tree, the map and the row's cells without owning them: use it only while they live
/// (`withCursor` hands one out for the length of a call). The cells must be UTF-8 (the CSV reader
/// stops at a cell that is not: check the row first, `isUTF8(_:)`).
struct CSVCursor: RecordCursor {
    typealias Item = CSVItem

    /// What every cursor over one row reads: the tree's and the map's tables and the row's cells,
    /// as buffers (no reference counting per read), kept once per row behind one pointer so that
    /// entering a nested object copies a few words.
    struct Frame {
        let nodes: UnsafeBufferPointer<CSVHeaderTree.Node>
        let keys: UnsafeBufferPointer<String>
        let columns: UnsafeBufferPointer<Int>
        let cells: UnsafeBufferPointer<RawCSVCell>
        /// Where the model's fields stand in the tree (nil: members are found by key).
        let map: CSVFieldMap.Tables?
        /// The tree itself, for the `Value` of an item (only for a problem).
        unowned(unsafe) let tree: CSVHeaderTree
        /// True when scalars come as text (always, from the CSV reader): plain number and Boolean
        /// text is then read as its value, as the checked path reads it.
        let scalarsAsText: Bool

        /// True when a cell at or under `node` is present (`CSVHeaderTree.isPresent`).
        @inline(__always)
        func isPresent(_ node: Int) -> Bool {
            let node = nodes[node]
            if node.kind == .leaf { return !cells[node.column].isAbsent }
            for k in node.columnsStart..<(node.columnsStart + node.columnsCount) where !cells[columns[k]].isAbsent {
                return true
            }
            return false
        }
    }

    /// The row's frame (`withCursor` keeps it for the length of the call).
    let frame: UnsafePointer<Frame>
    /// The node the cursor walks (`CSVItem.nullNode`: a null).
    let origin: Int
    let isObject: Bool
    /// True when a present member is not a field of the type.
    private var isIrregular = false
    /// True when the map holds this object's fields: a member is found by its field's index.
    private var isMapped = false
    /// When regular: the fields present, one bit per index in the type's fields.
    private var presentFields: UInt64 = ~0
    /// Where the next member lookup starts (an offset among the object's children).
    private var hint = 0

    /// Calls `body` with a cursor over the record of the row `cells` under the header `tree`;
    /// `map` (the tree's for the model read) finds members without comparing keys. The cells must
    /// be UTF-8 (`isUTF8(_:)`: checked once for the row, each cell's `String` is then made
    /// without checking it again). The cursor must not be used after
    /// `body` returns.
    static func withCursor<R>(tree: CSVHeaderTree, map: CSVFieldMap?, cells: UnsafeBufferPointer<RawCSVCell>,
        scalarsAsText: Bool, _ body: (CSVCursor) -> R) -> R
    {
        let frame = Frame(nodes: tree.nodes, keys: tree.keys, columns: tree.columns, cells: cells, map: map?.tables,
                          tree: tree, scalarsAsText: scalarsAsText)
        // Each kept alive on its own: a tuple of the two would count both up and down.
        return withExtendedLifetime(tree) { withExtendedLifetime(map) {
            withUnsafePointer(to: frame) { body(CSVCursor(frame: $0, origin: 0)) }
        } }
    }

    private init(frame: UnsafePointer<Frame>, origin: Int) {
        self.frame = frame
        self.origin = origin
        isObject = origin >= 0 && frame.pointee.nodes[origin].kind == .object
    }

    /// True when every present cell of the row is UTF-8 (else the CSV reader stops at the first
    /// that is not, with an `invalid-encoding` error: no cursor reads such a row).
    static func isUTF8(_ cells: UnsafeBufferPointer<RawCSVCell>) -> Bool {
        for cell in cells where !cell.isAbsent && !UTF8Text.isValid(cell.text) { return false }
        return true
    }

    var wholeValue: Value { value(of: CSVItem(node: origin)) }

    mutating func start(fields: UnsafeBufferPointer<FieldSchema>) {
        guard isObject else { return }
        let frame = frame.pointee
        if let map = frame.map, map.maps(origin, fields: CSVFieldMap.address(of: fields)) {
            isMapped = true
            isIrregular = map.strays(of: origin).contains { frame.isPresent($0) }
            return
        }
        let node = frame.nodes[origin]
        guard fields.count <= 64 else {
            isIrregular = true
            return
        }
        var seen: UInt64 = 0
        var fieldHint = 0
        for k in node.first..<(node.first + node.count) where frame.isPresent(k) {
            let key = frame.keys[frame.nodes[k].key]
            var found = -1
            if fieldHint < fields.count, fields[fieldHint].name == key {
                found = fieldHint
            } else {
                for i in fields.indices where fields[i].name == key {
                    found = i
                    break
                }
            }
            // Keys of one object are unique (the header tree merges paths), so none repeats.
            guard found >= 0 else {
                isIrregular = true
                presentFields = ~0
                return
            }
            seen |= 1 << UInt64(found)
            fieldHint = found + 1
        }
        presentFields = seen
    }

    mutating func member(_ name: String, field: Int?) -> CSVItem? {
        guard isObject else { return nil }
        let frame = frame.pointee
        if isMapped, let field {
            let child = frame.map.unsafelyUnwrapped.child(of: origin, field: field)
            return child >= 0 && frame.isPresent(child) ? CSVItem(node: child) : nil
        }
        // Known absent (regular objects only: `presentFields` is all ones otherwise).
        if let field, field < 64, presentFields & (1 << UInt64(field)) == 0 { return nil }
        let node = frame.nodes[origin]
        let count = node.count
        guard count > 0 else { return nil }
        // Canonical order first, then on from there and around once.
        var k = hint < count ? hint : 0
        for _ in 0..<count {
            let child = node.first + k
            if frame.keys[frame.nodes[child].key] == name {
                hint = k + 1
                return frame.isPresent(child) ? CSVItem(node: child) : nil
            }
            k = k + 1 == count ? 0 : k + 1
        }
        return nil
    }

    func irregularKeys(fields: UnsafeBufferPointer<FieldSchema>) -> [String]? {
        guard isObject, isIrregular else { return nil }
        let frame = frame.pointee
        let node = frame.nodes[origin]
        return (node.first..<(node.first + node.count)).compactMap { k in
            frame.isPresent(k) ? frame.keys[frame.nodes[k].key] : nil
        }
    }

    /// True when the header has a column for `name` (or columns under it) in this object, its
    /// cells empty: an absent string there is `""`; false when no column is there (missing).
    func hasPlace(_ name: String, field: Int?) -> Bool? {
        guard isObject else { return false }
        let frame = frame.pointee
        if isMapped, let field { return frame.map.unsafelyUnwrapped.child(of: origin, field: field) >= 0 }
        let node = frame.nodes[origin]
        for child in node.first..<(node.first + node.count) where frame.keys[frame.nodes[child].key] == name { return true }
        return false
    }

    @inline(__always) func isNull(_ item: CSVItem) -> Bool { item.node < 0 }

    func value(of item: CSVItem) -> Value {
        guard item.node >= 0 else { return .null }
        return frame.pointee.tree.value(at: item.node, frame.pointee.cells) ?? .null
    }

    /// The bytes of `item` when it is a cell.
    @inline(__always)
    private func cellText(_ item: CSVItem) -> UnsafeBufferPointer<UInt8>? {
        guard item.node >= 0 else { return nil }
        let node = frame.pointee.nodes[item.node]
        return node.kind == .leaf ? frame.pointee.cells[node.column].text : nil
    }

    @inline(__always)
    func text(of item: CSVItem) -> String? {
        guard let bytes = cellText(item) else { return nil }
        // The row's cells were checked as UTF-8 (`isUTF8`): made once, not checked again; short
        // ones (kinds, categories, names) in place.
        if bytes.count <= 15 { return InlineString.make(copying: bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inline(__always)
    func plainDouble(_ item: CSVItem, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        // Only the fast grammar, as `FieldReader.plainDouble` reads a string.
        guard scalarsAsText, let bytes = cellText(item), let d = DecimalText.fastDouble(utf8: bytes), d.isFinite,
              FieldSchema.isInRange(d, range), FieldSchema.isOnStep(d, step)
        else { return nil }
        return d == 0 ? 0 : d
    }

    /// A plain integer (`PlainInteger`) with `scalarsAsText`: what the checked path reads from such
    /// text; anything else takes that path.
    func plainInteger(_ item: CSVItem) -> Int64? {
        guard frame.pointee.scalarsAsText, let bytes = cellText(item) else { return nil }
        return PlainInteger.parse(bytes)
    }

    /// `true` or `false` text with `scalarsAsText` (what `ModelReader.bool` reads from text).
    @inline(__always)
    func plainBool(_ item: CSVItem) -> Bool? {
        guard frame.pointee.scalarsAsText, let bytes = cellText(item) else { return nil }
        if CSVCellText.equals(bytes, "true") { return true }
        if CSVCellText.equals(bytes, "false") { return false }
        return nil
    }

    /// RFC 3339 text to the millisecond, parsed where it stands (`Instant.parse(bytes:)`, the
    /// grammar `Instant.parse(_:)` reads a `String` with).
    @inline(__always)
    func plainInstant(_ item: CSVItem) -> Instant? {
        guard let bytes = cellText(item), case .success(let instant) = Instant.parse(bytes: UnsafeRawBufferPointer(bytes)),
              instant.nanoseconds % 1_000_000 == 0
        else { return nil }
        return instant
    }

    func cursor(at item: CSVItem) -> CSVCursor {
        CSVCursor(frame: frame, origin: item.node)
    }

    func forEachElement(of item: CSVItem, _ body: (CSVItem, Int) -> Void) -> Bool {
        guard item.node >= 0 else { return false }
        let frame = frame.pointee
        let node = frame.nodes[item.node]
        guard node.kind == .array else { return false }
        let last = lastElement(node, frame)
        guard last >= node.first else { return true }
        for k in node.first...last {
            body(frame.isPresent(k) ? CSVItem(node: k) : CSVItem(node: CSVItem.nullNode), k - node.first)
        }
        return true
    }

    /// The number of elements of a list item: up to its last present one (its columns are laid
    /// out already, so this is a look at its cells, not a walk of its elements' reads).
    @inline(__always)
    func elementCountHint(of item: CSVItem) -> Int {
        guard item.node >= 0 else { return 0 }
        let frame = frame.pointee
        let node = frame.nodes[item.node]
        guard node.kind == .array else { return 0 }
        return lastElement(node, frame) - node.first + 1
    }

    /// The node of a list's last present element (its elements are up to there; absent ones
    /// before it are null), `node.first - 1` when none is present.
    @inline(__always)
    private func lastElement(_ node: CSVHeaderTree.Node, _ frame: Frame) -> Int {
        var last = node.first + node.count - 1
        while last >= node.first, !frame.isPresent(last) { last -= 1 }
        return last
    }
}
