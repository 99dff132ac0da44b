import FerryCore
import Foundation

extension NotesV2 {
    /// How a drink looks: tint and note (V1 `look` split at its first comma).
    ///
    /// Fields in canonical order (SCHEMAS.md): tint, note.
    public struct Look: SchemaModel {
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
        static let placeholder = Look(tint: "", note: "")

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            tint = r.string("tint")
            note = r.string("note")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 2)
            b.add("tint", tint)
            b.add("note", note)
            return b.value
        }
    }
}
