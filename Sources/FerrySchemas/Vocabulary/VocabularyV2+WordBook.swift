import FerryCore
import Foundation

extension VocabularyV2 {
    /// A V2 word book (collection `wordBooks`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, createdAt.
    public struct WordBook: CollectionModel {
        public var id: String
        public var title: String
        public var createdAt: Instant

        /// The collection of these records.
        public static let collection = "wordBooks"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WordBook", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("title", .string),
            FieldSchema("createdAt", .instant, originalName: "timestamp"),
        ])

        public init(id: String, title: String, createdAt: Instant) {
            self.id = id
            self.title = title
            self.createdAt = createdAt
        }

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            id = r.string("id")
            title = r.string("title")
            createdAt = r.instant("createdAt")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 3)
            b.add("id", id)
            b.add("title", title)
            b.add("createdAt", createdAt)
            return b.value
        }
    }
}
