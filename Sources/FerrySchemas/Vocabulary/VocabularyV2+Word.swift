import FerryCore
import Foundation

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

        public init(id: String, wordBookID: String, meaningText: String, meaningImageURL: String, ganaText: String, ganaImageURL: String, kanjiText: String, kanjiImageURL: String, studyState: StudyState, timestamp: Instant) {
            self.id = id
            self.wordBookID = wordBookID
            self.meaningText = meaningText
            self.meaningImageURL = meaningImageURL
            self.ganaText = ganaText
            self.ganaImageURL = ganaImageURL
            self.kanjiText = kanjiText
            self.kanjiImageURL = kanjiImageURL
            self.studyState = studyState
            self.timestamp = timestamp
        }

        @inlinable
        public init<Source: FieldSource>(from r: inout Source) {
            id = r.string("id")
            wordBookID = r.string("wordBookID")
            meaningText = r.string("meaningText")
            meaningImageURL = r.string("meaningImageURL")
            ganaText = r.string("ganaText")
            ganaImageURL = r.string("ganaImageURL")
            kanjiText = r.string("kanjiText")
            kanjiImageURL = r.string("kanjiImageURL")
            studyState = StudyState(rawValue: r.string("studyState")) ?? StudyState.allCases[0]
            timestamp = r.instant("timestamp")
        }

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
