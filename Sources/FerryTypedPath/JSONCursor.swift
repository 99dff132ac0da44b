import FerryCore
import FerrySchemas
import FormatJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where one JSON value stands in a line: its first byte, the offset past its last, and for a
/// string whether it holds an escape.
struct JSONItem {
    let start: Int
    let end: Int
    let escaped: Bool
}

/// The members of the objects a line's `JSONCursor`s have entered, one stack for a batch of lines:
/// a reader enters an object only while its parent's members are still wanted, and is done with
/// it before it enters the next, so each object's members go on top of its parent's.
///
/// The members are held in memory of the stack's own, reached through one pointer that does not
/// change (`slots`): a cursor's reads then pay no exclusivity check and no reference count, as
/// they would on an array stored in a class (several per member read).
final class JSONMemberStack {
    /// The stack's members and its size; the cursors read and write through it.
    struct Slots {
        var members: UnsafeMutablePointer<JSONCursor.Member>
        var count = 0
        var capacity: Int

        /// Drops the members from `index` on.
        mutating func truncate(to index: Int) { count = min(count, index) }

        /// Pushes `member` (the memory doubles when full; members are plain values).
        mutating func append(_ member: JSONCursor.Member) {
            if count == capacity {
                let grown = UnsafeMutablePointer<JSONCursor.Member>.allocate(capacity: capacity * 2)
                grown.moveInitialize(from: members, count: count)
                members.deallocate()
                members = grown
                capacity *= 2
            }
            (members + count).initialize(to: member)
            count += 1
        }
    }

    let slots: UnsafeMutablePointer<Slots>

    init() {
        slots = .allocate(capacity: 1)
        slots.initialize(to: Slots(members: .allocate(capacity: 64), capacity: 64))
    }

    deinit {
        slots.pointee.members.deallocate()
        slots.deallocate()
    }
}

/// The `RecordCursor` of a JSON value in a line's bytes: a `ModelReader` over it reads a JSON
/// Lines record's model with no `Value` in between, and reports every problem as it does over the
/// parsed `Value` (`JSONCursorConformanceTests` compare the two).
///
/// On `start(fields:)` an object's members are indexed once (on the batch's `JSONMemberStack`):
/// each key's span and where its value stands, every value's grammar checked on the way
/// (`JSONLineValidator`: what `JSONParser` accepts, nesting included). A lookup tries the member
/// after the previous one first, then searches on and wraps around once (simdjson On-Demand's
/// `find_field_unordered`). Scalars are read from their bytes when asked, short strings from the
/// batch's `ShortStringCache`; only a value with a problem is made a `Value`, for the message. An
/// object whose bytes the grammar refuses reads as not well-formed (`isWellFormed`): the caller
/// leaves the line to the parser, which reports it.
///
/// Holds the line's bytes, the stack and the cache without owning them: use it only while they
/// live.
struct JSONCursor: RecordCursor {
    typealias Item = JSONItem

    /// One member: its key's bytes (between the quotes) and its value.
    struct Member {
        let keyStart: Int
        let keyEnd: Int
        let escaped: Bool
        let value: JSONItem
    }

    let json: JSONLineValidator
    /// The value the cursor walks.
    let origin: JSONItem
    /// Its nesting level (1: the line's top-level value).
    let level: Int
    /// The batch's member stack (its `slots`), held without a reference.
    private let stack: Unmanaged<JSONMemberStack>
    private let slots: UnsafeMutablePointer<JSONMemberStack.Slots>
    private let strings: Unmanaged<ShortStringCache>?
    /// The object's members: `count` of them from `base` on the stack.
    private var base: Int
    private var count = 0
    /// False when a member's key or value is not well-formed (checked by `start(fields:)`).
    private(set) var isWellFormed = true
    /// The `$collection` members skipped (level 1 only).
    private(set) var collectionMembers = 0
    /// True when some member is not a field or a field appears twice.
    private var isIrregular = false
    /// The offset past the object's closing brace, once `start(fields:)` found it (else 0).
    private(set) var end = 0
    /// Where the next lookup starts.
    private var hint = 0

    /// A cursor over the line's value at `origin` nested at `level` (1: a JSON Lines line's
    /// object, whose `$collection` members are not its fields), its members indexed on `stack`
    /// from `base` on, its short strings made by `strings`.
    init(_ json: JSONLineValidator, at origin: JSONItem, level: Int, stack: Unmanaged<JSONMemberStack>, base: Int = 0,
        strings: Unmanaged<ShortStringCache>?)
    {
        self.json = json
        self.origin = origin
        self.level = level
        self.stack = stack
        self.slots = stack._withUnsafeGuaranteedRef { $0.slots }
        self.base = base
        self.strings = strings
    }

