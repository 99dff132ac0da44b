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

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("name", name)
            b.add("createdAt", createdAt)
            b.add("lastUpdatedAt", lastUpdatedAt)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV1.Profile {
    /// A profile of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, name: String, createdAt: Instant, lastUpdatedAt: Instant, _: Void = ()) {
        self.init(id: id, name: name, createdAt: createdAt, lastUpdatedAt: lastUpdatedAt)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            name: r.string("name"),
            createdAt: r.instant("createdAt"),
            lastUpdatedAt: r.instant("lastUpdatedAt"), ())
    }
}
