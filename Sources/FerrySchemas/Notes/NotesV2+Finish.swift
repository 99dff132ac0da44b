extension NotesV2 {
    /// A whiskey finish: length short, medium or long, and a note.
    ///
    /// Fields in canonical order (SCHEMAS.md): length, note.
    public struct Finish: SchemaModel, FieldCodable {
        public var length: FinishLength
        public var note: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Finish", [
            FieldSchema("length", .enumeration(FinishLength.allCases.map(\.rawValue))),
            FieldSchema("note", .string),
        ])

        public init(length: FinishLength, note: String) {
            self.length = length
            self.note = note
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = Finish(length: FinishLength.allCases[0], note: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            length = FinishLength(rawValue: r.string("length")) ?? FinishLength.allCases[0]
            note = r.string("note")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("length", length.rawValue)
            b.add("note", note)
        }
    }
}
