import FerryCore
import Foundation

extension NotesV2 {
    /// A wine's grape.
    ///
    /// Fields in canonical order (SCHEMAS.md): variety.
    public struct Grape: SchemaModel {
        public var variety: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Grape", [
            FieldSchema("variety", .string),
        ])

        public init(variety: String) {
            self.variety = variety
        }

        /// The placeholder of an invalid required value.
        static let placeholder = Grape(variety: "")

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            variety = r.string("variety")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 1)
            b.add("variety", variety)
            return b.value
        }
    }
}