    /// A cursor over the value at `start` of a line; its end is known once `start(fields:)` has
    /// walked its members (`end`).
    init(line json: JSONLineValidator, at start: Int, stack: Unmanaged<JSONMemberStack>, strings: Unmanaged<ShortStringCache>?) {
        self.init(json, at: JSONItem(start: start, end: json.end, escaped: false), level: 1, stack: stack, strings: strings)
    }

    var isObject: Bool { origin.start < json.end && json.p[origin.start] == JSONSyntax.openBrace }

    var wholeValue: Value { value(of: origin) }

    mutating func start(fields: UnsafeBufferPointer<FieldSchema>) {
        guard isObject, json.allowsContainer(atLevel: level) else {
            isWellFormed = false
            return
        }
        slots.pointee.truncate(to: base)
        var next = json.firstItem(afterOpen: origin.start, close: JSONSyntax.closeBrace)
        var seen: UInt64 = 0
        var nextField = 0
        while case .item(let key)? = next {
            guard json.p[key] == JSONSyntax.quote, let (keyEnd, escaped) = json.string(key),
                  let valueStart = json.memberValue(afterKey: keyEnd), let value = Self.item(json, at: valueStart, level: level + 1)
            else {
                isWellFormed = false
                return
            }
            let member = Member(keyStart: key + 1, keyEnd: keyEnd - 1, escaped: escaped, value: value)
            next = json.afterItem(value.end, close: JSONSyntax.closeBrace)
            // The JSON Lines reader takes every `$collection` out of a line's object.
            if level == 1, keyIs(member, "$collection") {
                collectionMembers += 1
                continue
            }
            if let index = fieldIndex(of: member, in: fields, hint: &nextField), index < 64 {
                let bit: UInt64 = 1 << UInt64(index)
                if seen & bit != 0 { isIrregular = true }
                seen |= bit
            } else {
                isIrregular = true
            }
            slots.pointee.append(member)
            count += 1
        }
        guard case .closed(let close)? = next else {
            isWellFormed = false
            return
        }
        end = close
    }

    @inline(__always)
    private func member(at i: Int) -> Member {
        slots.pointee.members[base + i]
    }

    /// The index in `fields` of the field `member` names; nil when none does. Members usually
    /// come in canonical order: the field at `hint` (the one after the previous member's) is
    /// tried first.
    private func fieldIndex(of member: Member, in fields: UnsafeBufferPointer<FieldSchema>, hint: inout Int) -> Int? {
        if hint < fields.count, keyIs(member, fields[hint].name) {
            hint += 1
            return hint - 1
        }
        for i in fields.indices where keyIs(member, fields[i].name) {
            hint = i + 1
            return i
        }
        return nil
    }

    /// True when `member`'s key is `name`.
    @inline(__always)
    private func keyIs(_ member: Member, _ name: String) -> Bool {
        if member.escaped { return key(of: member) == name }
        let length = member.keyEnd - member.keyStart
        guard name.utf8.count == length else { return false }
        var name = name
        return name.withUTF8 { utf8 in
            utf8.count == length && (length == 0 || memcmp(utf8.baseAddress!, json.p + member.keyStart, length) == 0)
        }
    }

    private func key(of member: Member) -> String {
        ValidatedJSONText(p: json.p, end: member.keyEnd).text(from: member.keyStart, escaped: member.escaped)
    }

    /// The well-formed value at `i` nested at `level`; nil when the grammar refuses it.
    private static func item(_ json: JSONLineValidator, at i: Int, level: Int) -> JSONItem? {
        guard i < json.end else { return nil }
        if json.p[i] == JSONSyntax.quote {
            guard let (end, escaped) = json.string(i) else { return nil }
            return JSONItem(start: i, end: end, escaped: escaped)
        }
        guard let end = skip(json, i, level: level) else { return nil }
        return JSONItem(start: i, end: end, escaped: false)
    }

    /// The offset past the well-formed value at `i` nested at `level`; nil when the grammar
    /// refuses it.
    private static func skip(_ json: JSONLineValidator, _ i: Int, level: Int) -> Int? {
        guard i < json.end else { return nil }
        switch json.p[i] {
        case JSONSyntax.quote: return json.string(i)?.end
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return json.literal(i)
        case JSONSyntax.openBrace:
            guard json.allowsContainer(atLevel: level) else { return nil }
            var next = json.firstItem(afterOpen: i, close: JSONSyntax.closeBrace)
            while case .item(let key)? = next {
                guard json.p[key] == JSONSyntax.quote, let (keyEnd, _) = json.string(key),
                      let value = json.memberValue(afterKey: keyEnd), let end = skip(json, value, level: level + 1)
                else { return nil }
                next = json.afterItem(end, close: JSONSyntax.closeBrace)
            }
            guard case .closed(let end)? = next else { return nil }
            return end
        case JSONSyntax.openBracket:
            guard json.allowsContainer(atLevel: level) else { return nil }
            var next = json.firstItem(afterOpen: i, close: JSONSyntax.closeBracket)
            while case .item(let element)? = next {
                guard let end = skip(json, element, level: level + 1) else { return nil }
                next = json.afterItem(end, close: JSONSyntax.closeBracket)
            }
            guard case .closed(let end)? = next else { return nil }
            return end
        default: return json.number(i)
        }
    }

