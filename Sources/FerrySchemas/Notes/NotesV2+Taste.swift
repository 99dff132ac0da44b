extension NotesV2 {
    /// A taste: a label and a value in 0...1.
    ///
    /// Fields in canonical order (SCHEMAS.md): label, value.
    public struct Taste: SchemaModel, FieldCodable {
        public var label: String
        public var score: Double  // field "value"

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Taste", [
            FieldSchema("label", .string),
            FieldSchema("value", .double, range: 0...1),
        ])

        public init(label: String, score: Double) {
            self.label = label
            self.score = score
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Taste(label: "", score: 0)

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            label = r.string("label")
            score = r.double("value")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("label", label)
            b.add("value", score)
        }
    }
}
