import FerryCore
import FerrySchemas
import FormatJSON

/// Where one string value stands in a JSON Lines line: its content is `p[start ..< end]`, between
/// the quotes, checked by `JSONLineValidator.string`; `escaped` when it holds a backslash escape.
struct JSONStringSpan {
    let start: Int
    let end: Int
    let escaped: Bool

    /// The number of bytes between the quotes (0: the empty string; an escaped string is never empty).
    var count: Int { end - start }
}

/// The reads of `NotesLineMigration` (issue 7): the members of a line found and checked as
/// `JSONFieldSource`'s model reads find and check them (the same cursor, the same required and
/// null rules, the same grammar), but handed out as where their bytes stand rather than as
/// `String`s and arrays, so that a transcoder can copy them.
extension JSONFieldSource {
    /// The string member `name`: where it stands; nil when it is absent or null (then failed when
    /// the field is required) or not a string the parser accepts (failed).
    mutating func stringSpan(_ name: String) -> JSONStringSpan? {
        guard let (_, value) = locate(name) else { return nil }
        guard let span = stringElement(at: value) else {
            fail()
            return nil
        }
        advance(span.end + 1)
        return span
    }

    /// The string at `i` (its opening quote) where it stands; nil for a non-string or one the
    /// parser refuses.
    func stringElement(at i: Int) -> JSONStringSpan? {
        guard json.p[i] == JSONSyntax.quote, let (end, escaped) = json.string(i) else { return nil }
        return JSONStringSpan(start: i + 1, end: end - 1, escaped: escaped)
    }

    /// The text of `span` as the model's read makes it (`ValidatedJSONText`, unescaped).
    func text(_ span: JSONStringSpan) -> String {
        ValidatedJSONText(p: json.p, end: span.end).text(from: span.start, escaped: span.escaped)
    }

    /// Calls `element` with the offset of each element of the list member `name`, in order; it
    /// returns the offset just past the element, or nil to fail the list. True when the list was
    /// read whole or is absent or null (as `JSONFieldSource`'s lists: [] then); false, failed,
    /// for anything else (not a list, nested too deeply, a separator the parser refuses).
    @inline(__always)
    mutating func forEachElement(_ name: String, _ element: (Self, Int) -> Int?) -> Bool {
        guard let (_, value) = locate(name) else { return !failed }
        guard json.p[value] == JSONSyntax.openBracket, json.allowsContainer(atLevel: level + 1) else {
            fail()
            return false
        }
        var next = json.firstItem(afterOpen: value, close: JSONSyntax.closeBracket)
        while case .item(let i) = next {
            guard let end = element(self, i) else {
                fail()
                return false
            }
            next = json.afterItem(end, close: JSONSyntax.closeBracket)
        }
        guard case .closed(let end) = next else {
            fail()
            return false
        }
        advance(end)
        return true
    }

    /// Reads the object at `start` (nil unless its opening brace is there) as a record of `fields`
    /// nested at `level` (1: the line's object; a member's object is one deeper, an object in a
    /// member's list two): `body` reads its members in order. The offset past its closing brace;
    /// nil when `body` returns false or a member is left unread (as `finish()`).
    func object(at start: Int, fields: UnsafeBufferPointer<FieldSchema>, level: Int,
        _ body: (inout JSONFieldSource) -> Bool) -> Int?
    {
        guard json.p[start] == JSONSyntax.openBrace else { return nil }
        var source = JSONFieldSource(
            validator: json, members: json.firstItem(afterOpen: start, close: JSONSyntax.closeBrace), level: level,
            fields: fields, timeZone: timeZoneStorage, strings: strings)
        guard body(&source), source.finish() else { return nil }
        return source.cursor + 1
    }

    /// The object member `name`, read by `body` as a record of `fields`. True when it was read
    /// whole; false (failed) when it is absent or null, not an object, or `body` or the object's
    /// end fails. (Every object field of a note is required.)
    mutating func objectMember(_ name: String, fields: UnsafeBufferPointer<FieldSchema>,
        _ body: (inout JSONFieldSource) -> Bool) -> Bool
    {
        guard let (_, value) = locate(name) else {
            fail()
            return false
        }
        guard let end = object(at: value, fields: fields, level: level + 1, body) else {
            fail()
            return false
        }
        advance(end)
        return true
    }
}
