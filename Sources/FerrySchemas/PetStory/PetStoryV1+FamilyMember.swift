import FerryCore
import Foundation

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

        public init(id: String, name: String, since: InstantOrDay, birthDate: InstantOrDay, type: MemberType, sex: Sex, bio: String, createdAt: Instant) {
            self.id = id
            self.name = name
            self.since = since
            self.birthDate = birthDate
            self.type = type
            self.sex = sex
            self.bio = bio
            self.createdAt = createdAt
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            name = r.string("name")
            since = r.instantOrDay("since")
            birthDate = r.instantOrDay("birthDate")
            type = MemberType(rawValue: r.string("type")) ?? MemberType.allCases[0]
            sex = Sex(rawValue: r.string("sex")) ?? Sex.allCases[0]
            bio = r.string("bio")
            createdAt = r.instant("createdAt")
        }

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
