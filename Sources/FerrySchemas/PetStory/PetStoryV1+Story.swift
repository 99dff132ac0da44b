import FerryCore
import Foundation

extension PetStoryV1 {
    /// A V1 diary story (collection `stories`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, caption, createdAt, mediaContentIds, songId, lat, lng, taggedMemberIds.
    public struct Story: CollectionModel, FieldCodable {
        public var id: String
        public var caption: String
        public var createdAt: Instant
        public var mediaContentIds: [String]
        public var songId: String?
        public var lat: Double?
        public var lng: Double?
        public var taggedMemberIds: [String]

        /// The collection of these records.
        public static let collection = "stories"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Story", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("caption", .string),
            FieldSchema("createdAt", .instant),
            FieldSchema("mediaContentIds", .array(.string)),
            .optional("songId", .string),
            FieldSchema("lat", .double, isRequired: false),
            FieldSchema("lng", .double, isRequired: false),
            FieldSchema("taggedMemberIds", .array(.string)),
        ])

        public init(id: String, caption: String, createdAt: Instant, mediaContentIds: [String], songId: String? = nil, lat: Double? = nil, lng: Double? = nil, taggedMemberIds: [String]) {
            self.id = id
            self.caption = caption
            self.createdAt = createdAt
            self.mediaContentIds = mediaContentIds
            self.songId = songId
            self.lat = lat
            self.lng = lng
            self.taggedMemberIds = taggedMemberIds
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            caption = r.string("caption")
            createdAt = r.instant("createdAt")
            mediaContentIds = r.stringArray("mediaContentIds")
            songId = r.optionalString("songId")
            lat = r.optionalDouble("lat")
            lng = r.optionalDouble("lng")
            taggedMemberIds = r.stringArray("taggedMemberIds")
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("caption", caption)
            b.add("createdAt", createdAt)
            b.add("mediaContentIds", mediaContentIds)
            b.addOptional("songId", songId)
            b.addOptional("lat", lat)
            b.addOptional("lng", lng)
            b.add("taggedMemberIds", taggedMemberIds)
        }
    }
}
