import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FerrySchemas

@Suite struct InstantTests {
    @Test func parsesOffsetsToUTC() throws {
        let instant = try Instant.parse("2024-05-01T18:30:00+09:00").get()
        #expect(instant.description == "2024-05-01T09:30:00Z")
        #expect(instant.seconds == 1_714_555_800)
        #expect(try Instant.parse("2024-05-01T09:30:00-01:30").get().description == "2024-05-01T11:00:00Z")
        #expect(try Instant.parse("2024-05-01t09:30:00z").get().description == "2024-05-01T09:30:00Z")
    }

    @Test func keepsMillisecondsExactly() throws {
        let instant = try Instant.parse("2024-05-01T09:30:00.250Z").get()
        #expect(instant.nanoseconds == 250_000_000)
        #expect(instant.description == "2024-05-01T09:30:00.250Z")
        #expect(try Instant.parse("2024-05-01T09:30:00.5Z").get().description == "2024-05-01T09:30:00.500Z")
        #expect(try Instant.parse("2024-05-01T09:30:00.000Z").get().description == "2024-05-01T09:30:00Z")
    }

    @Test func cutsNineFractionDigitsToMilliseconds() throws {
        let instant = try Instant.parse("2024-05-01T09:30:00.123456789Z").get()
        #expect(instant.nanoseconds == 123_456_789)
        let (cut, lost) = instant.truncatedToMilliseconds()
        #expect(lost)
        #expect(cut.description == "2024-05-01T09:30:00.123Z")
        #expect(try Instant.parse("2024-05-01T09:30:00.1234567891234Z").get().nanoseconds == 123_456_789)
        #expect(try Instant.parse("2024-05-01T09:30:00.250Z").get().truncatedToMilliseconds().lostPrecision == false)
    }

    @Test func refusesInstantsWithoutOffset() throws {
        #expect(Instant.parse("2024-05-01T09:30:00") == .failure(.missingOffset))
        #expect(Instant.parse("2024-05-01T09:30:00.25") == .failure(.missingOffset))
        #expect(Instant.parse("2024-05-01") == .failure(.missingOffset))
        #expect(Instant.parse("2024-02-30T00:00:00Z") == .failure(.invalidDate))
        #expect(Instant.parse("2024-05-01T24:00:00Z") == .failure(.invalidDate))
        // Without an offset too: adding Z would not make these exist.
        #expect(Instant.parse("2022-13-45") == .failure(.invalidDate))
        #expect(Instant.parse("2022-02-30") == .failure(.invalidDate))
        #expect(Instant.parse("2022-02-28T25:00:00") == .failure(.invalidDate))
        #expect(Instant.parse("2022-02-30T10:00:00.5") == .failure(.invalidDate))
        #expect(Instant.parse("2022-02-30T10:00") == .failure(.malformed))
        #expect(Instant.parse("2024-05-01T09:30:00+0900") == .failure(.malformed))
        #expect(Instant.parse("May 1 2024") == .failure(.malformed))
        #expect(try Instant.parse("2024-02-29T00:00:00Z").get().description == "2024-02-29T00:00:00Z")
    }

    @Test func formatsBeforeEpochAndFarYears() throws {
        #expect(try Instant.parse("1969-12-31T23:59:59.500Z").get().seconds == -1)
        #expect(try Instant.parse("1969-12-31T23:59:59.500Z").get().description == "1969-12-31T23:59:59.500Z")
        #expect(try Instant.parse("0001-01-01T00:00:00Z").get().seconds == Instant.minimumSeconds)
        #expect(try Instant.parse("9999-12-31T23:59:59Z").get().description == "9999-12-31T23:59:59Z")
        #expect(Instant.parse("0001-01-01T00:00:00+01:00") == .failure(.outOfRange))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` has a straight reading of its own: it must give exactly what the
    /// scan of every form gives, for that form and for every near miss of it.
    @Test func readsTheWholeSecondsFormAsTheScanOfEveryForm() throws {
        #expect(try Instant.parse("2023-10-04T02:43:15Z").get().seconds == 1_696_387_395)
        #expect(Instant.parse("2023-02-29T00:00:00Z") == .failure(.invalidDate))
        #expect(Instant.parse("0000-12-31T23:59:59Z") == .failure(.outOfRange))
        #expect(Instant.parse("2023-10-04T02:43:60Z") == .failure(.invalidDate))
        var random = SplitMix(seed: 20)
        let base = Array("2024-02-29T23:59:59Z".utf8)
        let replacements = Array("0123456789-:TtZz +./".utf8) + [0x00, 0xC3, 0x7F]
        for _ in 0..<20_000 {
            var text = base
            // Random digits everywhere a digit goes, then up to two bytes replaced by anything.
            for i in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] where random.next(3) == 0 {
                text[i] = UInt8(ascii: "0") + UInt8(random.next(10))
            }
            for _ in 0..<random.next(3) { text[random.next(text.count)] = replacements[random.next(replacements.count)] }
            let fast = text.withUnsafeBytes { Instant.parse(bytes: $0) }
            let scanned = text.withUnsafeBytes { Instant.parseAnyForm($0) }
            #expect(fast == scanned, "\(String(decoding: text, as: UTF8.self))")
        }
    }

