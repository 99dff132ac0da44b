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

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.Story {
    /// A story of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, caption: String, createdAt: Instant, media: [PetStoryV2.MediaItem], songId: String? = nil, location: PetStoryV2.GeoLocation? = nil, taggedMemberIds: [String], _: Void = ()) {
        self.init(id: id, caption: caption, createdAt: createdAt, media: media, songId: songId, location: location, taggedMemberIds: taggedMemberIds)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            caption: r.string("caption"),
            createdAt: r.instant("createdAt"),
            media: r.array("media", of: PetStoryV2.MediaItem.self),
            songId: r.optionalString("songId"),
            location: r.object("location", as: PetStoryV2.GeoLocation.self),
            taggedMemberIds: r.stringArray("taggedMemberIds"), ())
    }
}

extension PetStoryV2.Story: ReferringModel {
    /// `taggedMemberIds` names members (`PetStoryDomain.references(collection:version:)`).
    public static var referringFields: [(field: String, keyPath: PartialKeyPath<Self>)] {
        [("taggedMemberIds", \.taggedMemberIds)]
    }
}
