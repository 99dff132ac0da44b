/// One field of a record type, as SCHEMAS.md's tables list it.
public struct FieldSchema: Sendable, Hashable {
    /// The field's name (`alcoholByVolume`).
    public var name: String { didSet { nameBytes = FieldNameBytes(name) } }
    /// `name`'s UTF-8, for readers that compare it with keys in input bytes.
    public private(set) var nameBytes: FieldNameBytes
    public var type: FieldType
    /// False for optionals (`String?`, `Data?`): absent or null means "no value". A required field
    /// that is absent or null is a `missing-field` error.
    public var isRequired: Bool
    /// The closed range of a number (`0...5` for V2 `rating`); nil when unbounded.
    public var range: ClosedRange<Double>?
    /// The step a number must be a multiple of (`0.5` for V2 `rating`); nil for none.
    public var step: Double?
    /// True for fields kept outside the record in bundles (SwiftData's `.externalStorage`: `imageData`).
    public var isExternalStorage: Bool
    /// The V1 field this one was renamed from (SwiftData's `originalName`), for messages and
    /// positions after migration (`alcoholByVolume` <- `alcohol`); nil when it kept its name or is new.
    public var originalName: String?

    public init(
        _ name: String, _ type: FieldType, isRequired: Bool = true, range: ClosedRange<Double>? = nil,
        step: Double? = nil, isExternalStorage: Bool = false, originalName: String? = nil
    ) {
        self.name = name
        self.nameBytes = FieldNameBytes(name)
        self.type = type
        self.isRequired = isRequired
        self.range = range
        self.step = step
        self.isExternalStorage = isExternalStorage
        self.originalName = originalName
    }

    /// An optional field.
    public static func optional(_ name: String, _ type: FieldType, isExternalStorage: Bool = false) -> FieldSchema {
        FieldSchema(name, type, isRequired: false, isExternalStorage: isExternalStorage)
    }
}

extension FieldSchema {
    /// True when `number` lies within `range` (nil: unbounded): the rule `FieldReader` reports as
    /// `out-of-range` (SCHEMAS.md tables: V2 `rating` 0...5, taste `value` 0...1).
    @inline(__always)
    public static func isInRange(_ number: Double, _ range: ClosedRange<Double>?) -> Bool {
        range.map { $0.contains(number) } ?? true
    }

    /// True when `number` is a whole multiple of `step` (nil: any number): the rule `FieldReader`
    /// reports as `invalid-value` (V2 `rating` in steps of 0.5).
    @inline(__always)
    public static func isOnStep(_ number: Double, _ step: Double?) -> Bool {
        guard let step else { return true }
        return (number / step).rounded() == number / step
    }
}

extension FieldType {
    /// True when `text` fits this type as a string: `nonEmptyString` not empty, `url` empty or an
    /// absolute http(s) URL, `enumeration` one of its cases; true for the other types, whose rules
    /// apply to what the text is read as. `FieldReader` reports a misfit as `invalid-value`.
    public func admits(_ text: String) -> Bool {
        switch self {
        case .nonEmptyString: return !text.isEmpty
        case .url: return text.isEmpty || FieldReader.isAbsoluteHTTPURL(text)
        case .enumeration(let cases): return cases.contains(text)
        default: return true
        }
    }
}
