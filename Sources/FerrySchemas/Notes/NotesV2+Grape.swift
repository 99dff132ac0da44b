extension NotesV2 {
    /// A wine's grape.
    ///
    /// Fields in canonical order (SCHEMAS.md): variety.
    public struct Grape: SchemaModel, FieldCodable {
        public var variety: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Grape", [
            FieldSchema("variety", .string),
        ])

        public init(variety: String) {
            self.variety = variety
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Grape(variety: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            variety = r.string("variety")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("variety", variety)
        }
    }
}
