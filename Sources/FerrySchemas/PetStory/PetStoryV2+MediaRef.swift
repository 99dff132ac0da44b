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

        /// The placeholder of an invalid required value.
        @usableFromInline
        static let placeholder = MediaRef(path: "")

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

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension PetStoryV2.MediaRef {
    /// A media ref of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(path: String, _: Void = ()) {
        self.init(path: path)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            path: r.string("path"), ())
        r.check(problemAcrossFields(in: r.timeZone))
    }
}
