import FerryCore
import Foundation

extension PetStoryV2 {
    /// A story's media item: the V1 media content id, its kind and file path.
    ///
    /// Fields in canonical order (SCHEMAS.md): id, kind, path.
    public struct MediaItem: SchemaModel, FieldCodable {
        public var id: String
        public var kind: MediaKind
        public var path: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("MediaItem", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("kind", .enumeration(MediaKind.allCases.map(\.rawValue))),
            FieldSchema("path", .nonEmptyString),
        ])

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = MediaItem(id: "", kind: MediaKind.allCases[0], path: "")

        /// The path must be a media path (`FieldReader.mediaPathProblem`).
        @inlinable
        public func problemAcrossFields(in timeZone: TimeZone) -> ((RecordContext) -> Diagnostic)? {
            FieldReader.mediaPathProblem(path)
        }

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("kind", kind.rawValue)
            b.add("path", path)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.MediaItem {
    /// A media item of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, kind: PetStoryV2.MediaKind, path: String, _: Void = ()) {
        self.init(id: id, kind: kind, path: path)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            kind: PetStoryV2.MediaKind(rawValue: r.string("kind")) ?? PetStoryV2.MediaKind.allCases[0],
            path: r.string("path"), ())
        r.check(problemAcrossFields(in: r.timeZone))
    }
}
