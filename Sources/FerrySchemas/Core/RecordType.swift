/// A record type (`WineTastingNote`) or a nested object type (`Taste`): its fields in canonical order.
public struct RecordType: Sendable, Hashable {
    /// The type's name as SCHEMAS.md writes it; XML names record elements after it.
    public var name: String
    /// The fields in canonical order (writers emit this order).
    public var fields: [FieldSchema]

    public init(_ name: String, _ fields: [FieldSchema]) {
        self.name = name
        self.fields = fields
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
