import FerryCore
import Testing

@testable import FerrySchemas

/// With a bundle's media catalog, a collection has a typed route when its domain says its records
/// need the catalog at no version they pass through (`DomainDefinition.usesMediaCatalog`): every
/// notes and vocabulary collection, validated, converted or migrated. Pet-story's collections have
/// routes only when no stage runs (V2 read as V2: its media paths are looked up, and the route
/// takes the records that name none); a V1 record's media are looked up by the migration, which
/// stays on the general path. Without a catalog every collection of the three has one.
@Suite struct BundleRouteTests {
    static func routed(_ domain: Domain, from source: Int, to target: Int, media: Bool, checksMigration: Bool = false)
        throws -> [String]
    {
        var options = ProcessingOptions()
        if media { options.media = ListedMediaCatalog(paths: ["media/a.png"]) }
        options.checksMigration = checksMigration
        let preparer = try DatasetProcessor(domain: domain, sourceVersion: source, targetVersion: target, options: options,
            log: DiagnosticLog()).preparer
        return preparer.sourceCollections.filter { preparer.typedRoute(for: $0) != nil }
    }

    @Test func notesAndVocabularyKeepTheirRoutesWithACatalog() throws {
        let notesV1 = ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"]
        let notesV2 = ["wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes"]
        for media in [false, true] {
            #expect(try Set(Self.routed(.notes, from: 1, to: 1, media: media)) == Set(notesV1), "\(media)")
            #expect(try Set(Self.routed(.notes, from: 1, to: 1, media: media, checksMigration: true)) == Set(notesV1))
            #expect(try Set(Self.routed(.notes, from: 1, to: 2, media: media)) == Set(notesV1), "\(media)")
            #expect(try Set(Self.routed(.notes, from: 2, to: 2, media: media)) == Set(notesV2), "\(media)")
            #expect(try Set(Self.routed(.vocabulary, from: 1, to: 2, media: media)) == ["wordBooks", "words"], "\(media)")
            #expect(try Set(Self.routed(.vocabulary, from: 2, to: 2, media: media)) == ["wordBooks", "words"], "\(media)")
        }
    }

    @Test func petStoryHasRoutesWithACatalogOnlyWhereNoStageRuns() throws {
        #expect(try Set(Self.routed(.petStory, from: 2, to: 2, media: true)) == ["profiles", "members", "stories"])
        #expect(try Self.routed(.petStory, from: 1, to: 2, media: true) == [])
        #expect(try Self.routed(.petStory, from: 1, to: 1, media: true, checksMigration: true) == [])
        #expect(try Set(Self.routed(.petStory, from: 2, to: 2, media: false)) == ["profiles", "members", "stories"])
    }

    /// With a catalog, a pet-story V2 route asks each model whether it names a media file (a
    /// record that does goes the general path, which looks it up); without one, no record does.
    @Test func aPetStoryRouteWithACatalogTellsTheRecordsThatNameMedia() throws {
        func route(_ collection: String, media: Bool) throws -> TypedRoute {
            var options = ProcessingOptions()
            if media { options.media = ListedMediaCatalog(paths: ["media/a.png"]) }
            let preparer = try DatasetProcessor(domain: .petStory, sourceVersion: 2, targetVersion: 2, options: options,
                log: DiagnosticLog()).preparer
            return try #require(preparer.typedRoute(for: collection))
        }
        let day = try #require(CalendarDay("2020-01-01"))
        func member(image: String?) -> PetStoryV2.FamilyMember {
            PetStoryV2.FamilyMember(id: "m1", name: "Pet", since: day, birthDate: day, species: .cat, sex: .male, bio: "",
                createdAt: .epoch, image: image.map { PetStoryV2.MediaRef(path: $0) })
        }
        func story(paths: [String]) -> PetStoryV2.Story {
            PetStoryV2.Story(id: "s1", caption: "walk", createdAt: .epoch,
                media: paths.enumerated().map { PetStoryV2.MediaItem(id: "x\($0.offset)", kind: .photo, path: $0.element) },
                taggedMemberIds: [])
        }
        let profile = PetStoryV2.Profile(id: "p1", name: "Hana", createdAt: .epoch, lastUpdatedAt: .epoch,
            image: PetStoryV2.MediaRef(path: "media/a.png"))

        let stories = try route("stories", media: true)
        #expect(stories.checksMedia)
        #expect(!stories.namesMedia(story(paths: [])))
        // Named whether or not the catalog holds the file: the general path looks it up.
        #expect(stories.namesMedia(story(paths: ["media/a.png"])))
        #expect(stories.namesMedia(story(paths: ["media/Stories/s1/gone.jpg"])))
        let members = try route("members", media: true)
        #expect(!members.namesMedia(member(image: nil)))
        #expect(members.namesMedia(member(image: "media/MemberImages/m1.png")))
        #expect(try route("profiles", media: true).namesMedia(profile))

        let plain = try route("stories", media: false)
        #expect(!plain.checksMedia)
        #expect(!plain.namesMedia(story(paths: ["media/a.png"])))
        #expect(try !route("profiles", media: false).namesMedia(profile))
    }
}
