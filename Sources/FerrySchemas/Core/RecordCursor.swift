import FerryCore

/// One object of a record as a format holds it, walked by a `ModelReader`: the reader asks for the
/// members its model's fields name and reads their scalars, lists and nested objects through the
/// cursor, and checks every rule of the field's `FieldSchema` itself, so that each format's cursor
/// gives the same models and the same diagnostics (`ValueCursor` for a parsed `Value`).
///
/// An `Item` is where one member's value stands (the value itself, or its place in the record's
/// bytes); a cursor reads the item only when asked. Positions are not the cursor's: the reader's
/// `RecordContext` asks the record's locator, and only for a diagnostic.
///
/// A reader reports a problem with the item's `Value` (`value(of:)`), so the diagnostic text
/// (`found "five"`, `found a list`) is the same from every cursor; the `plain...` reads are the
/// common case that cannot fail a rule, and nil from them sends the reader to that checked path.
public protocol RecordCursor {
    /// Where one member's value (or one list element) stands.
    associatedtype Item

    /// True when the value the cursor walks is an object (else the reader reports a `type-error`).
    var isObject: Bool { get }
    /// The value the cursor walks, for the `type-error` of a non-object.
    var wholeValue: Value { get }

    /// Gets ready to be asked for the fields of `fields` (a record type's, in canonical order).
    mutating func start(fields: UnsafeBufferPointer<FieldSchema>)
    /// The first member named `name` (`field`: its index in the `start(fields:)` list, nil when the
    /// type has none); nil when absent. Models ask for their fields in canonical order: a cursor
    /// tries the member after the previous one first.
    mutating func member(_ name: String, field: Int?) -> Item?
    /// The keys of the members in input order when some member is not a field or a field appears
    /// twice (the reader reports those), else nil. Asked once, after the fields were read: a cursor
    /// that reads in one pass checks the object's end there.
    mutating func irregularKeys(fields: UnsafeBufferPointer<FieldSchema>) -> [String]?

    /// Whether the object holds a place for the member `name` that `member(_:field:)` found
    /// absent: true for a CSV column whose cell is empty (an absent required string is then `""`,
    /// SCHEMAS.md "Formats: CSV"), false when no column or element is there for it (the field is
    /// missing, as in JSON); nil when the cursor cannot tell (a `Value` keeps no empty cells: the
    /// record's locator is asked). The default is nil.
    func hasPlace(_ name: String, field: Int?) -> Bool?

    /// True when `item` is a JSON null.
    func isNull(_ item: Item) -> Bool
    /// The value at `item`, for the checked paths and messages.
    func value(of item: Item) -> Value
    /// The text of `item` when it is a string, else nil.
    func text(of item: Item) -> String?
    /// The number at `item` when it passes every rule of a number field with `range` and `step`
    /// (finite, in range, on the step; `-0` as `0`); with `scalarsAsText`, plain decimal text
    /// counts as its number. Nil sends the reader to the checked path.
    func plainDouble(_ item: Item, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double?
    /// The integer at `item` when it is one with no conversion, else nil (the checked path).
    func plainInteger(_ item: Item) -> Int64?
    /// The Boolean at `item` when it is one, else nil.
    func plainBool(_ item: Item) -> Bool?
    /// The instant at `item` when it is RFC 3339 text to the millisecond, read from the text's
    /// bytes where they stand (no `String` made); nil sends the reader to `text(of:)` and the
    /// checked path. The default reads nothing.
    func plainInstant(_ item: Item) -> Instant?
    /// The Firestore Timestamp at `item` when it has the usual shape, `{"_seconds": S,
    /// "_nanoseconds": N}` with exactly those members, both plain integers (`plainInteger(_:)`),
    /// nanoseconds in `0..<1_000_000_000` and the instant in the years 0001...9999; nil sends the
    /// reader to the checked path, which reads every accepted shape from the item's `Value`
    /// (`FieldReader.timestamp`). The default reads the members through `cursor(at:)`.
    func plainTimestamp(_ item: Item) -> FirestoreTimestamp?
    /// A cursor over the members of `item` (an object, or not: the nested reader reports that).
    func cursor(at item: Item) -> Self
    /// Calls `body` with each element of `item` and its index, in order; false (and no call) when
    /// `item` is not a list.
    func forEachElement(of item: Item, _ body: (Item, Int) -> Void) -> Bool
    /// How many elements `forEachElement(of:_:)` hands out for `item`, when the cursor knows
    /// without walking them (0 when it does not, or `item` is no list): the reader reserves room
    /// for that many, so a list is allocated once. The default knows nothing.
    func elementCountHint(of item: Item) -> Int
}

extension RecordCursor {
    /// Nil: the record's locator tells (`RecordContext.hasPlace(of:)`).
    @inlinable
    public func hasPlace(_ name: String, field: Int?) -> Bool? { nil }

    /// Nil: the reader makes the item's text (`text(of:)`) and parses that.
    @inlinable
    public func plainInstant(_ item: Item) -> Instant? { nil }

    @inlinable
    public func plainTimestamp(_ item: Item) -> FirestoreTimestamp? {
        var cursor = cursor(at: item)
        guard cursor.isObject else { return nil }
        return FirestoreTimestamp.plainFields.withUnsafeBufferPointer { fields -> FirestoreTimestamp? in
            cursor.start(fields: fields)
            guard let secondsItem = cursor.member("_seconds", field: 0), let seconds = cursor.plainInteger(secondsItem),
                  let nanosItem = cursor.member("_nanoseconds", field: 1), let nanos = cursor.plainInteger(nanosItem),
                  cursor.irregularKeys(fields: fields) == nil,
                  (0..<1_000_000_000).contains(nanos), let instant = Instant(seconds: seconds, nanoseconds: Int32(nanos))
            else { return nil }
            return FirestoreTimestamp(instant: instant)
        }
    }

    /// 0: the reader grows its list as the elements come.
    @inlinable
    public func elementCountHint(of item: Item) -> Int { 0 }
}
