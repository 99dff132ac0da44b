import FerryCore
import FerrySchemas
import Foundation
import Testing

@testable import FerryTypedPath

/// The typed JSON reader's V1 dates (`JSONLineCursor.plainTimestamp`, and the checked path over
/// the item's `Value`): a vocabulary V1 word's Firestore Timestamp and a pet-story V1 member's
/// instant-or-day are read from the line's bytes to the exact model the general path reads
/// (`FieldReader` over the parsed `Value`); a line is taken exactly when the general path reads it
/// without a diagnostic.
@Suite struct FirestoreTimestampCursorTests {
    static func word(timestamp: String) -> String {
        #"{"$collection":"words","id":"w1","wordBookID":"b1","meaningText":"m","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":1,"timestamp":\#(timestamp)}"#
    }

    static func member(since: String) -> String {
        #"{"$collection":"members","id":"m1","name":"Pet","since":\#(since),"birthDate":"2010-01-01","type":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
    }

    /// A Timestamp the reader takes, and the instant it holds.
    struct Taken: Sendable, CustomStringConvertible {
        let text: String
        let seconds: Int64
        let nanoseconds: Int32
        init(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) {
            self.text = text
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }
        var description: String { text }
    }

    static let taken: [Taken] = [
        Taken(#"{"_seconds":1600000000,"_nanoseconds":250000000}"#, 1_600_000_000, 250_000_000),
        Taken(#"{ "_seconds" : 1600000000 , "_nanoseconds" : 123456789 }"#, 1_600_000_000, 123_456_789),
        Taken(#"{"_nanoseconds":5,"_seconds":-1}"#, -1, 5),
        Taken(#"{"_seconds":1600000000}"#, 1_600_000_000, 0),
        Taken(#"{"seconds":1600000001,"nanoseconds":0}"#, 1_600_000_001, 0),
        Taken(#""2020-09-13T12:26:40.25Z""#, 1_600_000_000, 250_000_000),
        Taken(#""2020-09-13T21:26:40.123456789+09:00""#, 1_600_000_000, 123_456_789),
        // node-firestore-import-export's wrapper: from its bytes, or in other orders and namings
        // through the checked path.
        Taken(#"{"__datatype__":"timestamp","value":{"_seconds":1600000000,"_nanoseconds":250000000}}"#, 1_600_000_000, 250_000_000),
        Taken(#"{ "__datatype__" : "timestamp" , "value" : { "_seconds" : 1 , "_nanoseconds" : 2 } }"#, 1, 2),
        Taken(#"{"value":{"_seconds":3,"_nanoseconds":0},"__datatype__":"timestamp"}"#, 3, 0),
        Taken(#"{"__datatype__":"timestamp","value":{"seconds":4}}"#, 4, 0),
    ]

    @Test(arguments: taken)
    func aTimestampOfEachShapeIsReadAsTheGeneralPathReadsIt(_ taken: Taken) throws {
        let line = Self.word(timestamp: taken.text)
        let general = JSONRecordScanTests.general(line, VocabularyV1.Word.self)
        #expect(general.clean)
        let model = try #require(JSONRecordScanTests.typed(line, VocabularyV1.Word.self).model)
        #expect(model == general.model)
        #expect(model.timestamp.instant == Instant(seconds: taken.seconds, nanoseconds: taken.nanoseconds))
    }

    /// Timestamps the general path reports (or reads with a warning), and shapes only the checked
    /// path reads.
    static let leftToTheGeneralPath = [
        #""""#,  // empty: missing-field
        "1600000000",  // a number: Unix time, with an assumption warning
        #"{"_seconds":1600000000,"_nanoseconds":1000000000}"#,  // nanoseconds out of range
        #"{"_seconds":1600000000,"_nanoseconds":-1}"#,
        #"{"_seconds":1.5,"_nanoseconds":0}"#,  // not an integer
        #"{"_seconds":"1600000000","_nanoseconds":0}"#,
        #"{"_seconds":1600000000,"nanoseconds":0}"#,  // two namings: wrong shape
        #"{"_seconds":1600000000,"_seconds":1600000000}"#,
        #"{"_seconds":1600000000,"_nanoseconds":0,"x":1}"#,
        #"{"_nanoseconds":0}"#,
        #"{}"#,
        #"{"__datatype__":"date","value":{"_seconds":1600000000,"_nanoseconds":0}}"#,  // another tag: wrong shape
        #"{"__datatype__":"timestamp","value":{"_seconds":1600000000,"_nanoseconds":1000000000}}"#,
        #"{"__datatype__":"timestamp","value":"later"}"#,
        #"{"\u005fseconds":1600000000}"#,  // a key holding an escape
        #"{"_seconds":99999999999999,"_nanoseconds":0}"#,  // beyond the year 9999
        #""yesterday""#,
        "null", "true", "[]",
    ]

    @Test(arguments: leftToTheGeneralPath)
    func whatTheGeneralPathReportsIsLeftToIt(_ text: String) {
        let line = Self.word(timestamp: text)
        // The one the general path reads cleanly is the escaped key: taken, through the checked
        // path; the others are left to the general path.
        let general = JSONRecordScanTests.general(line, VocabularyV1.Word.self)
        let readCleanly = text.contains("\\u005f")
        #expect(general.clean == readCleanly, "\(text)")
        #expect(JSONRecordScanTests.typed(line, VocabularyV1.Word.self).model == (readCleanly ? general.model : nil), "\(text)")
    }

    @Test(arguments: [
        (#""2010-04-03""#, InstantOrDay.day(CalendarDay("2010-04-03")!)),
        (#""2010-04-03T10:00:00.123Z""#, .instant(Instant(seconds: 1_270_288_800, nanoseconds: 123_000_000)!)),
        (#""2011-05-06T23:30:00-05:00""#, .instant(Instant(seconds: 1_304_742_600)!)),
    ])
    func anInstantOrDayIsReadAsTheGeneralPathReadsIt(_ text: String, _ expected: InstantOrDay) throws {
        let line = Self.member(since: text)
        let general = JSONRecordScanTests.general(line, PetStoryV1.FamilyMember.self)
        #expect(general.clean)
        let model = try #require(JSONRecordScanTests.typed(line, PetStoryV1.FamilyMember.self).model)
        #expect(model == general.model)
        #expect(model.since == expected)
    }

    @Test(arguments: [#""2010-04-03T10:00:00.123456Z""#, #""yesterday""#, "1270288800", #""""#, "null", "{}"])
    func anInstantOrDayTheGeneralPathReportsIsLeftToIt(_ text: String) {
        let line = Self.member(since: text)
        #expect(JSONRecordScanTests.typed(line, PetStoryV1.FamilyMember.self).model == nil, "\(text)")
        #expect(!JSONRecordScanTests.general(line, PetStoryV1.FamilyMember.self).clean, "\(text)")
    }
}
