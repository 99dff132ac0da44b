import FerryCore
import Foundation

extension PetStoryV2 {
    /// A V2 owner profile (collection `profiles`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, createdAt, lastUpdatedAt, image.
    public struct Profile: CollectionModel {
        public var id: String
        public var name: String
        public var createdAt: Instant
        public var lastUpdatedAt: Instant
        public var image: MediaRef?

        /// The collection of these records.
        public static let collection = "profiles"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Profile", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("name", .string),
            FieldSchema("createdAt", .instant),
            FieldSchema("lastUpdatedAt", .instant),
            .optional("image", .object(MediaRef.recordType)),
        ])

        public init(id: String, name: String, createdAt: Instant, lastUpdatedAt: Instant, image: MediaRef? = nil) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.lastUpdatedAt = lastUpdatedAt
            self.image = image
        }

        public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
            var r = FieldReader(value, type: Self.recordType, at: context)
            id = r.string("id")
            name = r.string("name")
            createdAt = r.instant("createdAt")
            lastUpdatedAt = r.instant("lastUpdatedAt")
            image = r.object("image") { MediaRef(value: $0, at: $1, diagnostics: &$2) }
            if r.isValid, lastUpdatedAt < createdAt {
                let field = context.appending("lastUpdatedAt")
                r.diagnostics.append(.error(.invalidValue, "lastUpdatedAt \(lastUpdatedAt) is before createdAt \(createdAt)", at: field.location()))
            }
            r.finish(into: &diagnostics)
        }

        public var value: Value {
            var b = ObjectBuilder(capacity: 5)
            b.add("id", id)
            b.add("name", name)
            b.add("createdAt", createdAt)
            b.add("lastUpdatedAt", lastUpdatedAt)
            b.addOptional("image", image)
            return b.value
        }
    }
}
