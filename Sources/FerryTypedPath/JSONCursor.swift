import FerryCore
import FerrySchemas
import FormatJSON

/// The `RecordCursor` of a JSON value in a line's bytes: a `ModelReader` over it reads a JSON
/// Lines record's model with no `Value` in between, and reports every problem as it does over the
/// parsed `Value` (`JSONCursorConformanceTests` compare the two).
///
/// On `start(fields:)` an object's members are indexed once: each key's span and where its value
/// starts, every value's grammar checked on the way (`JSONLineValidator`: what `JSONParser`
/// accepts, nesting included). A lookup tries the member after the previous one first, then
/// searches on and wraps around once (simdjson On-Demand's `find_field_unordered`). Scalars are
/// read from their bytes when asked; only a value with a problem is made a `Value`, for the
/// message. An object whose bytes the grammar refuses reads as not well-formed (`isWellFormed`):
/// the caller reports the line as the parser does.
///
/// Holds the line's bytes without copying them: use it only while they live.
struct JSONCursor: RecordCursor {
    typealias Item = Int

    let json: JSONLineValidator
    /// The offset of the value the cursor walks.
    let origin: Int
    /// Its nesting level (1: the line's top-level value).
    let level: Int
    /// False when a member's key or value is not well-formed (checked by `start(fields:)`).
    private(set) var isWellFormed = true
    private var members: [Member] = []
    /// True when some member is not a field or a field appears twice.
    private var isIrregular = false
    /// Where the next lookup starts.
    private var hint = 0

    /// One member: its key's bytes (between the quotes) and where its value starts.
    private struct Member {
        let keyStart: Int
        let keyEnd: Int
        let escaped: Bool
        let value: Int
    }

    /// A cursor over the value at `origin` nested at `level` (1: a JSON Lines line's object, whose
    /// `$collection` members are not its fields).
    init(_ json: JSONLineValidator, at origin: Int, level: Int) {
        self.json = json
        self.origin = origin
        self.level = level
    }

    var isObject: Bool { origin < json.end && json.p[origin] == JSONSyntax.openBrace }

    var wholeValue: Value { value(of: origin) }

    mutating func start(fields: [FieldSchema]) {
        guard isObject, json.allowsContainer(atLevel: level) else {
            isWellFormed = false
            return
        }
        var next = json.firstItem(afterOpen: origin, close: JSONSyntax.closeBrace)
        var seen: UInt64 = 0
        while case .item(let key)? = next {
            guard json.p[key] == JSONSyntax.quote, let (keyEnd, escaped) = json.string(key),
                  let value = json.memberValue(afterKey: keyEnd), let valueEnd = skip(value, level: level + 1)
            else {
                isWellFormed = false
                return
            }
            let member = Member(keyStart: key + 1, keyEnd: keyEnd - 1, escaped: escaped, value: value)
            next = json.afterItem(valueEnd, close: JSONSyntax.closeBrace)
            // The JSON Lines reader takes every `$collection` out of a line's object.
            if level == 1, keyIs(member, "$collection") { continue }
            if let index = fieldIndex(of: member, in: fields), index < 64 {
                let bit: UInt64 = 1 << UInt64(index)
                if seen & bit != 0 { isIrregular = true }
                seen |= bit
            } else {
                isIrregular = true
            }
            members.append(member)
        }
        if next == nil { isWellFormed = false }
    }

    /// The index in `fields` of the field `member` names; nil when none does.
    private func fieldIndex(of member: Member, in fields: [FieldSchema]) -> Int? {
        for i in fields.indices where keyIs(member, fields[i].name) { return i }
        return nil
    }

    /// True when `member`'s key is `name`.
    private func keyIs(_ member: Member, _ name: String) -> Bool {
        if member.escaped { return key(of: member) == name }
        let length = member.keyEnd - member.keyStart
        guard name.utf8.count == length else { return false }
        return name.utf8.elementsEqual(UnsafeBufferPointer(start: json.p + member.keyStart, count: length))
    }

    private func key(of member: Member) -> String {
        ValidatedJSONText(p: json.p, end: member.keyEnd).text(from: member.keyStart, escaped: member.escaped)
    }

