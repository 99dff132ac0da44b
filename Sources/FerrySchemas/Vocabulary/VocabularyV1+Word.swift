import FerryCore

extension VocabularyV1 {
    /// A V1 word (collection `words`, Firestore-shaped; strings missing = "").
    ///
    /// Fields in canonical order (SCHEMAS.md): id, wordBookID, meaningText, meaningImageURL, ganaText, ganaImageURL, kanjiText, kanjiImageURL, studyState, timestamp.
    public struct Word: CollectionModel, FieldCodable {
        public var id: String?
        public var wordBookID: String?
        public var meaningText: String
        public var meaningImageURL: String
        public var ganaText: String
        public var ganaImageURL: String
        public var kanjiText: String
        public var kanjiImageURL: String
        public var studyState: Int64
        public var timestamp: FirestoreTimestamp

        /// The collection of these records.
        public static let collection = "words"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Word", [
            .optional("id", .string),
            .optional("wordBookID", .string),
            FieldSchema("meaningText", .string, isRequired: false),
            FieldSchema("meaningImageURL", .string, isRequired: false),
            FieldSchema("ganaText", .string, isRequired: false),
            FieldSchema("ganaImageURL", .string, isRequired: false),
            FieldSchema("kanjiText", .string, isRequired: false),
            FieldSchema("kanjiImageURL", .string, isRequired: false),
            FieldSchema("studyState", .integer),
            FieldSchema("timestamp", .timestamp),
        ])

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.addOptional("id", id)
            b.addOptional("wordBookID", wordBookID)
            b.add("meaningText", meaningText)
            b.add("meaningImageURL", meaningImageURL)
            b.add("ganaText", ganaText)
            b.add("ganaImageURL", ganaImageURL)
            b.add("kanjiText", kanjiText)
            b.add("kanjiImageURL", kanjiImageURL)
            b.add("studyState", studyState)
            b.add("timestamp", timestamp.value)  // a Timestamp object, as the V1 app wrote it
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension VocabularyV1.Word {
    /// A word of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String? = nil, wordBookID: String? = nil, meaningText: String, meaningImageURL: String, ganaText: String, ganaImageURL: String, kanjiText: String, kanjiImageURL: String, studyState: Int64, timestamp: FirestoreTimestamp, _: Void = ()) {
        self.init(id: id, wordBookID: wordBookID, meaningText: meaningText, meaningImageURL: meaningImageURL, ganaText: ganaText, ganaImageURL: ganaImageURL, kanjiText: kanjiText, kanjiImageURL: kanjiImageURL, studyState: studyState, timestamp: timestamp)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.optionalString("id"),
            wordBookID: r.optionalString("wordBookID"),
            meaningText: r.string("meaningText"),
            meaningImageURL: r.string("meaningImageURL"),
            ganaText: r.string("ganaText"),
            ganaImageURL: r.string("ganaImageURL"),
            kanjiText: r.string("kanjiText"),
            kanjiImageURL: r.string("kanjiImageURL"),
            studyState: r.integer("studyState"),
            timestamp: r.timestamp("timestamp") ?? FirestoreTimestamp(instant: .epoch), ())
    }
}

extension VocabularyV1.Word: ReferringModel {
    /// `wordBookID` names a word book (`VocabularyDomain.references(collection:version:)`).
    public static var referringFields: [(field: String, keyPath: PartialKeyPath<Self>)] {
        [("wordBookID", \.wordBookID)]
    }
}
