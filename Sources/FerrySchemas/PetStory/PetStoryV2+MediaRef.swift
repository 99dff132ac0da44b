import FerryCore
import Foundation

extension PetStoryV2 {
    /// A media file: its path relative to the dataset root with "/" separators (`media/MemberImages/m1.jpeg`).
    ///
    /// Fields in canonical order (SCHEMAS.md): path.
    public struct MediaRef: SchemaModel {
        public var path: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("MediaRef", [
            FieldSchema("path", .nonEmptyString),
        ])

        public init(path: String) {
            self.path = path
        }

        /// The placeholder of an invalid required value.
        static let placeholder = MediaRef(path: "")

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            path = r.string("path")
            FieldReader.checkMediaPath(path, at: context.appending("path"), into: &r.diagnostics)
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 1)
            b.add("path", path)
            return b.value
        }
    }
}
