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

        public init(id: String, kind: MediaKind, path: String) {
            self.id = id
            self.kind = kind
            self.path = path
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = MediaItem(id: "", kind: MediaKind.allCases[0], path: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            kind = MediaKind(rawValue: r.string("kind")) ?? MediaKind.allCases[0]
            path = r.string("path")
            r.check(problemAcrossFields(in: r.timeZone))
        }

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
