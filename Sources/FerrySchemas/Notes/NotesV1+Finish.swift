import FerryCore
import Foundation

extension NotesV1 {
    /// A V1 whiskey finish: free-text length and note.
    ///
    /// Fields in canonical order (SCHEMAS.md): length, note.
    public struct Finish: SchemaModel {
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
        static let placeholder = Finish(length: "", note: "")

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            length = r.string("length")
            note = r.string("note")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 2)
            b.add("length", length)
            b.add("note", note)
            return b.value
        }
    }
}
