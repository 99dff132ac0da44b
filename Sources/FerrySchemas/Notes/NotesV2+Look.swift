extension NotesV2 {
    /// How a drink looks: tint and note (V1 `look` split at its first comma).
    ///
    /// Fields in canonical order (SCHEMAS.md): tint, note.
    public struct Look: SchemaModel, FieldCodable {
        public var tint: String
        public var note: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Look", [
            FieldSchema("tint", .string),
            FieldSchema("note", .string),
        ])

        public init(tint: String, note: String) {
            self.tint = tint
            self.note = note
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Look(tint: "", note: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            tint = r.string("tint")
            note = r.string("note")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("tint", tint)
            b.add("note", note)
        }
    }
}
