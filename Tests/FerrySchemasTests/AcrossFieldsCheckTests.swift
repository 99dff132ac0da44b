import FerryCore
import Foundation
import Testing

@testable import FerrySchemas

/// The plain check of a migrated model (`MigrationEnvironment.passesPlainly`: `FieldRuleCheck`,
/// then `AcrossFieldsCheck` over the model and the models nested in it) stands for reading the
/// model back from its canonical value, as the path that reports does: it passes exactly when that
/// read reports nothing, for every model with checks across fields (pet-story V2's profile, member
/// and story, with their nested images and media items), in more than one time zone.
@Suite struct AcrossFieldsCheckTests {
    static func instant(_ text: String) -> Instant { (try? Instant.parse(text).get()) ?? .epoch }
    static func day(_ text: String) -> CalendarDay { CalendarDay(text) ?? CalendarDay(instant: .epoch, in: .gmt) }

    static func profile(updated: String, image: String? = nil) -> PetStoryV2.Profile {
        PetStoryV2.Profile(id: "p1", name: "Hana", createdAt: instant("2023-01-10T10:00:00Z"), lastUpdatedAt: instant(updated),
            image: image.map { PetStoryV2.MediaRef(path: $0) })
    }

    static func member(born: String, image: String? = nil) -> PetStoryV2.FamilyMember {
        PetStoryV2.FamilyMember(id: "m1", name: "Pet", since: day("2010-04-03"), birthDate: day(born), species: .cat, sex: .male,
            bio: "", createdAt: instant("2023-01-10T20:00:00Z"), image: image.map { PetStoryV2.MediaRef(path: $0) })
    }

    static func story(paths: [String]) -> PetStoryV2.Story {
        PetStoryV2.Story(id: "s1", caption: "walk", createdAt: instant("2024-01-01T08:00:00Z"),
            media: paths.enumerated().map { PetStoryV2.MediaItem(id: "x\($0.offset)", kind: .photo, path: $0.element) },
            taggedMemberIds: ["m1"])
    }

    /// Each case: a model, and whether it passes in UTC and in Asia/Tokyo.
    static let cases: [(name: String, model: any FieldCodableCollection, utc: Bool, tokyo: Bool)] = [
        ("profile", profile(updated: "2024-06-01T12:00:00Z"), true, true),
        ("profile updated before made", profile(updated: "2020-01-01T00:00:00Z"), false, false),
        ("profile image", profile(updated: "2024-06-01T12:00:00Z", image: "media/ProfileImages/p1.jpg"), true, true),
        ("profile image outside", profile(updated: "2024-06-01T12:00:00Z", image: "media/../p1.jpg"), false, false),
        ("member", member(born: "2010-01-01"), true, true),
        // Made 2023-01-10T20:00Z: that is 2023-01-11 in Tokyo, so a birth day of the 11th is after it in UTC only.
        ("member born the next day in UTC", member(born: "2023-01-11"), false, true),
        ("member born after", member(born: "2030-01-01"), false, false),
        ("member image outside", member(born: "2010-01-01", image: "/MemberImages/m1.jpg"), false, false),
        ("story", story(paths: ["media/Stories/s1/x0.jpg", "media/Stories/s1/x1.mp4"]), true, true),
        ("story media outside", story(paths: ["media/Stories/s1/x0.jpg", "media\\x1.mp4"]), false, false),
        ("story no media", story(paths: []), true, true),
    ]

    /// True when reading `model`'s value back (`FieldReader`, the path that reports) reports nothing.
    static func readsBackPlainly<Model: FieldCodableCollection>(_ model: Model, in timeZone: TimeZone) -> Bool {
        let options = DecodingOptions(timeZone: timeZone)
        let context = RecordContext(record: Record(collection: Model.collection, value: .null, location: SourceLocation()),
            options: options)
        var diagnostics: [Diagnostic] = []
        let readBack = Model(value: model.value, at: context, diagnostics: &diagnostics)
        return diagnostics.isEmpty && readBack.value == model.value
    }

    static func passesPlainly<Model: FieldCodableCollection>(_ model: Model, in timeZone: TimeZone) -> Bool {
        let environment = MigrationEnvironment(timeZone: timeZone, sourceCollection: Model.collection,
            targetCollection: Model.collection)
        let plain = environment.passesPlainly(model, rules: FieldRulePlan(Model.recordType))
        // The migration's second half agrees, for a JSON and a CSV input alike.
        for text in [false, true] {
            #expect((environment.checkedPlainly(model, rules: FieldRulePlan(Model.recordType), scalarsAsText: text) != nil) == plain)
        }
        return plain
    }

    @Test(arguments: 0..<11)
    func passesExactlyWhenTheModelReadsBackPlainly(case index: Int) throws {
        let (name, model, utc, tokyo) = Self.cases[index]
        let zones: [(TimeZone, Bool)] = [(.gmt, utc), (try #require(TimeZone(identifier: "Asia/Tokyo")), tokyo)]
        for (zone, expected) in zones {
            #expect(Self.passesPlainly(model, in: zone) == expected, "\(name) in \(zone.identifier)")
            #expect(Self.readsBackPlainly(model, in: zone) == expected, "\(name) in \(zone.identifier)")
        }
    }

    /// A model with no checks across fields is not walked: true at once, whatever it holds.
    @Test func aModelWithoutChecksPassesAtOnce() {
        let book = VocabularyV2.WordBook(id: "b1", title: "N5", createdAt: Self.instant("2024-01-01T00:00:00Z"))
        #expect(!VocabularyV2.WordBook.checksAcrossFields)
        #expect(AcrossFieldsCheck.passes(book, in: .gmt))
        #expect(PetStoryV2.Story.checksAcrossFields && PetStoryV2.FamilyMember.checksAcrossFields
            && PetStoryV2.Profile.checksAcrossFields)
    }
}
