extension NotesV1 {
    /// A V1 whiskey finish: free-text length and note.
    ///
    /// Fields in canonical order (SCHEMAS.md): length, note.
    public struct Finish: SchemaModel, FieldCodable {
        public var length: String
        public var note: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Finish", [
            FieldSchema("length", .string),
            FieldSchema("note", .string),
        ])

        public init(length: String, note: String) {
            self.length = length
            self.note = note
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Finish(length: "", note: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            length = r.string("length")
            note = r.string("note")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("length", length)
            b.add("note", note)
        }
    }
}
