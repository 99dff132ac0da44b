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
/// Holds the tree and the row's cells without owning them: use it only while they live. The
/// cells must be UTF-8 (the CSV reader stops at a cell that is not: check the row first,
/// `isUTF8(_:)`).
struct CSVCursor: RecordCursor {
    typealias Item = CSVItem

    unowned(unsafe) let tree: CSVHeaderTree
    /// Where the model's fields stand in the tree (nil: members are found by key).
    unowned(unsafe) let map: CSVFieldMap?
    let cells: UnsafeBufferPointer<RawCSVCell>
    /// True when scalars come as text (always, from the CSV reader): plain number and Boolean
    /// text is then read as its value, as the checked path reads it.
    let scalarsAsText: Bool
    /// True when every present cell was checked as UTF-8 (`isUTF8(_:)`): a cell's `String` is then
    /// made without checking it again.
    let checkedUTF8: Bool
    /// The node the cursor walks (`CSVItem.nullNode`: a null).
    let origin: Int
    let isObject: Bool
    /// True when a present member is not a field of the type.
    private var isIrregular = false
    /// True when `map` holds this object's fields: a member is found by its field's index.
    private var isMapped = false
    /// When regular: the fields present, one bit per index in the type's fields.
    private var presentFields: UInt64 = ~0
    /// Where the next member lookup starts (an offset among the object's children).
    private var hint = 0

    /// A cursor over the record of the row `cells` under the header `tree`; `map` (the tree's for
    /// the model read) finds members without comparing keys; `checkedUTF8`: the caller checked
    /// every cell with `isUTF8(_:)` (else each cell's text is checked as it is read).
    init(tree: CSVHeaderTree, map: CSVFieldMap? = nil, cells: UnsafeBufferPointer<RawCSVCell>, scalarsAsText: Bool,
        checkedUTF8: Bool = false)
    {
        self.init(tree: tree, map: map, cells: cells, scalarsAsText: scalarsAsText, checkedUTF8: checkedUTF8, origin: 0)
    }

    private init(tree: CSVHeaderTree, map: CSVFieldMap?, cells: UnsafeBufferPointer<RawCSVCell>, scalarsAsText: Bool,
        checkedUTF8: Bool, origin: Int)
    {
        self.tree = tree
        self.map = map
        self.cells = cells
        self.scalarsAsText = scalarsAsText
        self.checkedUTF8 = checkedUTF8
        self.origin = origin
        isObject = origin >= 0 && tree.nodes[origin].kind == .object
    }

    /// True when every present cell of the row is UTF-8 (else the CSV reader stops at the first
    /// that is not, with an `invalid-encoding` error: no cursor reads such a row).
    static func isUTF8(_ cells: UnsafeBufferPointer<RawCSVCell>) -> Bool {
        for cell in cells where !cell.isAbsent && !UTF8Text.isValid(cell.text) { return false }
        return true
    }

    var wholeValue: Value { value(of: CSVItem(node: origin)) }

