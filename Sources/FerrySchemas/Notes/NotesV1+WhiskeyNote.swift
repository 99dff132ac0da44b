import FerryCore
import Foundation

extension NotesV1 {
    /// A V1 whiskey note (collection `whiskeyNotes`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, category, createdAt, imageData, alcohol, look, smells, tastes, finish, think, rating, isFavorite.
    public struct WhiskeyNote: CollectionModel, FieldCodable {
        public var id: String?
        public var title: String
        public var category: String
        public var createdAt: Instant
        public var imageData: Base64Data?
        public var alcohol: Double
        public var look: String
        public var smells: [String]
        public var tastes: [Taste]
        public var finish: Finish
        public var think: String
        public var rating: Double
        public var isFavorite: Bool

        /// The collection of these records.
        public static let collection = "whiskeyNotes"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WhiskeyNote", [
            .optional("id", .nonEmptyString),
            FieldSchema("title", .string),
            FieldSchema("category", .string),
            FieldSchema("createdAt", .instant),
            .optional("imageData", .data, isExternalStorage: true),
            FieldSchema("alcohol", .double),
            FieldSchema("look", .string),
            FieldSchema("smells", .array(.string)),
            FieldSchema("tastes", .array(.object(Taste.recordType))),
            FieldSchema("finish", .object(Finish.recordType)),
            FieldSchema("think", .string),
            FieldSchema("rating", .double),
            FieldSchema("isFavorite", .bool),
        ])

        public init(id: String? = nil, title: String, category: String, createdAt: Instant, imageData: Base64Data? = nil, alcohol: Double, look: String, smells: [String], tastes: [Taste], finish: Finish, think: String, rating: Double, isFavorite: Bool) {
            self.id = id
            self.title = title
            self.category = category
            self.createdAt = createdAt
            self.imageData = imageData
            self.alcohol = alcohol
            self.look = look
            self.smells = smells
            self.tastes = tastes
            self.finish = finish
            self.think = think
            self.rating = rating
            self.isFavorite = isFavorite
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.optionalString("id")
            title = r.string("title")
            category = r.string("category")
            createdAt = r.instant("createdAt")
            imageData = r.data("imageData")
            alcohol = r.double("alcohol")
            look = r.string("look")
            smells = r.stringArray("smells")
            tastes = r.array("tastes", of: Taste.self)
            finish = r.object("finish", as: Finish.self) ?? Finish.placeholder
            think = r.string("think")
            rating = r.double("rating")
            isFavorite = r.bool("isFavorite")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.addOptional("id", id)
            b.add("title", title)
            b.add("category", category)
            b.add("createdAt", createdAt)
            b.addOptional("imageData", imageData)
            b.add("alcohol", alcohol)
            b.add("look", look)
            b.add("smells", smells)
            b.add("tastes", tastes)
            b.add("finish", finish)
            b.add("think", think)
            b.add("rating", rating)
            b.add("isFavorite", isFavorite)
        }
    }
}
