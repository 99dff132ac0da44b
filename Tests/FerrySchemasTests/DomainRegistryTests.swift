import FerryCore
import FerrySchemas
import Testing

/// A definition that takes every default: the notes plan under another name, to check what the
/// defaults read from a plan. Never registered in the shared registry (other suites list its
/// domains in messages).
private enum PlainNotes: DomainDefinition {
    static let name = "plain-notes"
    static var migrationPlan: any SchemaMigrationPlan.Type { NotesMigrationPlan.self }
}

private enum ImpostorNotes: DomainDefinition {
    static let name = "notes"
    static var migrationPlan: any SchemaMigrationPlan.Type { NotesMigrationPlan.self }
}

private enum Unnamed: DomainDefinition {
    static let name = "my notes"
    static var migrationPlan: any SchemaMigrationPlan.Type { NotesMigrationPlan.self }
}

/// Collects the collection names a definition visits.
private struct CollectionNames: CollectionModelVisitor {
    var names: [String] = []
    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) { names.append(Model.collection) }
}

@Suite struct DomainRegistryTests {
    /// The built-in domains are registered in SCHEMAS.md's order, by the names the command line takes.
    @Test func builtInDomains() {
        #expect(Array(Domain.allCases.prefix(3)) == [.notes, .petStory, .vocabulary])
        #expect([Domain.notes, .petStory, .vocabulary].map(\.rawValue) == ["notes", "pet-story", "vocabulary"])
        #expect(Domain(rawValue: "pet-story") == .petStory)
        #expect(Domain(rawValue: "recipes") == nil)
        #expect(Domain(rawValue: "Notes") == nil)
        #expect(Domain.petStory.definition.map { ObjectIdentifier($0) } == ObjectIdentifier(PetStoryDomain.self))
        #expect(Domain(PlainNotes.self).definition == nil)
    }

    /// Each domain's schemas come from its definition's plan, in canonical collection order.
    @Test(arguments: [(Domain.notes, 1), (.notes, 2), (.petStory, 1), (.petStory, 2), (.vocabulary, 1), (.vocabulary, 2)])
    func schemasFromThePlan(domain: Domain, version: Int) throws {
        let schema = try #require(DatasetSchema.schema(for: domain, version: version))
        let plan = try #require(domain.definition?.migrationPlan)
        #expect(schema == plan.schema(version: version)?.datasetSchema)
        #expect(schema.domain == domain)
        #expect(schema.version == version)
        #expect(DatasetSchema.schema(for: domain, version: 3) == nil)
        #expect(DatasetSchema.schema(for: Domain(PlainNotes.self), version: version) == nil)
    }

    /// A registry of its own: names are checked, a name is taken once, the same definition again
    /// is no change.
    @Test func registration() throws {
        let registry = DomainRegistry()
        try registry.register(NotesDomain.self)
        try registry.register(PlainNotes.self)
        try registry.register(NotesDomain.self)
        #expect(registry.domains.map(\.rawValue) == ["notes", "plain-notes"])
        #expect(registry.namesList == "notes, plain-notes")
        #expect(registry.definition(named: "plain-notes").map { ObjectIdentifier($0) } == ObjectIdentifier(PlainNotes.self))
        #expect(registry.definition(named: "pet-story") == nil)
        let impostor = #expect(throws: FerryError.self) { try registry.register(ImpostorNotes.self) }
        #expect(impostor?.diagnostic.description == #"ferry: error: domain "notes" is already registered (by NotesDomain) [usage]"#)
        let unnamed = #expect(throws: FerryError.self) { try registry.register(Unnamed.self) }
        #expect(unnamed?.diagnostic.description == #"ferry: error: domain name "my notes" must be non-empty, without whitespace or '/' [usage]"#)
        #expect(registry.domains.count == 2)
    }

    /// The defaults read the plan: its collections, a version by a collection or a field only
    /// it has, else the oldest.
    @Test func defaultsReadThePlan() {
        var visited = CollectionNames()
        PlainNotes.forEachModel(&visited)
        #expect(visited.names == [
            "wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes",
            "wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes",
        ])
        #expect(PlainNotes.claims(collection: "whiskeyTastingNotes"))
        #expect(!PlainNotes.claims(collection: "words"))
        #expect(PlainNotes.detectVersion(collections: ["coffeeTastingNotes"], sample: nil) == 2)
        #expect(PlainNotes.detectVersion(collections: ["coffeeNotes"], sample: nil) == 1)
        #expect(PlainNotes.detectVersion(collections: [], sample: ["title": "x", "alcoholByVolume": 12.5]) == 2)
        #expect(PlainNotes.detectVersion(collections: [], sample: ["title": "x", "alcohol": 12.5]) == 1)
        #expect(PlainNotes.detectVersion(collections: [], sample: ["title": "x"]) == 1)
        #expect(!PlainNotes.hasFirestoreLayouts)
        #expect(PlainNotes.assumption(collection: "wineNotes", fromVersion: 1, toVersion: 2, timeZone: "UTC") == nil)
        #expect(PlainNotes.mediaStems(collection: "profiles", value: ["id": "p1"]).isEmpty)
        #expect(PlainNotes.references(collection: "wineTastingNotes", version: 2).isEmpty)
    }

    /// What only some built-in domains have is in their definitions.
    @Test func builtInHooks() {
        #expect([NotesDomain.hasFirestoreLayouts, PetStoryDomain.hasFirestoreLayouts, VocabularyDomain.hasFirestoreLayouts]
            == [false, false, true])
        #expect(PetStoryDomain.assumption(collection: "members", fromVersion: 1, toVersion: 2, timeZone: "Asia/Tokyo")
            == "calendar days (birthDate, since) are taken in time zone Asia/Tokyo (--time-zone)")
        #expect(PetStoryDomain.assumption(collection: "members", fromVersion: 2, toVersion: 2, timeZone: "UTC") == nil)
        #expect(PetStoryDomain.assumption(collection: "profiles", fromVersion: 1, toVersion: 2, timeZone: "UTC") == nil)
        #expect(PetStoryDomain.mediaStems(collection: "members", value: ["id": "m1"]) == ["MemberImages/m1"])
        #expect(VocabularyDomain.claims(collection: "wordBooks/b1/words"))
        #expect(!NotesDomain.claims(collection: "books"))
        // References are declared, and checked by the same code for any domain (PetStoryTests and
        // VocabularyTests check the diagnostics they give).
        for version in [1, 2] {
            #expect(PetStoryDomain.references(collection: "stories", version: version)
                == [ReferenceRule(field: "taggedMemberIds", collection: "members", noun: "member")])
            #expect(PetStoryDomain.references(collection: "members", version: version).isEmpty)
        }
        #expect(VocabularyDomain.references(collection: "words", version: 2)
            == [ReferenceRule(field: "wordBookID", collection: "wordBooks", noun: "word book")])
        #expect(VocabularyDomain.references(collection: "words", version: 1)
            == [ReferenceRule(field: "wordBookID", collection: "wordBooks", noun: "word book")])
        #expect(NotesDomain.references(collection: "wineTastingNotes", version: 2).isEmpty)
    }
}