    @Test func readsNumericDatesByStrategy() {
        #expect(Instant.fromNumber("0", strategy: .deferredToDate)?.description == "2001-01-01T00:00:00Z")
        #expect(Instant.fromNumber("736245000.25", strategy: .deferredToDate)?.description == "2024-05-01T08:30:00.250Z")
        #expect(Instant.fromNumber("1714555800", strategy: .secondsSince1970)?.description == "2024-05-01T09:30:00Z")
        #expect(Instant.fromNumber("1714555800250", strategy: .millisecondsSince1970)?.description == "2024-05-01T09:30:00.250Z")
        #expect(Instant.fromNumber("1.7145558e9", strategy: .secondsSince1970)?.description == "2024-05-01T09:30:00Z")
        #expect(Instant.fromNumber("-1.5", strategy: .secondsSince1970) == Instant(seconds: -2, nanoseconds: 500_000_000))
        #expect(Instant.fromNumber("0.0000000001", strategy: .secondsSince1970) == Instant(seconds: 0, nanoseconds: 0))
        #expect(Instant.fromNumber("1714555800", strategy: .iso8601) == nil)
        #expect(Instant.fromNumber("1e30", strategy: .secondsSince1970) == nil)
    }
}

@Suite struct CalendarDayTests {
    @Test func dayOfAnInstantInATimeZone() throws {
        let instant = try Instant.parse("2024-03-01T20:00:00Z").get()
        #expect(CalendarDay(instant: instant, in: try #require(TimeZone(identifier: "Asia/Tokyo"))).description == "2024-03-02")
        #expect(CalendarDay(instant: instant, in: try #require(TimeZone(identifier: "UTC"))).description == "2024-03-01")
        let early = try Instant.parse("2024-03-01T03:00:00Z").get()
        #expect(CalendarDay(instant: early, in: try #require(TimeZone(identifier: "America/Los_Angeles"))).description == "2024-02-29")
    }

    @Test func parsesOnlyRealDays() {
        #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
        #expect(CalendarDay("2023-02-29") == nil)
        #expect(CalendarDay("2024-5-01") == nil)
        #expect(CalendarDay("2024-05-01T00:00:00Z") == nil)
        #expect(CalendarDay("2024-13-01") == nil)
    }
}

@Suite struct DerivedIDTests {
    @Test func matchesPythonUUID5() {
        // python3: uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/")
        #expect(DerivedID.uuidV5(namespace: DerivedID.urlNamespace, name: "https://example.com/")
            == "dd2c1780-811a-5296-81c5-178a0ef488bc")
    }

    @Test func derivesNoteIDsFromTheNameRule() throws {
        // python3: uuid.uuid5(uuid.NAMESPACE_URL, "ferry:wineNotes/2/2024-05-01T09:30:00.250Z/Ch\u00e2teau Margaux")
        let createdAt = try Instant.parse("2024-05-01T18:30:00.250+09:00").get()
        // The title arrives decomposed (a + U+0302); the rule takes it in NFC.
        let decomposed = "Cha\u{0302}teau Margaux"
        #expect(DerivedID.forNote(collection: "wineNotes", index: 2, createdAt: createdAt, title: decomposed)
            == "983141d9-85bd-5253-aaaf-c7a897d99560")
    }
}

@Suite struct FirestoreTimestampTests {
    @Test func readsEveryShape() throws {
        let expected = try #require(Instant(seconds: 1_543_579_505, nanoseconds: 120_000_000))
        let shapes: [Value] = [
            ["_seconds": .number("1543579505"), "_nanoseconds": .number("120000000")],
            ["seconds": 1_543_579_505, "nanoseconds": 120_000_000],
            ["__datatype__": "timestamp", "value": ["_seconds": 1_543_579_505, "_nanoseconds": 120_000_000]],
            "2018-11-30T12:05:05.12Z",
        ]
        for shape in shapes {
            #expect(try FirestoreTimestamp.read(shape).get().instant == expected, "\(shape)")
        }
        #expect(FirestoreTimestamp(instant: expected).value == ["_seconds": 1_543_579_505, "_nanoseconds": 120_000_000])
    }

    @Test func refusesBadMembers() {
        #expect(FirestoreTimestamp.read(["_seconds": 1, "_nanoseconds": 1_000_000_000]) == .failure(.outOfRange("/_nanoseconds")))
        #expect(FirestoreTimestamp.read(["_seconds": 1.5, "_nanoseconds": 0]) == .failure(.notInteger("/_seconds")))
        #expect(FirestoreTimestamp.read(["_latitude": 1, "_longitude": 2]) == .failure(.wrongShape))
        #expect(FirestoreTimestamp.read(["_seconds": "1", "_nanoseconds": "0"], scalarsAsText: true).map(\.instant.seconds) == .success(1))
    }
}

@Suite struct Base64Tests {
    @Test func validatesStandardBase64() {
        #expect(Base64Data(base64: "AAEC") != nil)
        #expect(Base64Data(base64: "AAE=")?.bytes == [0, 1])
        #expect(Base64Data(base64: "AAE") == nil)
        #expect(Base64Data(base64: "A-E=") == nil)
        #expect(Base64Data(base64: "A=E=") == nil)
        #expect(Base64Data(bytes: [0xff, 0xd8, 0xff]).base64 == "/9j/")
    }
}
