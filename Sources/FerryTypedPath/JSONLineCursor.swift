import FerryCore
import FerrySchemas
import FormatJSON

/// Where one JSON value stands in a line: its first byte, its nesting level (1: the line's
/// object), and for a string the offset past its closing quote and whether it holds an escape
/// (`end` is -1 for any other value: it is learnt as the value is read, `JSONLineProgress`).
struct JSONItem {
    let start: Int
    let end: Int
    let escaped: Bool
    let level: Int
}

/// What the cursors of one line share: where the value read last ends, and whether the line was
/// given up. A cursor's reads are not `mutating` (`RecordCursor`), so a read that learns where a
/// number, literal, object or list ends writes it here, and the cursor of the object holding that
/// value steps past it from there instead of scanning it again.
struct JSONLineProgress {
    /// The first byte of the value whose end was learnt last (-1: none yet).
    var start = -1
    /// The offset past that value.
    var end = -1
    /// True once a cursor met what it does not read in one pass: a member out of canonical order,
    /// unknown, repeated or with an escaped key, or bytes the parser would refuse. The model read
    /// is then dropped and the line goes the general path, which reports it.
    var gaveUp = false
}

/// The `RecordCursor` of a JSON value in a line's bytes, read in one pass as a `ModelReader` asks
/// for the fields (simdjson On-Demand's forward-only objects): a JSON Lines line or a document
/// element is read into its model with no `Value` in between, every rule checked by the one model
/// reader.
///
/// Members are expected in canonical order (how Ferry and the apps write them): the member under
/// the cursor is either the field asked for or a later field (the one asked for is then absent).
/// Anything else gives the line up (`JSONLineProgress.gaveUp`). Every byte is checked against the
/// grammar `JSONParser` accepts (`JSONLineValidator`) as it is passed: a string when its member is
/// reached, a number or literal as it is read, a value no read took when the cursor steps over it.
/// Only a value with a problem is made a `Value`, for the message.
///
/// Holds the line's bytes, the progress and the string cache without owning them: use it only
/// while they live.
struct JSONLineCursor: RecordCursor {
    typealias Item = JSONItem

    let json: JSONLineValidator
    /// The opening brace of the object walked (or the first byte of a value that is not one).
    let origin: Int
    /// Its nesting level (1: the line's object).
    let level: Int
    /// The line's progress, shared by its cursors.
    let progress: UnsafeMutablePointer<JSONLineProgress>
    /// The fields of the object's record type (`start(fields:)`).
    private var fields = UnsafeBufferPointer<FieldSchema>(start: nil, count: 0)
    /// What is under the cursor: a member's key, the closing brace, or nil (not well-formed).
    private var next: JSONLineValidator.Next?
    /// True once `next` is set (by `start(fields:)`, or by the line's scan for the line's object).
    private var loaded = false
    /// The value handed out last, not yet stepped over (start -1: none).
    private var pending = JSONItem(start: -1, end: -1, escaped: false, level: 0)
    /// The index in `fields` of the key under the cursor once a read found it names a later field
    /// (-1: not looked up).
    private var keyField = -1

    /// A cursor over the value at `origin` nested at `level`.
    init(_ json: JSONLineValidator, at origin: Int, level: Int, progress: UnsafeMutablePointer<JSONLineProgress>) {
        self.json = json
        self.origin = origin
        self.level = level
        self.progress = progress
    }

    /// A cursor over a line's object whose opening brace is at `origin` and whose members go on as
    /// `members` says (the line's scan read the brace and a leading `$collection` member).
    init(line json: JSONLineValidator, at origin: Int, members: JSONLineValidator.Next?,
        progress: UnsafeMutablePointer<JSONLineProgress>)
    {
        self.init(json, at: origin, level: 1, progress: progress)
        next = members
        loaded = true
    }

    var isObject: Bool { origin < json.end && json.p[origin] == JSONSyntax.openBrace }

    var wholeValue: Value { value(of: JSONItem(start: origin, end: -1, escaped: false, level: level)) }

    mutating func start(fields: UnsafeBufferPointer<FieldSchema>) {
        self.fields = fields
        guard !loaded else { return }
        loaded = true
        guard json.allowsContainer(atLevel: level) else { return giveUp() }
        next = json.firstItem(afterOpen: origin, close: JSONSyntax.closeBrace)
    }

