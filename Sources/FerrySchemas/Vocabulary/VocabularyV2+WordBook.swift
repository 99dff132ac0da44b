import FerryCore
import Foundation

extension VocabularyV2 {
    /// A V2 word book (collection `wordBooks`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, createdAt.
    public struct WordBook: CollectionModel, FieldCodable {
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

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            title = r.string("title")
            createdAt = r.instant("createdAt")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("title", title)
            b.add("createdAt", createdAt)
        }
    }
}
