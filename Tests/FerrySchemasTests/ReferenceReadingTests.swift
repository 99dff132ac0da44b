import FerryCore
import Testing

@testable import FerrySchemas

/// A route reads its records' references off the model in place (`ReferenceReading`): for every
/// model whose records name others, the references are exactly those found by encoding the whole
/// model (`ReferenceCapture`), which are the general path's: the same rules, ids, indexes, order.
@Suite struct ReferenceReadingTests {
    static let instant = Instant(seconds: 1_600_000_000) ?? .epoch

    static func route(_ domain: Domain, from source: Int, to target: Int, _ collection: String, checks: Bool = false)
        throws -> TypedRoute
    {
        var options = ProcessingOptions()
        options.checksMigration = checks
        let preparer = try DatasetProcessor(domain: domain, sourceVersion: source, targetVersion: target, options: options,
            log: DiagnosticLog()).preparer
        return try #require(preparer.typedRoute(for: collection))
    }

    /// Tag lists: none, one, an id repeated, empty strings among them, many.
    static let tagLists: [[String]] = [[], ["m1"], ["m1", "m1"], ["", "m2", ""], ["m3", "m1", "m3", "m4", ""],
                                       (0..<40).map { "member-\($0 % 7)" }]

    static func v2Story(_ tags: [String], song: String? = nil) -> PetStoryV2.Story {
        PetStoryV2.Story(id: "s1", caption: "c", createdAt: instant, media: [], songId: song,
            location: song == nil ? nil : PetStoryV2.GeoLocation(latitude: 1, longitude: 2), taggedMemberIds: tags)
    }

    static func v1Story(_ tags: [String], song: String? = nil) -> PetStoryV1.Story {
        PetStoryV1.Story(id: "s1", caption: "c", createdAt: instant, mediaContentIds: ["m1", "x"], songId: song,
            lat: song == nil ? nil : 1, taggedMemberIds: tags)
    }

    static func v2Word(_ book: String) -> VocabularyV2.Word {
        VocabularyV2.Word(id: "w1", wordBookID: book, meaningText: "m", meaningImageURL: "", ganaText: "g", ganaImageURL: "",
            kanjiText: "k", kanjiImageURL: "", studyState: .fail, timestamp: instant)
    }

    static func v1Word(_ book: String?, id: String? = "w1") -> VocabularyV1.Word {
        VocabularyV1.Word(id: id, wordBookID: book, meaningText: "m", meaningImageURL: "", ganaText: "g", ganaImageURL: "",
            kanjiText: "k", kanjiImageURL: "", studyState: 1, timestamp: FirestoreTimestamp(instant: instant))
    }

    /// The references of `model` on `route`, concrete and boxed, and those found by encoding it.
    static func context(_ collection: String) -> RecordContext {
        RecordContext(record: Record(collection: collection, value: .null, location: SourceLocation()))
    }

    static func read<Model: FieldCodableCollection>(_ model: Model, _ route: TypedRoute)
        -> (concrete: [ModelReference], boxed: [ModelReference], encoded: [ModelReference])
    {
        (route.references(ofConcrete: model), route.references(of: model), route.referencesByEncoding(of: model))
    }

    @Test func everyRouteWhoseRecordsNameOthersReadsInPlace() throws {
        let routes = [try Self.route(.petStory, from: 2, to: 2, "stories"), try Self.route(.petStory, from: 1, to: 2, "stories"),
                      try Self.route(.petStory, from: 1, to: 1, "stories", checks: true),
                      try Self.route(.vocabulary, from: 2, to: 2, "words"), try Self.route(.vocabulary, from: 1, to: 2, "words")]
        for route in routes {
            #expect(route.hasReferences)
            let reading = try #require(route.referenceReading)
            #expect(reading.model == ObjectIdentifier(route.sourceModel))
            #expect(reading.fields.count == 1)
        }
        // No other model of the three domains makes references on a route.
        for (domain, collection) in [(Domain.petStory, "members"), (.petStory, "profiles"), (.vocabulary, "wordBooks")] {
            #expect(try Self.route(domain, from: 2, to: 2, collection).referenceReading == nil)
        }
        #expect(try Self.route(.notes, from: 2, to: 2, "wineTastingNotes").referenceReading == nil)
    }

    @Test(arguments: tagLists)
    func storiesGiveWhatEncodingGives(tags: [String]) throws {
        let v2 = try Self.route(.petStory, from: 2, to: 2, "stories")
        let v1 = try Self.route(.petStory, from: 1, to: 2, "stories")
        let checked = try Self.route(.petStory, from: 1, to: 1, "stories", checks: true)
        let expected = tags.enumerated().map { [0, $0.offset] as [Int] }
        for song in [nil, "song"] as [String?] {
            let read2 = Self.read(Self.v2Story(tags, song: song), v2)
            #expect(read2.concrete == read2.encoded)
            #expect(read2.boxed == read2.encoded)
            #expect(read2.concrete.map(\.id) == tags)
            #expect(read2.concrete.map { [$0.rule, $0.index ?? -1] } == expected)
            for route in [v1, checked] {
                let read1 = Self.read(Self.v1Story(tags, song: song), route)
                #expect(read1.concrete == read1.encoded)
                #expect(read1.boxed == read1.encoded)
                #expect(read1.concrete.map(\.id) == tags)
                #expect(read1.concrete.map(\.index) == tags.indices.map { $0 })
            }
        }
    }