    /// Gives the line up (see `JSONLineProgress.gaveUp`).
    private func giveUp() {
        progress.pointee.gaveUp = true
    }

    /// Notes that the value at `start` ends before `end`.
    @inline(__always)
    private func learn(_ start: Int, _ end: Int) {
        progress.pointee.start = start
        progress.pointee.end = end
    }

    // MARK: Members

    @inline(__always)
    mutating func member(_ name: String, field: Int?) -> JSONItem? {
        if pending.start >= 0 { stepOver() }
        guard case .item(let key)? = next else {
            if next == nil { giveUp() }
            return nil
        }
        // A field the type does not have: the general path reads it as a required string.
        guard let field else {
            giveUp()
            return nil
        }
        if keyField >= 0 {
            // The key names a later field: this one is absent, until that one is asked for.
            guard keyField >= field else {
                giveUp()
                return nil
            }
            guard keyField == field else { return nil }
            keyField = -1
            return take(afterKey: key + 2 + fields[field].nameBytes.count)
        }
        if keyIs(key, field) { return take(afterKey: key + 2 + fields[field].nameBytes.count) }
        for later in (field + 1)..<fields.count where keyIs(key, later) {
            keyField = later
            return nil
        }
        // Unknown, repeated, out of order, escaped: the general path reports or reads it.
        giveUp()
        return nil
    }

    /// The member value that follows the key ending before `keyEnd`, now pending; nil (given up)
    /// when the bytes are not well-formed.
    @inline(__always)
    private mutating func take(afterKey keyEnd: Int) -> JSONItem? {
        guard let start = json.memberValue(afterKey: keyEnd), let item = item(at: start, level: level + 1) else {
            giveUp()
            next = nil
            return nil
        }
        pending = item
        return item
    }

    /// The item of the value at `start` nested at `level`: a string is checked here (its end and
    /// escapes known), any other value when read or stepped over. Nil for a string the parser
    /// refuses.
    @inline(__always)
    private func item(at start: Int, level: Int) -> JSONItem? {
        guard json.p[start] == JSONSyntax.quote else { return JSONItem(start: start, end: -1, escaped: false, level: level) }
        guard let (end, escaped) = json.string(start) else { return nil }
        return JSONItem(start: start, end: end, escaped: escaped, level: level)
    }

    /// Moves past the pending value (and its comma) to the next member.
    @inline(__always)
    private mutating func stepOver() {
        let value = pending
        pending = JSONItem(start: -1, end: -1, escaped: false, level: 0)
        guard let end = end(of: value) else {
            giveUp()
            next = nil
            return
        }
        next = json.afterItem(end, close: JSONSyntax.closeBrace)
    }

    /// The offset past `item`: known for a string, learnt when a read took it, else scanned (and
    /// checked); nil when the parser would refuse it.
    @inline(__always)
    private func end(of item: JSONItem) -> Int? {
        if item.end >= 0 { return item.end }
        if progress.pointee.start == item.start { return progress.pointee.end }
        return Self.skip(json, item.start, level: item.level)
    }

    /// True when the key whose opening quote is at `key` is the name of `fields[field]`.
    @inline(__always)
    private func keyIs(_ key: Int, _ field: Int) -> Bool {
        let name = fields[field].nameBytes
        guard name.isShort else {
            return keyIs(key, count: name.count) { fields[field].name.utf8.elementsEqual($0) }
        }
        return keyIs(key, name)
    }

    /// True when the key whose opening quote is at `key` is the short name `name`. A field name
    /// is plain ASCII (no quote, backslash or control character), so bytes that match it and a
    /// closing quote are a well-formed key; a key holding an escape never matches.
    @inline(__always)
    private func keyIs(_ key: Int, _ name: FieldNameBytes) -> Bool {
        keyIs(key, count: name.count) { name.matches($0.baseAddress!) }
    }

    /// True when the key at `key` has its opening quote there, `count` bytes and a closing quote,
    /// and `same` says its bytes are the name.
    @inline(__always)
    private func keyIs(_ key: Int, count: Int, _ same: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let close = key + 1 + count
        guard close < json.end, json.p[key] == JSONSyntax.quote, json.p[close] == JSONSyntax.quote else { return false }
        return same(UnsafeBufferPointer(start: json.p + key + 1, count: count))
    }

