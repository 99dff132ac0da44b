import FerryCore

/// The `RecordCursor` of a parsed `Value`: the schema-free record's, and that of the formats read
/// into a `Value` (XML, CSV cells typed by the reader, bundle members).
///
/// Members are found by index. When every member is a field of the type and none repeats (the
/// usual case), lookups start where the previous one ended and an absent optional field is known
/// absent from a bit set without a scan; otherwise each lookup takes the first member of a name.
public struct ValueCursor: RecordCursor {
    public typealias Item = Value

    public let wholeValue: Value
    /// The members of the object (empty when the value is not one). Held as the array itself so
    /// that a lookup reaches a member without going through an optional `ValueObject` copy.
    private let members: [ValueObject.Member]
    public let isObject: Bool
    /// True when a member is not a field of the type or a field appears twice.
    private var isIrregular = false
    /// When regular: the fields present, one bit per index in the type's fields. All ones when
    /// irregular.
    private var presentFields: UInt64 = ~0
    /// Where the next member lookup starts looking.
    private var memberHint = 0

    /// A cursor over `value`'s members.
    public init(_ value: Value) {
        wholeValue = value
        if case .object(let object) = value {
            members = object.members
            isObject = true
        } else {
            members = []
            isObject = false
        }
    }

    public mutating func start(fields: UnsafeBufferPointer<FieldSchema>) {
        guard isObject else { return }
        if let present = Self.presentFields(members, fields) {
            presentFields = present
        } else {
            isIrregular = true
        }
    }

    /// The fields present as members, one bit per index in `fields`, when every member is one of
    /// `fields` and none appears twice; nil otherwise (irregular).
    private static func presentFields(_ members: [ValueObject.Member], _ fields: UnsafeBufferPointer<FieldSchema>) -> UInt64? {
        guard fields.count <= 64 else { return nil }
        var seen: UInt64 = 0
        var hint = 0
        // By index, comparing keys in place: iterating the members would copy each one.
        for m in members.indices {
            var found = -1
            if hint < fields.count, fields[hint].name == members[m].key {
                found = hint
            } else {
                for i in fields.indices where fields[i].name == members[m].key {
                    found = i
                    break
                }
            }
            guard found >= 0 else { return nil }
            let bit: UInt64 = 1 << UInt64(found)
            if seen & bit != 0 { return nil }
            seen |= bit
            hint = found + 1
        }
        return seen
    }

    public mutating func member(_ name: String, field: Int?) -> Value? {
        guard isObject else { return nil }
        // Known absent (regular objects only: `presentFields` is all ones otherwise).
        if let field, field < 64, presentFields & (1 << UInt64(field)) == 0 { return nil }
        if !isIrregular {
            if memberHint < members.count, members[memberHint].key == name {
                memberHint += 1
                return members[memberHint - 1].value
            }
            // No name appears twice: look on from the hint, then from the start, so that one
            // member out of place (a field a migration added at the end) costs one scan, not one
            // scan for every field after it.
            for i in memberHint..<max(memberHint, members.count) where members[i].key == name {
                memberHint = i + 1
                return members[i].value
            }
            for i in 0..<min(memberHint, members.count) where members[i].key == name {
                memberHint = i + 1
                return members[i].value
            }
            return nil
        }
        for i in members.indices where members[i].key == name { return members[i].value }
        return nil
    }

    public func irregularKeys(fields: UnsafeBufferPointer<FieldSchema>) -> [String]? {
        isObject && isIrregular ? members.map(\.key) : nil
    }

    @inline(__always) public func isNull(_ item: Value) -> Bool { item.isNull }
    @inline(__always) public func value(of item: Value) -> Value { item }

    @inline(__always) public func text(of item: Value) -> String? {
        if case .string(let text) = item { return text }
        return nil
    }

    @inline(__always)
    public func plainDouble(_ item: Value, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        FieldReader.plainDouble(item, range: range, step: step, scalarsAsText: scalarsAsText)
    }

    @inline(__always) public func plainInteger(_ item: Value) -> Int64? {
        if case .integer(let i) = item { return i }
        return nil
    }

    @inline(__always) public func plainBool(_ item: Value) -> Bool? {
        if case .bool(let flag) = item { return flag }
        return nil
    }

    /// Nil: the item is a `Value` already, which the checked path reads as it is.
    @inline(__always) public func plainTimestamp(_ item: Value) -> FirestoreTimestamp? { nil }

    public func cursor(at item: Value) -> ValueCursor { ValueCursor(item) }

    public func forEachElement(of item: Value, _ body: (Value, Int) -> Void) -> Bool {
        guard case .array(let items) = item else { return false }
        for index in items.indices { body(items[index], index) }
        return true
    }

    public func elementCountHint(of item: Value) -> Int {
        guard case .array(let items) = item else { return 0 }
        return items.count
    }
}