    @Test(arguments: ["", "b1", "book-with-a-long-id-beyond-sixteen-bytes", "b1"])
    func wordsGiveWhatEncodingGives(book: String) throws {
        let v2 = try Self.route(.vocabulary, from: 2, to: 2, "words")
        let read2 = Self.read(Self.v2Word(book), v2)
        #expect(read2.concrete == read2.encoded)
        #expect(read2.boxed == read2.encoded)
        #expect(read2.concrete.map(\.id) == (book.isEmpty ? [] : [book]))
        #expect(read2.concrete.map(\.index) == (book.isEmpty ? [] : [nil]))
        let v1 = try Self.route(.vocabulary, from: 1, to: 2, "words")
        // Absent (nil), empty and set, with and without the word's own (optional) id before it.
        for word in [Self.v1Word(book), Self.v1Word(book, id: nil), Self.v1Word(nil), Self.v1Word(nil, id: nil)] {
            let read1 = Self.read(word, v1)
            #expect(read1.concrete == read1.encoded)
            #expect(read1.boxed == read1.encoded)
            let named = word.wordBookID.flatMap { $0.isEmpty ? nil : $0 }
            #expect(read1.concrete.map(\.id) == (named.map { [$0] } ?? []))
        }
    }

    /// Records read from values as the general path reads them, a null or absent list or id
    /// included: what reading in place gives is what encoding gives.
    @Test func modelsReadFromValuesGiveWhatEncodingGives() throws {
        let v1Words = try Self.route(.vocabulary, from: 1, to: 2, "words")
        let timestamp: Value = .object(ValueObject([("_seconds", .integer(1_600_000_000)), ("_nanoseconds", .integer(0))]))
        let books: [Value?] = [nil, .null, .string(""), .string("b1")]
        for book in books {
            var members: [ValueObject.Member] = [("id", .string("w1"))]
            if let book { members.append(("wordBookID", book)) }
            members += [("meaningText", .string("m")), ("studyState", .integer(0)), ("timestamp", timestamp)]
            var diagnostics: [Diagnostic] = []
            let word = VocabularyV1.Word(value: .object(ValueObject(members)), at: Self.context("words"), diagnostics: &diagnostics)
            let read = Self.read(word, v1Words)
            #expect(read.concrete == read.encoded)
            #expect(read.concrete.map(\.id) == (book == .string("b1") ? ["b1"] : []))
        }
        let stories = try Self.route(.petStory, from: 2, to: 2, "stories")
        let tagValues: [Value?] = [nil, .null, .array([]), .array([.string("m1"), .string("m1"), .string("")])]
        for tags in tagValues {
            var members: [ValueObject.Member] = [("id", .string("s1")), ("caption", .string("")),
                                                 ("createdAt", .string("2020-09-13T12:26:40Z")), ("media", .array([]))]
            if let tags { members.append(("taggedMemberIds", tags)) }
            var diagnostics: [Diagnostic] = []
            let story = PetStoryV2.Story(value: .object(ValueObject(members)), at: Self.context("stories"), diagnostics: &diagnostics)
            let read = Self.read(story, stories)
            #expect(read.concrete == read.encoded)
            #expect(read.concrete.map(\.id) == (tags == nil || tags == .null || tags == .array([]) ? [] : ["m1", "m1", ""]))
        }
    }

    /// A rule on a field the model does not list (or of another kind) leaves the route to
    /// encoding the model, with the same result.
    @Test func aFieldTheModelDoesNotListIsFoundByEncoding() {
        let rules = [ReferenceRule(field: "meaningText", collection: "a", noun: "a"),
                     ReferenceRule(field: "wordBookID", collection: "b", noun: "b")]
        #expect(ReferenceReading(rules: rules, model: VocabularyV2.Word.self) == nil)
        #expect(ReferenceReading(rules: [ReferenceRule(field: "id", collection: "a", noun: "a")], model: PetStoryV2.Story.self) == nil)
        #expect(ReferenceReading(rules: [ReferenceRule(field: "taggedMemberIds", collection: "members", noun: "member")],
            model: PetStoryV2.FamilyMember.self) == nil)
        let reading = ReferenceReading(rules: rules.suffix(1).map { $0 }, model: VocabularyV2.Word.self)
        #expect(reading?.fields.map(\.rule) == [0])
    }
}
