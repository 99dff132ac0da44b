import FerryCore

/// Compact JSON text of a `Value` for reports (`ferry diff`): members in their order, numbers in
/// their written form (RFC 8785's form for doubles), strings escaped as `ReportFormat.quote` does.
enum JSONValueText {
    static func compact(_ value: Value) -> String {
        var out = ""
        append(value, to: &out)
        return out
    }

    private static func append(_ value: Value, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let integer): out += String(integer)
        case .double(let double): out += NumberText.ecmaScript(double) ?? "null"
        case .number(let text): out += text
        case .string(let text): out += ReportFormat.quote(text)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                append(element, to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (index, member) in object.enumerated() {
                if index > 0 { out += ", " }
                out += ReportFormat.quote(member.key) + ": "
                append(member.value, to: &out)
            }
            out += "}"
        }
    }
}
