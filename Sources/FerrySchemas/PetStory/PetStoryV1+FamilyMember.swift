extension PetStoryV1 {
    /// A V1 pet (collection `members`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, since, birthDate, type, sex, bio, createdAt.
    public struct FamilyMember: CollectionModel, FieldCodable {
        public var id: String
        public var name: String
        public var since: InstantOrDay
        public var birthDate: InstantOrDay
        public var type: MemberType
        public var sex: Sex
        public var bio: String
        public var createdAt: Instant

        /// The collection of these records.
        public static let collection = "members"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("FamilyMember", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("name", .string),
            FieldSchema("since", .instantOrDay),
            FieldSchema("birthDate", .instantOrDay),
            FieldSchema("type", .enumeration(MemberType.allCases.map(\.rawValue))),
            FieldSchema("sex", .enumeration(Sex.allCases.map(\.rawValue))),
            FieldSchema("bio", .string),
            FieldSchema("createdAt", .instant),
        ])

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("name", name)
            b.add("since", since)
            b.add("birthDate", birthDate)
            b.add("type", type.rawValue)
            b.add("sex", sex.rawValue)
            b.add("bio", bio)
            b.add("createdAt", createdAt)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV1.FamilyMember {
    /// A family member of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, name: String, since: InstantOrDay, birthDate: InstantOrDay, type: PetStoryV1.MemberType, sex: PetStoryV1.Sex, bio: String, createdAt: Instant, _: Void = ()) {
        self.init(id: id, name: name, since: since, birthDate: birthDate, type: type, sex: sex, bio: bio, createdAt: createdAt)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            name: r.string("name"),
            since: r.instantOrDay("since"),
            birthDate: r.instantOrDay("birthDate"),
            type: PetStoryV1.MemberType(rawValue: r.string("type")) ?? PetStoryV1.MemberType.allCases[0],
            sex: PetStoryV1.Sex(rawValue: r.string("sex")) ?? PetStoryV1.Sex.allCases[0],
            bio: r.string("bio"),
            createdAt: r.instant("createdAt"), ())
    }
}