    mutating func member(_ name: String, field: Int?) -> JSONItem? {
        guard count > 0 else { return nil }
        if isIrregular {
            for i in 0..<count where keyIs(member(at: i), name) { return member(at: i).value }
            return nil
        }
        // Canonical order first, then on from there and around once.
        var i = hint < count ? hint : 0
        for _ in 0..<count {
            let m = member(at: i)
            if keyIs(m, name) {
                hint = i + 1
                return m.value
            }
            i = i + 1 == count ? 0 : i + 1
        }
        return nil
    }

    func irregularKeys(fields: UnsafeBufferPointer<FieldSchema>) -> [String]? {
        isIrregular ? (0..<count).map { key(of: member(at: $0)) } : nil
    }

    @inline(__always) func isNull(_ item: JSONItem) -> Bool { json.p[item.start] == UInt8(ascii: "n") }

    /// The value at `item`, parsed as the JSON Lines reader parses it (only for problems and
    /// rare types; the bytes were checked by `start(fields:)`).
    func value(of item: JSONItem) -> Value {
        let bytes = Array(UnsafeBufferPointer(start: json.p + item.start, count: item.end - item.start))
        return (try? JSONText.parse(bytes)) ?? .null
    }

    @inline(__always)
    func text(of item: JSONItem) -> String? {
        guard json.p[item.start] == JSONSyntax.quote else { return nil }
        // A short string with no escape, and 16 bytes of the line from its start: from the cache.
        let length = item.end - item.start - 2
        if !item.escaped, length <= 15, item.start + 17 <= json.end, let strings {
            let p = json.p
            return strings._withUnsafeGuaranteedRef { $0.string(p, start: item.start + 1, length: length) }
        }
        return ValidatedJSONText(p: json.p, end: item.end - 1).text(from: item.start + 1, escaped: item.escaped)
    }

    @inline(__always)
    func plainDouble(_ item: JSONItem, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        let first = json.p[item.start]
        guard first == JSONSyntax.minus || JSONSyntax.isDigit(first), let (plain, end) = json.decimal(item.start) else { return nil }
        let number = UnsafeBufferPointer(start: json.p + item.start, count: end - item.start)
        guard let d = plain ?? FieldReader.double(numberText: number), d.isFinite,
              FieldSchema.isInRange(d, range), FieldSchema.isOnStep(d, step)
        else { return nil }
        return d == 0 ? 0 : d
    }

    /// `-?[0-9]{1,18}` without leading zeros (which cannot overflow): what `Value.int64Value`
    /// reads from the parser's `.number(text)`; anything else takes the checked path.
    func plainInteger(_ item: JSONItem) -> Int64? {
        var i = item.start
        let negative = json.p[i] == JSONSyntax.minus
        if negative { i += 1 }
        let digitsStart = i
        var magnitude: Int64 = 0
        while i < item.end, JSONSyntax.isDigit(json.p[i]) {
            magnitude = magnitude &* 10 &+ Int64(json.p[i] &- JSONSyntax.zero)
            i += 1
        }
        let digits = i - digitsStart
        guard i == item.end, digits > 0, digits <= 18, digits == 1 || json.p[digitsStart] != JSONSyntax.zero else { return nil }
        return negative ? -magnitude : magnitude
    }

    @inline(__always)
    func plainBool(_ item: JSONItem) -> Bool? {
        switch json.p[item.start] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// A cursor over `item`'s members, indexed on the stack above this object's.
    func cursor(at item: JSONItem) -> JSONCursor {
        JSONCursor(json, at: item, level: level + 1, stack: stack, base: base + count, strings: strings)
    }

    func forEachElement(of item: JSONItem, _ body: (JSONItem, Int) -> Void) -> Bool {
        guard json.p[item.start] == JSONSyntax.openBracket else { return false }
        var next = json.firstItem(afterOpen: item.start, close: JSONSyntax.closeBracket)
        var index = 0
        while case .item(let start)? = next, let element = Self.item(json, at: start, level: level + 2) {
            body(element, index)
            index += 1
            next = json.afterItem(element.end, close: JSONSyntax.closeBracket)
        }
        return true
    }
}