    /// Checks that every member was read: the object's end is then learnt (its parent steps past
    /// it); a member left over gives the line up. Never lists keys: a line with unknown or
    /// repeated members is given up, and the general path reports them.
    mutating func irregularKeys(fields: UnsafeBufferPointer<FieldSchema>) -> [String]? {
        // Not an object: the reader reported it, and read no member.
        guard isObject else { return nil }
        if pending.start >= 0 { stepOver() }
        if keyField < 0, case .closed(let end)? = next {
            learn(origin, end)
        } else {
            giveUp()
        }
        return nil
    }

    /// The offset past the well-formed value at `i` nested at `level`; nil when the parser would
    /// refuse it.
    static func skip(_ json: JSONLineValidator, _ i: Int, level: Int) -> Int? {
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

    // MARK: Values

    @inline(__always) func isNull(_ item: JSONItem) -> Bool { json.p[item.start] == UInt8(ascii: "n") }

    /// The value at `item`, parsed as the JSON Lines reader parses it (only for problems and rare
    /// shapes); given up when the parser refuses it.
    func value(of item: JSONItem) -> Value {
        guard let end = end(of: item) else {
            giveUp()
            return .null
        }
        learn(item.start, end)
        let bytes = Array(UnsafeBufferPointer(start: json.p + item.start, count: end - item.start))
        guard let value = try? JSONText.parse(bytes) else {
            giveUp()
            return .null
        }
        return value
    }

    @inline(__always)
    func text(of item: JSONItem) -> String? {
        guard item.end >= 0 else { return nil }
        // A short string with no escape, and 16 bytes of the line from its start: made in place.
        let length = item.end - item.start - 2
        if !item.escaped, length <= 15, item.start + 17 <= json.end {
            return InlineString.make(json.p, start: item.start + 1, length: length)
        }
        return ValidatedJSONText(p: json.p, end: item.end - 1).text(from: item.start + 1, escaped: item.escaped)
    }

    @inline(__always)
    func plainDouble(_ item: JSONItem, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        let first = json.p[item.start]
        guard first == JSONSyntax.minus || JSONSyntax.isDigit(first), let (plain, end) = json.decimal(item.start) else { return nil }
        learn(item.start, end)
        let number = UnsafeBufferPointer(start: json.p + item.start, count: end - item.start)
        guard let d = plain ?? FieldReader.double(numberText: number), d.isFinite,
              FieldSchema.isInRange(d, range), FieldSchema.isOnStep(d, step)
        else { return nil }
        return d == 0 ? 0 : d
    }

    /// A plain integer (`PlainInteger`): what `Value.int64Value` reads from the parser's
    /// `.number(text)`; anything else takes the checked path.
    func plainInteger(_ item: JSONItem) -> Int64? {
        integer(at: item.start)?.value
    }

    /// The plain integer at `start` and the offset past it; nil for any other value. A number's
    /// end is learnt either way.
    private func integer(at start: Int) -> (value: Int64, end: Int)? {
        let first = json.p[start]
        guard first == JSONSyntax.minus || JSONSyntax.isDigit(first), let end = json.number(start) else { return nil }
        learn(start, end)
        guard let value = PlainInteger.parse(UnsafeBufferPointer(start: json.p + start, count: end - start)) else { return nil }
        return (value, end)
    }

    /// The usual Firestore Timestamp, `{"_seconds": S, "_nanoseconds": N}` in that order (see
    /// `RecordCursor.plainTimestamp`), alone or as the `value` of `{"__datatype__": "timestamp",
    /// "value": ...}`, read from its bytes. Any other shape is nil without giving the line up: the
    /// reader then reads the item's `Value`, which takes every shape.
    func plainTimestamp(_ item: JSONItem) -> FirestoreTimestamp? {
        guard json.p[item.start] == JSONSyntax.openBrace, json.allowsContainer(atLevel: item.level),
              case .item(let key)? = json.firstItem(afterOpen: item.start, close: JSONSyntax.closeBrace)
        else { return nil }
        guard let (timestamp, end) = plainSeconds(firstKey: key) else { return wrappedTimestamp(item, firstKey: key) }
        learn(item.start, end)
        return timestamp
    }

    /// node-firestore-import-export's `{"__datatype__": "timestamp", "value": {...}}`, which
    /// `FirestoreTimestamp.read` reads as its `value` (out of line: the usual shape is the other).
    @inline(never)
    private func wrappedTimestamp(_ item: JSONItem, firstKey key: Int) -> FirestoreTimestamp? {
        guard keyIs(key, Self.datatypeName), let tag = json.memberValue(afterKey: key + 2 + Self.datatypeName.count),
              keyIs(tag, Self.timestampName), case .item(let valueKey)? = json.afterItem(tag + 2 + Self.timestampName.count, close: JSONSyntax.closeBrace),
              keyIs(valueKey, Self.valueName), let inner = json.memberValue(afterKey: valueKey + 2 + Self.valueName.count),
              json.p[inner] == JSONSyntax.openBrace, json.allowsContainer(atLevel: item.level + 1),
              case .item(let innerKey)? = json.firstItem(afterOpen: inner, close: JSONSyntax.closeBrace),
              let (timestamp, innerEnd) = plainSeconds(firstKey: innerKey),
              case .closed(let end)? = json.afterItem(innerEnd, close: JSONSyntax.closeBrace)
        else { return nil }
        learn(item.start, end)
        return timestamp
    }

    /// The Timestamp of the object whose first key is at `firstKey`, when it is exactly
    /// `{"_seconds": S, "_nanoseconds": N}` with plain integers in range, and the offset past it.
    @inline(__always)
    private func plainSeconds(firstKey: Int) -> (FirestoreTimestamp, end: Int)? {
        guard let seconds = integerMember(at: firstKey, Self.secondsName),
              case .item(let nanosKey)? = json.afterItem(seconds.end, close: JSONSyntax.closeBrace),
              let nanos = integerMember(at: nanosKey, Self.nanosecondsName),
              case .closed(let end)? = json.afterItem(nanos.end, close: JSONSyntax.closeBrace),
              (0..<1_000_000_000).contains(nanos.value), let instant = Instant(seconds: seconds.value, nanoseconds: Int32(nanos.value))
        else { return nil }
        return (FirestoreTimestamp(instant: instant), end)
    }

    private static let datatypeName = FieldNameBytes("__datatype__")
    /// The tag's string value, matched as a key is (its quotes around its bytes).
    private static let timestampName = FieldNameBytes("timestamp")
    private static let valueName = FieldNameBytes("value")
    private static let secondsName = FieldNameBytes("_seconds")
    private static let nanosecondsName = FieldNameBytes("_nanoseconds")

    /// The plain integer of the member whose key at `key` is `name`, and the offset past it.
    private func integerMember(at key: Int, _ name: FieldNameBytes) -> (value: Int64, end: Int)? {
        guard keyIs(key, name), let start = json.memberValue(afterKey: key + 2 + name.count) else { return nil }
        return integer(at: start)
    }

    @inline(__always)
    func plainBool(_ item: JSONItem) -> Bool? {
        let first = json.p[item.start]
        guard first == UInt8(ascii: "t") || first == UInt8(ascii: "f"), let end = json.literal(item.start) else { return nil }
        learn(item.start, end)
        return first == UInt8(ascii: "t")
    }

    /// An RFC 3339 string to the millisecond, parsed from its bytes (no `String` made).
    @inline(__always)
    func plainInstant(_ item: JSONItem) -> Instant? {
        guard item.end >= 0, !item.escaped,
              case .success(let instant) = Instant.parse(
                  bytes: UnsafeRawBufferPointer(start: json.p + item.start + 1, count: item.end - item.start - 2)),
              instant.nanoseconds % 1_000_000 == 0
        else { return nil }
        return instant
    }

    /// A cursor over `item`'s members.
    func cursor(at item: JSONItem) -> JSONLineCursor {
        JSONLineCursor(json, at: item.start, level: item.level, progress: progress)
    }

    func forEachElement(of item: JSONItem, _ body: (JSONItem, Int) -> Void) -> Bool {
        guard json.p[item.start] == JSONSyntax.openBracket else { return false }
        guard json.allowsContainer(atLevel: item.level) else {
            giveUp()
            return true
        }
        var next = json.firstItem(afterOpen: item.start, close: JSONSyntax.closeBracket)
        var index = 0
        while case .item(let start)? = next {
            guard let element = self.item(at: start, level: item.level + 1) else {
                giveUp()
                return true
            }
            body(element, index)
            guard let end = end(of: element) else {
                giveUp()
                return true
            }
            index += 1
            next = json.afterItem(end, close: JSONSyntax.closeBracket)
        }
        guard case .closed(let end)? = next else {
            giveUp()
            return true
        }
        learn(item.start, end)
        return true
    }
}
