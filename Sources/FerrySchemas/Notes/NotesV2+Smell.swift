extension NotesV2 {
    /// One smell.
    ///
    /// Fields in canonical order (SCHEMAS.md): label.
    public struct Smell: SchemaModel, FieldCodable {
        public var label: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Smell", [
            FieldSchema("label", .string),
        ])

        public init(label: String) {
            self.label = label
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Smell(label: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            label = r.string("label")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("label", label)
        }
    }
}
