extension NotesV1 {
    /// A cocktail ingredient, the same in V1 and V2 (`NotesV2.Ingredient`): the same fields,
    /// rules and record type name, so one declaration serves both versions.
    ///
    /// Fields in canonical order (SCHEMAS.md): name, amount.
    public struct Ingredient: SchemaModel, FieldCodable {
        public var name: String
        public var amount: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Ingredient", [
            FieldSchema("name", .string),
            FieldSchema("amount", .string),
        ])

        public init(name: String, amount: String) {
            self.name = name
            self.amount = amount
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Ingredient(name: "", amount: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            name = r.string("name")
            amount = r.string("amount")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("name", name)
            b.add("amount", amount)
        }
    }
}
