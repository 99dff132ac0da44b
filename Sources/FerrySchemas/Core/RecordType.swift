/// A record type (`WineTastingNote`) or a nested object type (`Taste`): its fields in canonical order.
///
/// `@unchecked Sendable`: `table` points into storage this type owns and never changes.
public struct RecordType: @unchecked Sendable, Hashable {
    /// The type's name as SCHEMAS.md writes it; XML names record elements after it.
    public let name: String
    /// The fields in canonical order (writers emit this order).
    public let fields: [FieldSchema]
    /// `name` and `fields` again, in storage of their own that stays put while any copy of this
    /// type lives (a model's `recordType` is a stored constant: for the whole run). Readers on
    /// worker threads hold a model's type as these two pointers, which count no reference:
    /// `fields` copied for every record by two threads would write the array's reference count
    /// from both cores, its cache line moving between them each time.
    public let table: Table
    private let tableStorage: FieldTableStorage

    /// A record type's name and fields by pointer, valid while a copy of the type lives.
    public struct Table {
        /// The fields in canonical order.
        public let fields: UnsafeBufferPointer<FieldSchema>
        /// Where the type's name is kept.
        let namePointer: UnsafePointer<String>
        /// How each field (same order) admits a string.
        public let admissions: UnsafeBufferPointer<TextAdmission>
        /// The type's name.
        public var name: String { namePointer.pointee }
    }

    public init(_ name: String, _ fields: [FieldSchema]) {
        self.name = name
        self.fields = fields
        tableStorage = FieldTableStorage(name, fields)
        table = Table(fields: UnsafeBufferPointer(tableStorage.table), namePointer: UnsafePointer(tableStorage.name),
                      admissions: UnsafeBufferPointer(tableStorage.admissions))
    }

    public static func == (a: RecordType, b: RecordType) -> Bool { a.name == b.name && a.fields == b.fields }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(fields)
    }

    /// The field named `name`, if the type has it.
    public func field(named name: String) -> FieldSchema? {
        index(ofField: name).map { fields[$0] }
    }

    /// The index in `fields` of the field named `name`, if the type has it. Compares the names in
    /// place (iterating `fields` would copy every schema on the way).
    public func index(ofField name: String) -> Int? {
        for i in fields.indices where fields[i].name == name { return i }
        return nil
    }

    /// The field names in canonical order.
    public var fieldNames: [String] { fields.map(\.name) }
}

/// The storage of `RecordType.table`, freed with the last copy of its type.
private final class FieldTableStorage: @unchecked Sendable {
    // @unchecked: written once, in `init`.
    let table: UnsafeMutableBufferPointer<FieldSchema>
    let name: UnsafeMutablePointer<String>
    let admissions: UnsafeMutableBufferPointer<TextAdmission>
    /// The cases of the enumeration fields, which `admissions` point into.
    private let cases: [UnsafeMutableBufferPointer<String>]

    init(_ name: String, _ fields: [FieldSchema]) {
        table = .allocate(capacity: fields.count)
        _ = table.initialize(from: fields)
        self.name = .allocate(capacity: 1)
        self.name.initialize(to: name)
        var cases: [UnsafeMutableBufferPointer<String>] = []
        admissions = .allocate(capacity: fields.count)
        _ = admissions.initialize(from: fields.map { field in
            switch field.type {
            case .string: return .any
            case .nonEmptyString: return .nonEmpty
            case .url: return .url
            case .enumeration(let values):
                let stored = UnsafeMutableBufferPointer<String>.allocate(capacity: values.count)
                _ = stored.initialize(from: values)
                cases.append(stored)
                return .cases(UnsafeBufferPointer(stored))
            default: return .notText
            }
        })
        self.cases = cases
    }

    deinit {
        admissions.deinitialize()
        admissions.deallocate()
        for stored in cases {
            stored.deinitialize()
            stored.deallocate()
        }
        table.deinitialize()
        table.deallocate()
        name.deinitialize(count: 1)
        name.deallocate()
    }
}

/// How a field admits a string value (`FieldType.admits(_:)`), held without the type's payload:
/// an enumeration's cases are read in the record type's own storage, where taking them out of the
/// `FieldType` retained their array once a record, a reference count every worker thread wrote.
public enum TextAdmission {
    /// `string`: every string.
    case any
    /// `nonEmptyString`: every string but "".
    case nonEmpty
    /// `url`: "" or an absolute http(s) URL.
    case url
    /// `enumeration`: one of these cases.
    case cases(UnsafeBufferPointer<String>)
    /// A type whose value is not a string (`FieldReader.isTextType` is false); `admits` is true,
    /// as `FieldType.admits(_:)` is for it.
    case notText

    /// True for the types whose value is a string (`FieldReader.isTextType`).
    @inlinable
    public var isText: Bool {
        if case .notText = self { return false }
        return true
    }

    /// `FieldType.admits(_:)` of the field's type: the plain cases in line, a URL or a case
    /// looked up out of line.
    @inlinable @inline(__always)
    public func admits(_ text: String) -> Bool {
        switch self {
        case .any, .notText: return true
        case .nonEmpty: return !text.isEmpty
        case .url, .cases: return checks(text)
        }
    }

    @usableFromInline
    func checks(_ text: String) -> Bool {
        switch self {
        case .url: return text.isEmpty || FieldReader.isAbsoluteHTTPURL(text)
        case .cases(let values):
            for i in values.indices where values[i] == text { return true }
            return false
        default: return true
        }
    }
}
