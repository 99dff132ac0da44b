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
        for field in fields where field.name == name { return field }
        return nil
    }

    /// The field names in canonical order.
    public var fieldNames: [String] { fields.map(\.name) }
}
