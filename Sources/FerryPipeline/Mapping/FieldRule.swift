import FerryCore

/// How one target field gets its value from a source record (Docs/mappings.md).
public indirect enum FieldRule: Sendable, Equatable {
    /// The value of a source column (a dotted name such as `Country.of.Origin`), transformed.
    case column(String, FieldTransform)
    /// A constant, of any JSON type (dates as RFC 3339 strings).
    case constant(Value)
    /// Several columns joined with a separator, skipping absent and empty ones; `fallback` when all are.
    case join([String], separator: String, fallback: Value?)
    /// A list whose elements are built by rules; elements that come out absent are left out.
    case list([FieldRule])
    /// A nested object whose members are built by rules; absent constant members are left out, and
    /// the whole object is absent when a member read from a column is.
    case object([(String, FieldRule)])
    /// A UUID version 5 derived from the record's index and the listed columns, for rows without an id.
    case derivedUUID([String])

    public static func == (lhs: FieldRule, rhs: FieldRule) -> Bool {
        switch (lhs, rhs) {
        case let (.column(a, t), .column(b, u)): return a == b && t == u
        case let (.constant(a), .constant(b)): return a == b
        case let (.join(a, s, f), .join(b, t, g)): return a == b && s == t && f == g
        case let (.list(a), .list(b)): return a == b
        case let (.object(a), .object(b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        case let (.derivedUUID(a), .derivedUUID(b)): return a == b
        default: return false
        }
    }

    /// The source columns this rule reads.
    var columns: [String] {
        switch self {
        case .column(let name, _): return [name]
        case .constant: return []
        case .join(let names, _, _): return names
        case .list(let rules): return rules.flatMap(\.columns)
        case .object(let members): return members.flatMap(\.1.columns)
        case .derivedUUID(let names): return names
        }
    }
}

/// What happens to a column's text on its way to the field, in this order: value map, split,
/// number (scale, round), date, fallback.
public struct FieldTransform: Sendable, Equatable {
    /// `"split": ";"`: a list of the trimmed, non-empty parts.
    public var split: String?
    /// `"scale": [fromLow, fromHigh, toLow, toHigh]`: a linear map of the number.
    public var scale: [Double]?
    /// `"round": 0.5`: round to a multiple (after scaling).
    public var round: Double?
    /// `"type": "number" | "integer" | "boolean" | "string"`: the JSON type to produce.
    public var type: String?
    /// `"date": "MMMM d, yyyy"`: parse with a Unicode date pattern (ordinals such as `4th` accepted), write RFC 3339.
    public var date: String?
    /// `"map": {"1": "success"}`: replace whole values.
    public var valueMap: [String: Value]?
    /// `"default"`: the value when the column is absent, empty or a null token.
    public var fallback: Value?
    /// Inside `split`: what each part becomes, e.g. `{"label": "$"}` for `[{"label": part}]`.
    public var each: String?

    public init() {}

    /// True when the transform turns the text into a number.
    var isNumeric: Bool { scale != nil || round != nil || type == "number" || type == "integer" }
}
