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
        /// The type's name.
        public var name: String { namePointer.pointee }
    }

    public init(_ name: String, _ fields: [FieldSchema]) {
        self.name = name
        self.fields = fields
        tableStorage = FieldTableStorage(name, fields)
        table = Table(fields: UnsafeBufferPointer(tableStorage.table), namePointer: UnsafePointer(tableStorage.name))
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

    init(_ name: String, _ fields: [FieldSchema]) {
        table = .allocate(capacity: fields.count)
        _ = table.initialize(from: fields)
        self.name = .allocate(capacity: 1)
        self.name.initialize(to: name)
    }

    deinit {
        table.deinitialize()
        table.deallocate()
        name.deinitialize(count: 1)
        name.deallocate()
    }
}
