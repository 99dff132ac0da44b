import FerryCore
import Foundation

extension PetStoryV2 {
    /// A V2 pet (collection `members`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, since, birthDate, species, speciesDetail, sex, bio, createdAt, image.
    public struct FamilyMember: CollectionModel, FieldCodable {
        public var id: String
        public var name: String
        public var since: CalendarDay
        public var birthDate: CalendarDay
        public var species: Species
        public var speciesDetail: String?
        public var sex: Sex
        public var bio: String
        public var createdAt: Instant
        public var image: MediaRef?

        /// The collection of these records.
        public static let collection = "members"
        /// Checked across fields (`problemAcrossFields(in:)`, also after a migration): `birthDate` not after the day of `createdAt`, and the image path.
        public static var checksAcrossFields: Bool { true }
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("FamilyMember", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("name", .string),
            FieldSchema("since", .day),
            FieldSchema("birthDate", .day),
            FieldSchema("species", .enumeration(Species.allCases.map(\.rawValue)), originalName: "type"),
            .optional("speciesDetail", .string),
            FieldSchema("sex", .enumeration(Sex.allCases.map(\.rawValue))),
            FieldSchema("bio", .string),
            FieldSchema("createdAt", .instant),
            .optional("image", .object(MediaRef.recordType)),
        ])

        /// `birthDate` not after the day of `createdAt` in `timeZone` (`birthDateProblem`).
        @inlinable
        public func problemAcrossFields(in timeZone: TimeZone) -> ((RecordContext) -> Diagnostic)? {
            Self.birthDateProblem(birthDate, createdAt: createdAt, in: timeZone)
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("name", name)
            b.add("since", since)
            b.add("birthDate", birthDate)
            b.add("species", species.rawValue)
            b.addOptional("speciesDetail", speciesDetail)
            b.add("sex", sex.rawValue)
            b.add("bio", bio)
            b.add("createdAt", createdAt)
            b.addOptional("image", image)
        }

        /// SCHEMAS.md pet-story V2: a `birthDate` after the day of `createdAt` in `timeZone`
        /// (`--time-zone`) is an error. Nil when the rule holds, else the `invalid-value` error at
        /// `birthDate` that compared `createdAt`, made from the record's context.
        @usableFromInline
        static func birthDateProblem(_ birthDate: CalendarDay, createdAt: Instant, in timeZone: TimeZone)
            -> ((RecordContext) -> Diagnostic)?
        {
            let createdDay = CalendarDay(instant: createdAt, in: timeZone)
            guard birthDate > createdDay else { return nil }
            return { context in
                var problem = Diagnostic.error(.invalidValue,
                    "birthDate \(birthDate) is after the day of createdAt (\(createdDay) in \(context.options.timeZoneName))",
                    at: context.appending("birthDate").location())
                problem.comparedFields = [context.pointer(of: "/createdAt")]
                return problem
            }
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.FamilyMember {
    /// A family member of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, name: String, since: CalendarDay, birthDate: CalendarDay, species: PetStoryV2.Species, speciesDetail: String? = nil, sex: PetStoryV2.Sex, bio: String, createdAt: Instant, image: PetStoryV2.MediaRef? = nil, _: Void = ()) {
        self.init(id: id, name: name, since: since, birthDate: birthDate, species: species, speciesDetail: speciesDetail, sex: sex, bio: bio, createdAt: createdAt, image: image)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            name: r.string("name"),
            since: r.day("since"),
            birthDate: r.day("birthDate"),
            species: PetStoryV2.Species(rawValue: r.string("species")) ?? PetStoryV2.Species.allCases[0],
            speciesDetail: r.optionalString("speciesDetail"),
            sex: PetStoryV2.Sex(rawValue: r.string("sex")) ?? PetStoryV2.Sex.allCases[0],
            bio: r.string("bio"),
            createdAt: r.instant("createdAt"),
            image: r.object("image", as: PetStoryV2.MediaRef.self), ())
        // Across fields, after the image's own problems and before unknown fields (`finish`).
        if r.isValid { r.check(problemAcrossFields(in: r.timeZone)) }
    }
}
