import FerryCore
import Foundation

extension PetStoryV2 {
    /// A media file: its path relative to the dataset root with "/" separators (`media/MemberImages/m1.jpeg`).
    ///
    /// Fields in canonical order (SCHEMAS.md): path.
    public struct MediaRef: SchemaModel, FieldCodable {
        public var path: String

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("MediaRef", [
            FieldSchema("path", .nonEmptyString),
        ])

        public init(path: String) {
            self.path = path
        }

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = MediaRef(path: "")

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
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
            b.add("path", path)
        }
    }
}
