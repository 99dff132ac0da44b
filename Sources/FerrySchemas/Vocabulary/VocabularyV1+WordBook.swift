import FerryCore
import Foundation

extension VocabularyV1 {
    /// A V1 word book (collection `wordBooks`, Firestore-shaped).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, timestamp.
    public struct WordBook: CollectionModel, FieldCodable {
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

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.optionalString("id")
            title = r.string("title")
            timestamp = r.timestamp("timestamp") ?? FirestoreTimestamp(instant: .epoch)
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.addOptional("id", id)
            b.add("title", title)
            b.add("timestamp", timestamp.value)  // a Timestamp object, as the V1 app wrote it
        }
    }
}
