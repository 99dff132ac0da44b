import FerryCore

extension VocabularyV1 {
    /// A V1 word book (collection `wordBooks`, Firestore-shaped).
    ///
    /// Fields in canonical order (SCHEMAS.md): id, title, timestamp.
    public struct WordBook: CollectionModel, FieldCodable {
        public var id: String?
        public var title: String
        public var timestamp: FirestoreTimestamp

        /// The collection of these records.
        public static let collection = "wordBooks"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("WordBook", [
            .optional("id", .string),
            FieldSchema("title", .string),
            FieldSchema("timestamp", .timestamp),
        ])

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.addOptional("id", id)
            b.add("title", title)
            b.add("timestamp", timestamp.value)  // a Timestamp object, as the V1 app wrote it
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension VocabularyV1.WordBook {
    /// A word book of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String? = nil, title: String, timestamp: FirestoreTimestamp, _: Void = ()) {
        self.init(id: id, title: title, timestamp: timestamp)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.optionalString("id"),
            title: r.string("title"),
            timestamp: r.timestamp("timestamp") ?? FirestoreTimestamp(instant: .epoch), ())
    }
}
