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

/// The text of a string and the lists of a line, read where they stand (the model's reads are
/// built on them).
extension JSONFieldSource {
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
}
