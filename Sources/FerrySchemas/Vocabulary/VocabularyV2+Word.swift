extension VocabularyV2 {
    /// A V2 word (collection `words`); `wordBookID` names an existing word book.
    ///
    /// Fields in canonical order (SCHEMAS.md): id, wordBookID, meaningText, meaningImageURL, ganaText, ganaImageURL, kanjiText, kanjiImageURL, studyState, timestamp.
    public struct Word: CollectionModel, FieldCodable {
        public var id: String
        public var wordBookID: String
        public var meaningText: String
        public var meaningImageURL: String
        public var ganaText: String
        public var ganaImageURL: String
        public var kanjiText: String
        public var kanjiImageURL: String
        public var studyState: StudyState
        public var timestamp: Instant

        /// The collection of these records.
        public static let collection = "words"
        public var recordID: String? { id }

        /// The descriptor: the type name and its fields in canonical order.
        public static let recordType = RecordType("Word", [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("wordBookID", .nonEmptyString),
            FieldSchema("meaningText", .string),
            FieldSchema("meaningImageURL", .url),
            FieldSchema("ganaText", .string),
            FieldSchema("ganaImageURL", .url),
            FieldSchema("kanjiText", .string),
            FieldSchema("kanjiImageURL", .url),
            FieldSchema("studyState", .enumeration(StudyState.allCases.map(\.rawValue))),
            FieldSchema("timestamp", .instant),
        ])

        @inlinable
        public func encode<Sink: FieldSink>(to b: inout Sink) {
            b.add("id", id)
            b.add("wordBookID", wordBookID)
            b.add("meaningText", meaningText)
            b.add("meaningImageURL", meaningImageURL)
            b.add("ganaText", ganaText)
            b.add("ganaImageURL", ganaImageURL)
            b.add("kanjiText", kanjiText)
            b.add("kanjiImageURL", kanjiImageURL)
            b.add("studyState", studyState.rawValue)
            b.add("timestamp", timestamp)
        }
    }
}

// Initializers in an extension: Swift then still makes the (internal) memberwise initializer, which
// builds the model in one piece; one that sets the fields one by one copies the model once more on
// its way out (as NotesV2+WineTastingNote.swift, Docs/performance.md "Models built in one piece").
extension VocabularyV2.Word {
    /// A word of these fields. The last parameter (left out by callers; `()` from
    /// `init(from:)`, which being `@inlinable` cannot call the internal memberwise initializer) keeps
    /// this public initializer apart from the memberwise one of the same labels.
    public init(id: String, wordBookID: String, meaningText: String, meaningImageURL: String, ganaText: String, ganaImageURL: String, kanjiText: String, kanjiImageURL: String, studyState: VocabularyV2.StudyState, timestamp: Instant, _: Void = ()) {
        self.init(id: id, wordBookID: wordBookID, meaningText: meaningText, meaningImageURL: meaningImageURL, ganaText: ganaText, ganaImageURL: ganaImageURL, kanjiText: kanjiText, kanjiImageURL: kanjiImageURL, studyState: studyState, timestamp: timestamp)
    }

    /// Reads the fields in canonical order (`FieldCodable`); the model is built in one piece by the
    /// initializer above.
    @inlinable
    public init<Source: FieldSource>(from r: inout Source) {
        self.init(
            id: r.string("id"),
            wordBookID: r.string("wordBookID"),
            meaningText: r.string("meaningText"),
            meaningImageURL: r.string("meaningImageURL"),
            ganaText: r.string("ganaText"),
            ganaImageURL: r.string("ganaImageURL"),
            kanjiText: r.string("kanjiText"),
            kanjiImageURL: r.string("kanjiImageURL"),
            studyState: VocabularyV2.StudyState(rawValue: r.string("studyState")) ?? VocabularyV2.StudyState.allCases[0],
            timestamp: r.instant("timestamp"), ())
    }
}

extension VocabularyV2.Word: ReferringModel {
    /// `wordBookID` names a word book (`VocabularyDomain.references(collection:version:)`).
    public static var referringFields: [(field: String, keyPath: PartialKeyPath<Self>)] {
        [("wordBookID", \.wordBookID)]
    }
}