    mutating func start(fields: [FieldSchema]) {
        guard isObject else { return }
        if let map, map.maps(origin, fields: CSVFieldMap.address(of: fields)) {
            isMapped = true
            isIrregular = map.strays(of: origin).contains { tree.isPresent(tree.nodes[$0], cells) }
            return
        }
        let node = tree.nodes[origin]
        guard fields.count <= 64 else {
            isIrregular = true
            return
        }
        var seen: UInt64 = 0
        var fieldHint = 0
        for k in node.first..<(node.first + node.count) where tree.isPresent(tree.nodes[k], cells) {
            let key = tree.keys[tree.nodes[k].key]
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
        if isMapped, let field {
            let child = map.unsafelyUnwrapped.child(of: origin, field: field)
            return child >= 0 && tree.isPresent(tree.nodes[child], cells) ? CSVItem(node: child) : nil
        }
        // Known absent (regular objects only: `presentFields` is all ones otherwise).
        if let field, field < 64, presentFields & (1 << UInt64(field)) == 0 { return nil }
        let node = tree.nodes[origin]
        let count = node.count
        guard count > 0 else { return nil }
        // Canonical order first, then on from there and around once.
        var k = hint < count ? hint : 0
        for _ in 0..<count {
            let child = node.first + k
            if tree.keys[tree.nodes[child].key] == name {
                hint = k + 1
                return tree.isPresent(tree.nodes[child], cells) ? CSVItem(node: child) : nil
            }
            k = k + 1 == count ? 0 : k + 1
        }
        return nil
    }

    func irregularKeys(fields: [FieldSchema]) -> [String]? {
        guard isObject, isIrregular else { return nil }
        let node = tree.nodes[origin]
        return (node.first..<(node.first + node.count)).compactMap { k in
            tree.isPresent(tree.nodes[k], cells) ? tree.keys[tree.nodes[k].key] : nil
        }
    }

    @inline(__always) func isNull(_ item: CSVItem) -> Bool { item.node < 0 }

    func value(of item: CSVItem) -> Value {
        guard item.node >= 0 else { return .null }
        return tree.value(at: item.node, cells) ?? .null
    }

    /// The bytes of `item` when it is a cell.
    @inline(__always)
    private func cellText(_ item: CSVItem) -> UnsafeBufferPointer<UInt8>? {
        guard item.node >= 0 else { return nil }
        let node = tree.nodes[item.node]
        return node.kind == .leaf ? cells[node.column].text : nil
    }

    @inline(__always)
    func text(of item: CSVItem) -> String? {
        guard let bytes = cellText(item) else { return nil }
        return checkedUTF8 ? String(decoding: bytes, as: UTF8.self) : UTF8Text.string(validating: bytes)
    }

    @inline(__always)
    func plainDouble(_ item: CSVItem, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        // Only the fast grammar, as `FieldReader.plainDouble` reads a string.
        guard scalarsAsText, let bytes = cellText(item), let d = DecimalText.fastDouble(utf8: bytes), d.isFinite,
              FieldSchema.isInRange(d, range), FieldSchema.isOnStep(d, step)
        else { return nil }
        return d == 0 ? 0 : d
    }

    /// `-?(0|[1-9][0-9]{0,17})` (which cannot overflow): what the checked path reads from such
    /// text with `scalarsAsText`; anything else takes that path.
    func plainInteger(_ item: CSVItem) -> Int64? {
        guard scalarsAsText, let bytes = cellText(item), !bytes.isEmpty else { return nil }
        var i = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let digits = bytes.count - i
        guard digits >= 1, digits <= 18, digits == 1 || bytes[i] != UInt8(ascii: "0") else { return nil }
        var magnitude: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ Int64(digit)
            i += 1
        }
        return negative ? -magnitude : magnitude
    }

    /// `true` or `false` text with `scalarsAsText` (what `ModelReader.bool` reads from text).
    @inline(__always)
    func plainBool(_ item: CSVItem) -> Bool? {
        guard scalarsAsText, let bytes = cellText(item) else { return nil }
        if CSVCellText.equals(bytes, "true") { return true }
        if CSVCellText.equals(bytes, "false") { return false }
        return nil
    }

    func cursor(at item: CSVItem) -> CSVCursor {
        CSVCursor(tree: tree, map: map, cells: cells, scalarsAsText: scalarsAsText, checkedUTF8: checkedUTF8, origin: item.node)
    }

    func forEachElement(of item: CSVItem, _ body: (CSVItem, Int) -> Void) -> Bool {
        guard item.node >= 0 else { return false }
        let node = tree.nodes[item.node]
        guard node.kind == .array else { return false }
        // Elements up to the last present one; absent ones before it are null.
        var last = node.first + node.count - 1
        while last >= node.first, !tree.isPresent(tree.nodes[last], cells) { last -= 1 }
        guard last >= node.first else { return true }
        for k in node.first...last {
            body(tree.isPresent(tree.nodes[k], cells) ? CSVItem(node: k) : CSVItem(node: CSVItem.nullNode), k - node.first)
        }
        return true
    }
}
