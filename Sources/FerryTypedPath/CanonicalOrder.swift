import FerryCore
import FerrySchemas
import FormatJSON


/// A JSON record copied with its members in its model's canonical order (SCHEMAS.md), nested
/// objects of the model's types too, so that the one model reader, which reads members in that
/// order in one pass (`JSONLineCursor`), can read a record another tool wrote with its keys in
/// another order: sorted (`jq -S`, `JSONEncoder`'s `.sortedKeys`, Python's `sort_keys`), or as a
/// Firestore export lists them. Values are copied as they stand and checked by the reader that
/// then reads the copy, as it checks every record.
///
/// A record is left as it is (nil) when reordering cannot make it one the reader takes: a key
/// its type does not name, a key given twice or written with an escape, or text that is not
/// well-formed. The general path then reads and reports it, as before.
struct CanonicalOrder {
    /// The record's bytes, whose keys and structure are checked as they are passed.
    let json: JSONLineValidator
    /// True once a member was found out of its canonical place (else the copy is the record
    /// again, and reading it would fail where the record's reading failed).
    private(set) var reordered = false
    /// The members of the objects being copied, outermost first (each object's after its
    /// parent's), the first `memberCount` of them; kept by the batch from record to record, so
    /// that none is allocated.
    var members: [JSONLineValidator.Member]
    private var memberCount = 0
    /// For each object being copied, a slot per field (and one before them for `$collection`):
    /// the index of the member that holds it, or -1; the first `slotCount` are in use.
    var slots: [Int32]
    private var slotCount = 0

    init(json: JSONLineValidator, members: [JSONLineValidator.Member], slots: [Int32]) {
        self.json = json
        self.members = members
        self.slots = slots
    }

    private static let collectionKey: StaticString = "$collection"

    /// Appends the record whose object opens at `open` in canonical order to `text`, a JSON
    /// Lines line's `$collection` first (`isLine`); `type` gives the record's type from the bytes
    /// of its `$collection` string (nil: it has none), or nil (the record is not copied). Returns
    /// the offset past the object, or nil (`text` then holds part of a copy).
    mutating func appendRecord(at open: Int, isLine: Bool, to text: inout ByteBuffer,
        type: (UnsafeBufferPointer<UInt8>?) -> RecordType.Table?) -> Int?
    {
        guard json.allowsContainer(atLevel: 1), let end = json.appendMembers(ofObjectAt: open, to: &members, count: &memberCount)
        else { return nil }
        var named: UnsafeBufferPointer<UInt8>?
        if isLine, let member = members[..<memberCount].first(where: { isCollectionKey($0) }) {
            guard json.p[member.value] == JSONSyntax.quote, let (stringEnd, escaped) = json.string(member.value), !escaped
            else { return nil }
            named = UnsafeBufferPointer(start: json.p + member.value + 1, count: stringEnd - member.value - 2)
        }
        guard let table = type(named) else { return nil }
        return appendInOrder(from: 0, end: end, type: table, level: 1, keepsCollection: isLine, to: &text)
    }

    private func isCollectionKey(_ member: JSONLineValidator.Member) -> Bool {
        !member.escaped && json.key(member, is: Self.collectionKey)
    }

    /// Appends the object at `open` (a record of `type`, at nesting `level`) in canonical order.
    private mutating func appendObject(at open: Int, type: RecordType.Table, level: Int, to text: inout ByteBuffer) -> Int? {
        let base = memberCount
        defer { memberCount = base }
        guard json.allowsContainer(atLevel: level), let end = json.appendMembers(ofObjectAt: open, to: &members, count: &memberCount)
        else { return nil }
        return appendInOrder(from: base, end: end, type: type, level: level, keepsCollection: false, to: &text)
    }

