import FerryCore
import FerrySchemas
import Foundation
import Testing

/// The pet-story V2 checks across fields (`FieldSource.check`) and the media path rule, read by
/// `FieldReader` and by a source that only watches which checks fail (what a raw source sees).
@Suite struct PetStoryChecksTests {
    let tokyo = DecodingOptions(timeZone: TimeZone(identifier: "Asia/Tokyo"), timeZoneName: "Asia/Tokyo")

    @Test func mediaPathRule() {
        let cases: [(String, Bool)] = [
            ("", true), ("a", true), ("media/MemberImages/m1.jpeg", true), ("a/./b", true), ("..a/b..", true),
            ("/a", false), ("a\\b", false), ("a//b", false), ("a/", false), ("../a", false), ("a/../b", false),
            ("a/..", false), ("/", false),
        ]
        for (path, acceptable) in cases {
            #expect(FieldReader.isAcceptableMediaPath(path) == acceptable, "\(path)")
            #expect((FieldReader.mediaPathProblem(path) == nil) == acceptable, "\(path)")
        }
    }

    @Test func mediaItemPathErrorAfterItsFieldsBeforeUnknownOnes() {
        let value: Value = ["id": "i", "kind": "hologram", "path": "../x", "zz": 1]
        let (_, summaries, diagnostics) = decode(PetStoryV2.MediaItem.self, value)
        #expect(summaries == ["error invalid-value 2:3 /c/0/kind", "error invalid-value 2:3 /c/0/path", "error unknown-field 2:3 /c/0/zz"])
        #expect(diagnostics[1].message == "path \"../x\" is not a relative path with \"/\" separators inside the dataset")
        // A path of the wrong type or an empty one is reported once, by its own field.
        #expect(decode(PetStoryV2.MediaRef.self, ["path": 7]).1 == ["error type-error 2:3 /c/0/path"])
        #expect(decode(PetStoryV2.MediaRef.self, ["path": ""]).1 == ["error invalid-value 2:3 /c/0/path"])
        #expect(decode(PetStoryV2.MediaRef.self, ["path": "media/p.png"]).1 == [])
    }

    @Test func nestedMediaRefPathIsReportedAtItsPointer() {
        let value: Value = [
            "id": "p", "name": "n", "createdAt": "2023-01-10T10:00:00Z", "lastUpdatedAt": "2022-01-01T00:00:00Z",
            "image": ["path": "/abs.jpg"],
        ]
        let (_, summaries, diagnostics) = decode(PetStoryV2.Profile.self, value)
        // The image's error makes the record invalid: the order of the dates is not checked.
        #expect(summaries == ["error invalid-value 2:3 /c/0/image/path"])
        #expect(diagnostics[0].message == "image/path \"/abs.jpg\" is not a relative path with \"/\" separators inside the dataset")
    }

