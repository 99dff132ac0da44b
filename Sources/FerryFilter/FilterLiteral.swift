import FerryCore

/// A constant written in a filter: `NIL`/`NULL`, `TRUE`/`YES`, `FALSE`/`NO`, a number, a string.
///
/// Numbers keep their source text exactly (`4`, `4.50`, `-1e3`), as `Value.number` does.
public enum FilterLiteral: Codable, Sendable, Hashable, CustomStringConvertible {
    /// `NIL` or `NULL`.
    case null
    /// `TRUE`/`YES` or `FALSE`/`NO`.
    case bool(Bool)
    /// A number's source text.
    case number(String)
    /// A string, escapes resolved.
    case string(String)

    /// The literal as a `Value` (numbers as `.number(text)`).
    public var value: Value {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text): return .number(text)
        case .string(let s): return .string(s)
        }
    }

    /// The literal in filter syntax: `NIL`, `TRUE`, `4.5`, `"a \"b\""`.
    public var description: String {
        switch self {
        case .null: return "NIL"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .number(let text): return text
        case .string(let s): return FilterLiteral.quoted(s)
        }
    }

    /// A double-quoted string literal with `\"`, `\\`, `\n`, `\t`, `\r` and `\uXXXX` (other
    /// control characters) escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
