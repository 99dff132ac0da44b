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

        public init(id: String, name: String, since: CalendarDay, birthDate: CalendarDay, species: Species, speciesDetail: String? = nil, sex: Sex, bio: String, createdAt: Instant, image: MediaRef? = nil) {
            self.id = id
            self.name = name
            self.since = since
            self.birthDate = birthDate
            self.species = species
            self.speciesDetail = speciesDetail
            self.sex = sex
            self.bio = bio
            self.createdAt = createdAt
            self.image = image
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            name = r.string("name")
            since = r.day("since")
            birthDate = r.day("birthDate")
            species = Species(rawValue: r.string("species")) ?? Species.allCases[0]
            speciesDetail = r.optionalString("speciesDetail")
            sex = Sex(rawValue: r.string("sex")) ?? Sex.allCases[0]
            bio = r.string("bio")
            createdAt = r.instant("createdAt")
            image = r.object("image", as: MediaRef.self)
            // Across fields, after the image's own problems and before unknown fields (`finish`).
            if r.isValid { r.check(problemAcrossFields(in: r.timeZone)) }
        }

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
