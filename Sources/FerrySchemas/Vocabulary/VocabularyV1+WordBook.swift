import FerryCore
import Foundation

extension VocabularyV1 {
    /// A V1 word book (collection `wordBooks`, Firestore-shaped).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, timestamp.
    public struct WordBook: CollectionModel {
        public var id: String?
        public var title: String
        public var timestamp: FirestoreTimestamp

        /// The collection of these records.
        public static let collection = "wordBooks"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WordBook", [
            .optional("id", .string),
            FieldSchema("title", .string),
            FieldSchema("timestamp", .timestamp),
        ])

        public init(id: String? = nil, title: String, timestamp: FirestoreTimestamp) {
            self.id = id
            self.title = title
            self.timestamp = timestamp
        }

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            id = r.optionalString("id")
            title = r.string("title")
            timestamp = r.timestamp("timestamp") ?? FirestoreTimestamp(instant: .epoch)
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 3)
            b.addOptional("id", id)
            b.add("title", title)
            b.add("timestamp", timestamp.value)
            return b.value
        }
    }
}
