import FerryCore
import Foundation

extension NotesV2 {
    /// One smell.
    ///
    /// Fields in canonical order (SCHEMAS.md): label.
    public struct Smell: SchemaModel {
        public var label: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Smell", [
            FieldSchema("label", .string),
        ])

        public init(label: String) {
            self.label = label
        }

        /// The placeholder of an invalid required value.
        static let placeholder = Smell(label: "")

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            label = r.string("label")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 1)
            b.add("label", label)
            return b.value
        }
    }
}