    /// The offset past the well-formed value at `i` nested at `level`; nil when the grammar
    /// refuses it.
    private func skip(_ i: Int, level: Int) -> Int? {
        guard i < json.end else { return nil }
        switch json.p[i] {
        case JSONSyntax.quote: return json.string(i)?.end
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return json.literal(i)
        case JSONSyntax.openBrace:
            guard json.allowsContainer(atLevel: level) else { return nil }
            var next = json.firstItem(afterOpen: i, close: JSONSyntax.closeBrace)
            while case .item(let key)? = next {
                guard json.p[key] == JSONSyntax.quote, let (keyEnd, _) = json.string(key),
                      let value = json.memberValue(afterKey: keyEnd), let end = skip(value, level: level + 1)
                else { return nil }
                next = json.afterItem(end, close: JSONSyntax.closeBrace)
            }
            guard case .closed(let end)? = next else { return nil }
            return end
        case JSONSyntax.openBracket:
            guard json.allowsContainer(atLevel: level) else { return nil }
            var next = json.firstItem(afterOpen: i, close: JSONSyntax.closeBracket)
            while case .item(let element)? = next {
                guard let end = skip(element, level: level + 1) else { return nil }
                next = json.afterItem(end, close: JSONSyntax.closeBracket)
            }
            guard case .closed(let end)? = next else { return nil }
            return end
        default: return json.number(i)
        }
    }

    mutating func member(_ name: String, field: Int?) -> Int? {
        let count = members.count
        guard count > 0 else { return nil }
        if isIrregular {
            for m in members where keyIs(m, name) { return m.value }
            return nil
        }
        // Canonical order first, then on from there and around once.
        var i = hint < count ? hint : 0
        for _ in 0..<count {
            if keyIs(members[i], name) {
                hint = i + 1
                return members[i].value
            }
            i = i + 1 == count ? 0 : i + 1
        }
        return nil
    }

    func irregularKeys(fields: [FieldSchema]) -> [String]? {
        isIrregular ? members.map { key(of: $0) } : nil
    }

    func isNull(_ item: Int) -> Bool { json.p[item] == UInt8(ascii: "n") }

    /// The value at `item`, parsed as the JSON Lines reader parses it (only for problems and
    /// rare types; the bytes were checked by `start(fields:)`).
    func value(of item: Int) -> Value {
        let end = skip(item, level: level + 1) ?? json.end
        let bytes = Array(UnsafeBufferPointer(start: json.p + item, count: end - item))
        return (try? JSONText.parse(bytes)) ?? .null
    }

    func text(of item: Int) -> String? {
        guard json.p[item] == JSONSyntax.quote, let (end, escaped) = json.string(item) else { return nil }
        return ValidatedJSONText(p: json.p, end: end - 1).text(from: item + 1, escaped: escaped)
    }

    func plainDouble(_ item: Int, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        let first = json.p[item]
        guard first == JSONSyntax.minus || JSONSyntax.isDigit(first), let (plain, end) = json.decimal(item) else { return nil }
        let number = UnsafeBufferPointer(start: json.p + item, count: end - item)
        guard let d = plain ?? FieldReader.double(numberText: number), d.isFinite,
              FieldSchema.isInRange(d, range), FieldSchema.isOnStep(d, step)
        else { return nil }
        return d == 0 ? 0 : d
    }

    /// `-?[0-9]{1,18}` (which cannot overflow): what `Value.int64Value` reads from the parser's
    /// `.number(text)`; anything else takes the checked path.
    func plainInteger(_ item: Int) -> Int64? {
        var i = item
        let negative = json.p[i] == JSONSyntax.minus
        if negative { i += 1 }
        var magnitude: Int64 = 0
        var digits = 0
        while i < json.end, JSONSyntax.isDigit(json.p[i]) {
            magnitude = magnitude &* 10 &+ Int64(json.p[i] &- JSONSyntax.zero)
            digits += 1
            i += 1
        }
        guard digits > 0, digits <= 18, !(digits > 1 && json.p[item + (negative ? 1 : 0)] == JSONSyntax.zero) else { return nil }
        if i < json.end, json.p[i] == JSONSyntax.dot || json.p[i] | 0x20 == UInt8(ascii: "e") { return nil }
        return negative ? -magnitude : magnitude
    }

    func plainBool(_ item: Int) -> Bool? {
        switch json.p[item] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    func cursor(at item: Int) -> JSONCursor { JSONCursor(json, at: item, level: level + 1) }

    func forEachElement(of item: Int, _ body: (Int, Int) -> Void) -> Bool {
        guard json.p[item] == JSONSyntax.openBracket else { return false }
        var next = json.firstItem(afterOpen: item, close: JSONSyntax.closeBracket)
        var index = 0
        while case .item(let element)? = next, let end = skip(element, level: level + 2) {
            body(element, index)
            index += 1
            next = json.afterItem(end, close: JSONSyntax.closeBracket)
        }
        return true
    }
}
