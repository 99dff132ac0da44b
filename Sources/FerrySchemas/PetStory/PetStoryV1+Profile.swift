import FerryCore
import Foundation

extension PetStoryV1 {
    /// A V1 owner profile (collection `profiles`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, createdAt, lastUpdatedAt.
    public struct Profile: CollectionModel {
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

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            id = r.string("id")
            name = r.string("name")
            createdAt = r.instant("createdAt")
            lastUpdatedAt = r.instant("lastUpdatedAt")
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 4)
            b.add("id", id)
            b.add("name", name)
            b.add("createdAt", createdAt)
            b.add("lastUpdatedAt", lastUpdatedAt)
            return b.value
        }
    }
}
