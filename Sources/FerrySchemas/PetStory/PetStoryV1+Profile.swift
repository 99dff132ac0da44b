import FerryCore
import Foundation

extension PetStoryV1 {
    /// A V1 owner profile (collection `profiles`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, createdAt, lastUpdatedAt.
    public struct Profile: CollectionModel, FieldCodable {
        public var id: String
        public var name: String
        public var createdAt: Instant
        public var lastUpdatedAt: Instant

        /// The collection of these records.
        public static let collection = "profiles"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Profile", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("name", .string),
            FieldSchema("createdAt", .instant),
            FieldSchema("lastUpdatedAt", .instant),
        ])

        public init(id: String, name: String, createdAt: Instant, lastUpdatedAt: Instant) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.lastUpdatedAt = lastUpdatedAt
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            name = r.string("name")
            createdAt = r.instant("createdAt")
            lastUpdatedAt = r.instant("lastUpdatedAt")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("name", name)
            b.add("createdAt", createdAt)
            b.add("lastUpdatedAt", lastUpdatedAt)
        }
    }
}
