import FerryCore
import Foundation

extension PetStoryV2 {
    /// A V2 owner profile (collection `profiles`).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, name, createdAt, lastUpdatedAt, image.
    public struct Profile: CollectionModel, FieldCodable {
        public var id: String
        public var name: String
        public var createdAt: Instant
        public var lastUpdatedAt: Instant
        public var image: MediaRef?

        /// The collection of these records.
        public static let collection = "profiles"
        /// Checked across fields (`problemAcrossFields(in:)`, also after a migration): `lastUpdatedAt` not before `createdAt`, and the image path.
        public static var checksAcrossFields: Bool { true }
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Profile", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("name", .string),
            FieldSchema("createdAt", .instant),
            FieldSchema("lastUpdatedAt", .instant),
            .optional("image", .object(MediaRef.recordType)),
        ])

        /// `lastUpdatedAt` not before `createdAt` (`updateOrderProblem`).
        @inlinable
        public func problemAcrossFields(in timeZone: TimeZone) -> ((RecordContext) -> Diagnostic)? {
            Self.updateOrderProblem(createdAt: createdAt, lastUpdatedAt: lastUpdatedAt)
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("name", name)
            b.add("createdAt", createdAt)
            b.add("lastUpdatedAt", lastUpdatedAt)
            b.addOptional("image", image)
        }

        /// SCHEMAS.md pet-story V2: `lastUpdatedAt` is not before `createdAt`. Nil when that holds,
        /// else the `invalid-value` error at `lastUpdatedAt` that compared `createdAt`, made from the
        /// record's context.
        @usableFromInline
        static func updateOrderProblem(createdAt: Instant, lastUpdatedAt: Instant) -> ((RecordContext) -> Diagnostic)? {
            guard lastUpdatedAt < createdAt else { return nil }
            return { context in
                var problem = Diagnostic.error(.invalidValue, "lastUpdatedAt \(lastUpdatedAt) is before createdAt \(createdAt)",
                    at: context.appending("lastUpdatedAt").location())
                problem.comparedFields = [context.pointer(of: "/createdAt")]
                return problem
            }
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.Profile {
    /// A profile of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, name: String, createdAt: Instant, lastUpdatedAt: Instant, image: PetStoryV2.MediaRef? = nil, _: Void = ()) {
        self.init(id: id, name: name, createdAt: createdAt, lastUpdatedAt: lastUpdatedAt, image: image)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            name: r.string("name"),
            createdAt: r.instant("createdAt"),
            lastUpdatedAt: r.instant("lastUpdatedAt"),
            image: r.object("image", as: PetStoryV2.MediaRef.self), ())
        // Across fields, after the image's own problems and before unknown fields (`finish`).
        if r.isValid { r.check(problemAcrossFields(in: r.timeZone)) }
    }
}
