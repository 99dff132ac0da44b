/// The type of a field as the filter checker sees it (built by the pipeline from the domain
/// schemas of SCHEMAS.md).
public indirect enum FilterFieldType: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Text.
    case string
    /// Any number (integers and doubles alike).
    case number
    /// `true` or `false`.
    case bool
    /// An RFC 3339 instant (`createdAt`).
    case instant
    /// A calendar day `YYYY-MM-DD` (`birthDate`); compared as midnight in the filter's time zone.
    case day
    /// A list of items of one type.
    case list(of: FilterFieldType)
    /// An object with named members.
    case object([String: FilterFieldType])
    /// A string restricted to the given values (`"short" | "medium" | "long"`).
    case enumeration([String])

    /// A short name for messages: `a number`, `a list of objects`, ...
    public var description: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .instant: return "an instant"
        case .day: return "a day"
        case .list(let item): return "a list of " + item.pluralName
        case .object: return "an object"
        case .enumeration(let cases): return "one of " + cases.joined(separator: ", ")
        }
    }

    private var pluralName: String {
        switch self {
        case .string, .enumeration: return "strings"
        case .number: return "numbers"
        case .bool: return "booleans"
        case .instant: return "instants"
        case .day: return "days"
        case .list: return "lists"
        case .object: return "objects"
        }
    }

    /// True for `string` and `enumeration`.
    var isText: Bool {
        switch self {
        case .string, .enumeration: return true
        default: return false
        }
    }

    /// True for `instant` and `day`.
    var isDate: Bool {
        switch self {
        case .instant, .day: return true
        default: return false
        }
    }
}