    /// Appends the object whose members are `members[base...]` (ending at `end`) in canonical
    /// order; `keepsCollection`: a JSON Lines record's, whose `$collection` goes first.
    private mutating func appendInOrder(from base: Int, end: Int, type: RecordType.Table, level: Int,
        keepsCollection: Bool, to text: inout ByteBuffer) -> Int?
    {
        let fields = type.fields
        let slotBase = slotCount
        slotCount += fields.count + 1
        defer { slotCount = slotBase }
        while slots.count < slotCount { slots.append(-1) }
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in slotBase..<slotBase + fields.count + 1 { slots[slot] = -1 }
        }
        var previous = -1
        for i in base..<memberCount {
            let member = members[i]
            guard !member.escaped else { return nil }
            var slot = 0
            if !(keepsCollection && isCollectionKey(member)) {
                guard let field = Self.field(named: json.p + member.key + 1, length: member.keyLength, in: fields) else { return nil }
                slot = field + 1
            }
            guard slots[slotBase + slot] < 0 else { return nil }
            slots[slotBase + slot] = Int32(i - base)
            if slot < previous { reordered = true }
            previous = slot
        }
        text.append(JSONSyntax.openBrace)
        var first = true
        for slot in 0...fields.count where slots[slotBase + slot] >= 0 {
            if !first { text.append(JSONSyntax.comma) }
            first = false
            let member = members[base + Int(slots[slotBase + slot])]
            text.append(json.p + member.key, count: member.keyEnd - member.key)
            text.append(JSONSyntax.colon)
            guard appendValue(member, type: slot > 0 ? fields[slot - 1].type : nil, level: level + 1, to: &text) else { return nil }
        }
        text.append(JSONSyntax.closeBrace)
        return end
    }

    /// Appends a member's value: an object of a record type, a list of them or a Firestore
    /// Timestamp in canonical order, anything else as it stands.
    private mutating func appendValue(_ member: JSONLineValidator.Member, type: FieldType?, level: Int,
        to text: inout ByteBuffer) -> Bool
    {
        let first = json.p[member.value]
        switch type {
        case .object(let record)? where first == JSONSyntax.openBrace:
            return appendObject(at: member.value, type: record.table, level: level, to: &text) == member.valueEnd
        case .array(.object(let record))? where first == JSONSyntax.openBracket:
            return appendList(at: member.value, end: member.valueEnd, of: record.table, level: level, to: &text)
        case .timestamp? where first == JSONSyntax.openBrace:
            return appendTimestamp(at: member.value, end: member.valueEnd, level: level, to: &text)
        default:
            text.append(json.p + member.value, count: member.valueEnd - member.value)
            return true
        }
    }

    /// Appends the list at `open` (ending at `end`), each object element a record of `type`.
    private mutating func appendList(at open: Int, end: Int, of type: RecordType.Table, level: Int,
        to text: inout ByteBuffer) -> Bool
    {
        guard json.allowsContainer(atLevel: level) else { return false }
        let bytes = UnsafeBufferPointer(start: json.p, count: json.end)
        text.append(JSONSyntax.openBracket)
        var next = json.firstItem(afterOpen: open, close: JSONSyntax.closeBracket)
        var first = true
        while case .item(let element)? = next {
            if !first { text.append(JSONSyntax.comma) }
            first = false
            let elementEnd: Int
            if json.p[element] == JSONSyntax.openBrace {
                guard let after = appendObject(at: element, type: type, level: level + 1, to: &text) else { return false }
                elementEnd = after
            } else {
                guard let after = JSONSyntax.endOfValue(in: bytes, from: element) else { return false }
                text.append(json.p + element, count: after - element)
                elementEnd = after
            }
            next = json.afterItem(elementEnd, close: JSONSyntax.closeBracket)
        }
        guard case .closed(let closed)? = next, closed == end else { return false }
        text.append(JSONSyntax.closeBracket)
        return true
    }

    /// Appends a Firestore Timestamp object: `_seconds` before `_nanoseconds`, and a typed
    /// wrapper's `__datatype__` before its `value` (itself put in order), the shapes the cursor
    /// reads from the bytes (`plainTimestamp`); any other object as it stands (the model reader
    /// reads other shapes from its value).
    private mutating func appendTimestamp(at open: Int, end: Int, level: Int, to text: inout ByteBuffer) -> Bool {
        let base = memberCount
        defer { memberCount = base }
        guard json.allowsContainer(atLevel: level), json.appendMembers(ofObjectAt: open, to: &members, count: &memberCount) == end
        else { return false }
        guard memberCount - base == 2, !members[base].escaped, !members[base + 1].escaped,
              let pair = timestampPair(members[base], members[base + 1])
        else {
            text.append(json.p + open, count: end - open)
            return true
        }
        if pair.swapped { reordered = true }
        let (first, second) = pair.swapped ? (members[base + 1], members[base]) : (members[base], members[base + 1])
        text.append(JSONSyntax.openBrace)
        text.append(json.p + first.key, count: first.keyEnd - first.key)
        text.append(JSONSyntax.colon)
        text.append(json.p + first.value, count: first.valueEnd - first.value)
        text.append(JSONSyntax.comma)
        text.append(json.p + second.key, count: second.keyEnd - second.key)
        text.append(JSONSyntax.colon)
        if pair.wrapper, json.p[second.value] == JSONSyntax.openBrace {
            guard appendTimestamp(at: second.value, end: second.valueEnd, level: level + 1, to: &text) else { return false }
        } else {
            text.append(json.p + second.value, count: second.valueEnd - second.value)
        }
        text.append(JSONSyntax.closeBrace)
        return true
    }

    /// Whether two members are a Timestamp's (`_seconds`, `_nanoseconds`) or a wrapper's
    /// (`__datatype__`, `value`), and whether they stand the other way round; nil for others.
    private func timestampPair(_ a: JSONLineValidator.Member, _ b: JSONLineValidator.Member) -> (wrapper: Bool, swapped: Bool)? {
        for (first, second, wrapper) in [("_seconds", "_nanoseconds", false), ("__datatype__", "value", true)] as [(StaticString, StaticString, Bool)] {
            if json.key(a, is: first), json.key(b, is: second) { return (wrapper, false) }
            if json.key(a, is: second), json.key(b, is: first) { return (wrapper, true) }
        }
        return nil
    }

    /// The index of the field whose name is the `length` bytes at `key`, or nil.
    private static func field(named key: UnsafePointer<UInt8>, length: Int, in fields: UnsafeBufferPointer<FieldSchema>)
        -> Int?
    {
        for index in fields.indices {
            let name = fields[index].nameBytes
            guard name.count == length else { continue }
            if name.isShort ? name.matches(key) : fields[index].name.utf8.elementsEqual(UnsafeBufferPointer(start: key, count: length)) {
                return index
            }
        }
        return nil
    }
}
