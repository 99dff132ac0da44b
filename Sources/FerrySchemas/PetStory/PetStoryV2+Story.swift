import FerryCore
import Foundation

extension PetStoryV2 {
    /// A V2 diary story (collection `stories`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, caption, createdAt, media, songId, location, taggedMemberIds.
    public struct Story: CollectionModel, FieldCodable {
        public var id: String
        public var caption: String
        public var createdAt: Instant
        public var media: [MediaItem]
        public var songId: String?
        public var location: GeoLocation?
        public var taggedMemberIds: [String]

        /// The collection of these records.
        public static let collection = "stories"
        /// Checked across fields after a migration: each media item's path (`MediaItem.problemAcrossFields(in:)`).
        public static var checksAcrossFields: Bool { true }
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Story", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("caption", .string),
            FieldSchema("createdAt", .instant),
            FieldSchema("media", .array(.object(MediaItem.recordType)), originalName: "mediaContentIds"),
            .optional("songId", .string),
            .optional("location", .object(GeoLocation.recordType)),
            FieldSchema("taggedMemberIds", .array(.string)),
        ])

        public init(id: String, caption: String, createdAt: Instant, media: [MediaItem], songId: String? = nil, location: GeoLocation? = nil, taggedMemberIds: [String]) {
            self.id = id
            self.caption = caption
            self.createdAt = createdAt
            self.media = media
            self.songId = songId
            self.location = location
            self.taggedMemberIds = taggedMemberIds
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            caption = r.string("caption")
            createdAt = r.instant("createdAt")
            media = r.array("media", of: MediaItem.self)
            songId = r.optionalString("songId")
            location = r.object("location", as: GeoLocation.self)
            taggedMemberIds = r.stringArray("taggedMemberIds")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("caption", caption)
            b.add("createdAt", createdAt)
            b.add("media", media)
            b.addOptional("songId", songId)
            b.addOptional("location", location)
            b.add("taggedMemberIds", taggedMemberIds)
        }
    }
}
