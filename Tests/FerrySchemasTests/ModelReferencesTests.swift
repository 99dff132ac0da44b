import FerryCore
import Testing

@testable import FerrySchemas

/// Collections whose records name others get a typed route that carries the domain's reference
/// rules, and a route reads a model's references as the general path reads them from the
/// record's value: every string of a list (empty ones too) with its index, a non-empty string.
@Suite struct ModelReferencesTests {
    static let instant = Instant(seconds: 1_600_000_000) ?? .epoch

    static func preparer(_ domain: Domain, from source: Int, to target: Int) throws -> RecordPreparer {
        try DatasetProcessor(domain: domain, sourceVersion: source, targetVersion: target, options: ProcessingOptions(),
            log: DiagnosticLog()).preparer
    }

    static func story(tagging tags: [String]) -> PetStoryV2.Story {
        PetStoryV2.Story(id: "s1", caption: "c", createdAt: instant, media: [], taggedMemberIds: tags)
    }

    static func v2Word(book: String) -> VocabularyV2.Word {
        VocabularyV2.Word(id: "w1", wordBookID: book, meaningText: "m", meaningImageURL: "", ganaText: "g", ganaImageURL: "",
            kanjiText: "k", kanjiImageURL: "", studyState: .fail, timestamp: instant)
    }

    static func v1Word(book: String?) -> VocabularyV1.Word {
        VocabularyV1.Word(id: "w1", wordBookID: book, meaningText: "m", meaningImageURL: "", ganaText: "g", ganaImageURL: "",
            kanjiText: "k", kanjiImageURL: "", studyState: 1, timestamp: FirestoreTimestamp(instant: instant))
    }

    @Test func routesCarryTheRulesOfTheTargetCollection() throws {
        let stories = try #require(try Self.preparer(.petStory, from: 2, to: 2).typedRoute(for: "stories"))
        #expect(stories.referenceRules == [ReferenceRule(field: "taggedMemberIds", collection: "members", noun: "member")])
        #expect(stories.hasReferences && !stories.migrates)
        let members = try #require(try Self.preparer(.petStory, from: 2, to: 2).typedRoute(for: "members"))
        #expect(members.referenceRules.isEmpty && !members.hasReferences)
        // A domain with Firestore layouts: the flat collections have routes, at both versions.
        let words = try #require(try Self.preparer(.vocabulary, from: 2, to: 2).typedRoute(for: "words"))
        #expect(words.referenceRules == [ReferenceRule(field: "wordBookID", collection: "wordBooks", noun: "word book")])
        // V1's words and books hold Firestore Timestamps, which the lane's readers read: they have
        // routes migrating them, with V2's rules.
        let v1Words = try #require(try Self.preparer(.vocabulary, from: 1, to: 2).typedRoute(for: "words"))
        #expect(v1Words.migrates && v1Words.hasReferences && !v1Words.checks)
        #expect(v1Words.referenceRules == words.referenceRules)
        #expect(try Self.preparer(.vocabulary, from: 2, to: 2).typedRoute(for: "wordBooks")?.hasReferences == false)
        // Pet-story's V2 models check across fields: a migrated record is read back in full
        // (`MigrationStep.migratePlainly`), on the lane like any other; the rules are V2's.
        let migrated = try #require(try Self.preparer(.petStory, from: 1, to: 2).typedRoute(for: "stories"))
        #expect(migrated.migrates && migrated.hasReferences)
        #expect(migrated.referenceRules == stories.referenceRules)
    }

    /// Validation of V1 runs V2's migration for its checks: each domain's V1 collections get
    /// routes that run no stage and carry the checks, with V1's reference rules.
    @Test(arguments: [(Domain.notes, "wineNotes"), (.petStory, "stories"), (.petStory, "members"), (.vocabulary, "words"),
                      (.vocabulary, "wordBooks")])
    func validationOfV1CarriesTheChecks(domain: Domain, collection: String) throws {
        var options = ProcessingOptions()
        options.checksMigration = true
        let preparer = try DatasetProcessor(domain: domain, sourceVersion: 1, targetVersion: 1, options: options,
            log: DiagnosticLog()).preparer
        let route = try #require(preparer.typedRoute(for: collection))
        #expect(route.checks && !route.migrates)
        #expect(route.targetCollection == collection)
        let plain = try #require(try Self.preparer(domain, from: 1, to: 1).typedRoute(for: collection))
        #expect(!plain.checks)
        #expect(route.referenceRules == plain.referenceRules)
    }

    @Test func aListNamesOneRecordPerStringWithItsIndex() throws {
        let route = try #require(try Self.preparer(.petStory, from: 2, to: 2).typedRoute(for: "stories"))
        let found = route.references(of: Self.story(tagging: ["m1", "", "m2"]))
        #expect(found.map(\.rule) == [0, 0, 0])
        #expect(found.map(\.id) == ["m1", "", "m2"])
        #expect(found.map(\.index) == [0, 1, 2])
        #expect(route.references(of: Self.story(tagging: [])).isEmpty)
    }

    @Test func aStringNamesOneRecordWhenNotEmpty() throws {
        let route = try #require(try Self.preparer(.vocabulary, from: 2, to: 2).typedRoute(for: "words"))
        let found = route.references(of: Self.v2Word(book: "b1"))
        #expect(found.map(\.id) == ["b1"])
        #expect(found.map(\.index) == [nil])
        #expect(route.references(of: Self.v2Word(book: "")).isEmpty)
        // The V1 word's optional field.
        let rules = route.referenceRules
        #expect(ReferenceCapture.references(of: Self.v1Word(book: "b2"), rules: rules).map(\.id) == ["b2"])
        #expect(ReferenceCapture.references(of: Self.v1Word(book: nil), rules: rules).isEmpty)
    }

    @Test func severalRulesKeepTheirOrderWhateverTheFieldOrder() {
        // The fields come in the model's order (wordBookID before studyState); the rules' order wins.
        let rules = [ReferenceRule(field: "meaningText", collection: "a", noun: "a"),
                     ReferenceRule(field: "wordBookID", collection: "b", noun: "b")]
        let found = ReferenceCapture.references(of: Self.v2Word(book: "b1"), rules: rules)
        #expect(found.map(\.rule) == [0, 1])
        #expect(found.map(\.id) == ["m", "b1"])
    }
}