    @Test func profileUpdateOrderAfterFieldWarningsBeforeUnknownFields() {
        let value: Value = [
            "id": "p", "name": "n", "createdAt": "2023-01-10T10:00:00.123456Z", "lastUpdatedAt": "2023-01-10T10:00:00Z",
            "zzz": 1,
        ]
        let (_, summaries, diagnostics) = decode(PetStoryV2.Profile.self, value)
        #expect(summaries == [
            "warning lossy-precision 2:3 /c/0/createdAt", "error invalid-value 2:3 /c/0/lastUpdatedAt",
            "error unknown-field 2:3 /c/0/zzz",
        ])
        #expect(diagnostics[1].message == "lastUpdatedAt 2023-01-10T10:00:00Z is before createdAt 2023-01-10T10:00:00.123Z")
        // Equal instants are fine.
        let same: Value = ["id": "p", "name": "n", "createdAt": "2023-01-10T10:00:00Z", "lastUpdatedAt": "2023-01-10T10:00:00Z"]
        #expect(decode(PetStoryV2.Profile.self, same).1 == [])
    }

    @Test func birthDateAfterTheDayOfCreatedAtInTheTimeZone() {
        let value: Value = [
            "id": "m", "name": "n", "since": "2020-01-01", "birthDate": "2023-01-11", "species": "cat", "sex": "female",
            "bio": "", "createdAt": "2023-01-10T23:30:00Z", "extra": true,
        ]
        let (_, utc, diagnostics) = decode(PetStoryV2.FamilyMember.self, value)
        #expect(utc == ["error invalid-value 2:3 /c/0/birthDate", "error unknown-field 2:3 /c/0/extra"])
        #expect(diagnostics[0].message == "birthDate 2023-01-11 is after the day of createdAt (2023-01-10 in UTC)")
        // In Tokyo createdAt is on 2023-01-11 already.
        #expect(decode(PetStoryV2.FamilyMember.self, value, options: tokyo).1 == ["error unknown-field 2:3 /c/0/extra"])
        var later = value.objectValue ?? [:]
        later["birthDate"] = "2023-01-12"
        let (_, inTokyo, tokyoDiagnostics) = decode(PetStoryV2.FamilyMember.self, .object(later), options: tokyo)
        #expect(inTokyo == ["error invalid-value 2:3 /c/0/birthDate", "error unknown-field 2:3 /c/0/extra"])
        #expect(tokyoDiagnostics[0].message == "birthDate 2023-01-12 is after the day of createdAt (2023-01-11 in Asia/Tokyo)")
        // Another error first: the rule is not checked.
        later["species"] = "wolf"
        #expect(decode(PetStoryV2.FamilyMember.self, .object(later)).1 == [
            "error invalid-value 2:3 /c/0/species", "error unknown-field 2:3 /c/0/extra",
        ])
    }

    /// A source watching the checks: each failing check is one a raw source would give up at, and
    /// `FieldReader` reports exactly those (one diagnostic each, the same count).
    @Test func aSourceSeesAFailingCheckExactlyWhenTheReaderReportsOne() {
        let member: ValueObject = [
            "id": "m", "name": "n", "since": "2020-01-01", "birthDate": "2023-01-11", "species": "cat", "sex": "female",
            "bio": "", "createdAt": "2023-01-10T23:30:00Z",
        ]
        var lateBirth = member
        lateBirth["birthDate"] = "2031-01-01"
        let profile: ValueObject = ["id": "p", "name": "n", "createdAt": "2023-01-10T10:00:00Z", "lastUpdatedAt": "2023-01-10T10:00:00Z"]
        var earlyUpdate = profile
        earlyUpdate["lastUpdatedAt"] = "2023-01-09T10:00:00Z"
        #expect(checkCount(PetStoryV2.FamilyMember.self, member, tokyo) == (0, 0))
        #expect(checkCount(PetStoryV2.FamilyMember.self, member, DecodingOptions()) == (1, 1))
        #expect(checkCount(PetStoryV2.FamilyMember.self, lateBirth, tokyo) == (1, 1))
        #expect(checkCount(PetStoryV2.Profile.self, profile, DecodingOptions()) == (0, 0))
        #expect(checkCount(PetStoryV2.Profile.self, earlyUpdate, DecodingOptions()) == (1, 1))
        // An empty path is the field's own `invalid-value` (must not be empty), not the check's.
        #expect(checkCount(PetStoryV2.MediaRef.self, ["path": ""], DecodingOptions()) == (0, 1))
        for path in ["ok/a.png", "/a", "a//b", "../a", "a\\b"] {
            let expected = FieldReader.isAcceptableMediaPath(path) ? 0 : 1
            #expect(checkCount(PetStoryV2.MediaRef.self, ["path": .string(path)], DecodingOptions()) == (expected, expected))
            let item: ValueObject = ["id": "i", "kind": "photo", "path": .string(path)]
            #expect(checkCount(PetStoryV2.MediaItem.self, item, DecodingOptions()) == (expected, expected))
        }
    }

    /// Failing checks the source saw, and `invalid-value` errors the reader reported, for `object`.
    func checkCount<M: FieldCodable>(_ type: M.Type, _ object: ValueObject, _ options: DecodingOptions) -> (Int, Int) {
        let context = RecordContext(record: makeRecord("c", 0, .object(object)), options: options)
        var source = CheckWatcher(reader: FieldReader(.object(object), model: M.self, at: context))
        _ = M(from: &source)
        var diagnostics: [Diagnostic] = []
        source.reader.finish(into: &diagnostics)
        return (source.failedChecks, diagnostics.filter { $0.code == .invalidValue }.count)
    }

    @Test func instantOrDayIsWrittenAsTheOneItIs() {
        let value: Value = [
            "id": "m", "name": "n", "since": "2022-09-01T00:00:00.250+09:00", "birthDate": "2022-05-05", "type": "bird",
            "sex": "male", "bio": "", "createdAt": "2023-01-11T09:00:00Z",
        ]
        let (member, problems, _) = decode(PetStoryV1.FamilyMember.self, value)
        #expect(problems == [])
        #expect(member.value == [
            "id": "m", "name": "n", "since": "2022-08-31T15:00:00.250Z", "birthDate": "2022-05-05", "type": "bird",
            "sex": "male", "bio": "", "createdAt": "2023-01-11T09:00:00Z",
        ])
    }
}

/// A `FieldSource` that reads with a `FieldReader` and counts the checks that fail.
struct CheckWatcher: FieldSource {
    var reader: FieldReader
    var failedChecks = 0

    mutating func string(_ name: String) -> String { reader.string(name) }
    mutating func optionalString(_ name: String) -> String? { reader.optionalString(name) }
    mutating func double(_ name: String) -> Double { reader.double(name) }
    mutating func optionalDouble(_ name: String) -> Double? { reader.optionalDouble(name) }
    mutating func integer(_ name: String) -> Int64 { reader.integer(name) }
    mutating func optionalInteger(_ name: String) -> Int64? { reader.optionalInteger(name) }
    mutating func bool(_ name: String) -> Bool { reader.bool(name) }
    mutating func instant(_ name: String) -> Instant { reader.instant(name) }
    mutating func day(_ name: String) -> CalendarDay { reader.day(name) }
    mutating func instantOrDay(_ name: String) -> InstantOrDay { reader.instantOrDay(name) }
    mutating func data(_ name: String) -> Base64Data? { reader.data(name) }
    mutating func timestamp(_ name: String) -> FirestoreTimestamp? { reader.timestamp(name) }
    mutating func stringArray(_ name: String) -> [String] { reader.stringArray(name) }
    mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? { reader.object(name, as: type) }
    mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] { reader.array(name, of: type) }
    var isValid: Bool { reader.isValid }
    var timeZone: TimeZone { reader.timeZone }
    mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if problem != nil { failedChecks += 1 }
        reader.check(problem)
    }
}
