/// The type of a field in a schema descriptor (SCHEMAS.md tables). Used by the typed decoders, the
/// CSV and XML adapters, JSON Schema export and the filter language.
public indirect enum FieldType: Sendable, Hashable {
    /// Any string.
    case string
    /// A string that must not be empty (V2 `title`, V2 ids).
    case nonEmptyString
    /// An integer (Int64); `1.0` is accepted, `1.5` and integers beyond Int64 are `type-error`s.
    case integer
    /// A finite double, written in ECMAScript form.
    case double
    case bool
    /// An RFC 3339 instant (or a numeric date read with `--date-strategy`), written in UTC.
    case instant
    /// A calendar day `YYYY-MM-DD`.
    case day
    /// V1 pet-story `since` / `birthDate`: an instant or a day.
    case instantOrDay
    /// Bytes as standard base64 with padding.
    case data
    /// A Firestore Timestamp object (vocabulary V1).
    case timestamp
    /// `""` or an absolute `http` / `https` URL.
    case url
    /// One of the listed strings.
    case enumeration([String])
    /// A nested object of the given record type.
    case object(RecordType)
    /// A list of the element type.
    case array(FieldType)

    /// A short name for messages and JSON Schema: `string`, `number`, `instant`, `array`, ...
    public var name: String {
        switch self {
        case .string, .nonEmptyString: return "string"
        case .integer: return "integer"
        case .double: return "number"
        case .bool: return "boolean"
        case .instant: return "instant"
        case .day: return "day"
        case .instantOrDay: return "instant or day"
        case .data: return "base64"
        case .timestamp: return "timestamp"
        case .url: return "url"
        case .enumeration: return "enumeration"
        case .object(let type): return type.name
        case .array(let element): return "[\(element.name)]"
        }
    }
}
