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

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV1.Story {
    /// A story of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, caption: String, createdAt: Instant, mediaContentIds: [String], songId: String? = nil, lat: Double? = nil, lng: Double? = nil, taggedMemberIds: [String], _: Void = ()) {
        self.init(id: id, caption: caption, createdAt: createdAt, mediaContentIds: mediaContentIds, songId: songId, lat: lat, lng: lng, taggedMemberIds: taggedMemberIds)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            caption: r.string("caption"),
            createdAt: r.instant("createdAt"),
            mediaContentIds: r.stringArray("mediaContentIds"),
            songId: r.optionalString("songId"),
            lat: r.optionalDouble("lat"),
            lng: r.optionalDouble("lng"),
            taggedMemberIds: r.stringArray("taggedMemberIds"), ())
    }
}

extension PetStoryV1.Story: ReferringModel {
    /// `taggedMemberIds` names members (`PetStoryDomain.references(collection:version:)`).
    public static var referringFields: [(field: String, keyPath: PartialKeyPath<Self>)] {
        [("taggedMemberIds", \.taggedMemberIds)]
    }
}
