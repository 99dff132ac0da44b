import FerryCore
import Testing

@testable import FerrySchemas

/// With a bundle's media catalog, a collection has a typed route when its domain says its records
/// need the catalog at no version they pass through (`DomainDefinition.usesMediaCatalog`): every
/// notes and vocabulary collection, validated, converted or migrated; no pet-story collection
/// (media paths checked, V1 media looked up by the migration). Without a catalog every
/// collection of the three has one.
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

    @Test func petStoryHasNoRouteWithACatalog() throws {
        #expect(try Self.routed(.petStory, from: 2, to: 2, media: true) == [])
        #expect(try Self.routed(.petStory, from: 1, to: 2, media: true) == [])
        #expect(try Self.routed(.petStory, from: 1, to: 1, media: true, checksMigration: true) == [])
        #expect(try Set(Self.routed(.petStory, from: 2, to: 2, media: false)) == ["profiles", "members", "stories"])
    }
}
