import FerryCore
import FerrySchemas
import Testing

@Suite struct ProcessorTests {
    @Test func refusesDownMigrationAndUnknownVersions() {
        let log = DiagnosticLog()
        #expect(throws: FerryError.self) {
            try DatasetProcessor(domain: .notes, sourceVersion: 2, targetVersion: 1, options: ProcessingOptions(), log: log)
        }
        do {
            _ = try DatasetProcessor(domain: .notes, sourceVersion: 1, targetVersion: 3, options: ProcessingOptions(), log: log)
            Issue.record("version 3 accepted")
        } catch let error as FerryError {
            #expect(error.diagnostic.code == .unknownVersion)
            #expect(error.exitStatus == .unknown)
        } catch {
            Issue.record("\(error)")
        }
        var options = ProcessingOptions()
        options.timeZone = "Mars/Olympus"
        #expect(throws: FerryError.self) {
            try DatasetProcessor(domain: .petStory, sourceVersion: 1, targetVersion: 2, options: options, log: log)
        }
    }

    @Test func unknownCollectionIsReportedOnce() throws {
        let records = [
            makeRecord("beerNotes", 0, ["id": "x"], line: 3), makeRecord("beerNotes", 1, ["id": "y"], line: 4),
        ]
        let result = try run(.notes, from: 1, to: 2, records)
        #expect(result.diagnostics == ["error invalid-value 3:3 /beerNotes/0"])
        #expect(result.log.diagnostics[0].message == "unknown collection beerNotes for domain notes v1 (its collections: wineNotes, coffeeNotes, whiskeyNotes, cocktailNotes); its records are skipped")
        #expect(result.records.isEmpty)
    }

    @Test func v1FieldsOfAnotherTypeAreUnknown() throws {
        let coffee: Value = [
            "id": "c1", "title": "Kenya", "category": "", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 0, "look": "",
            "smells": [], "tastes": [], "grape": "Merlot", "think": "", "rating": 4, "isFavorite": false,
            "$collection": "coffeeNotes",
        ]
        let result = try run(.notes, from: 1, to: 1, [makeRecord("coffeeNotes", 0, coffee, fields: ["/grape": (3, 5)])])
        #expect(result.diagnostics == ["error unknown-field 3:5 /coffeeNotes/0/grape"])
    }

    @Test func nonObjectRecordIsATypeError() throws {
        let result = try run(.notes, from: 2, to: 2, [makeRecord("wineTastingNotes", 0, [1, 2])])
        #expect(result.diagnostics == ["error type-error 2:3 /wineTastingNotes/0"])
    }

    @Test func returnedRecordsKeepTheSourceLocator() throws {
        let wine: Value = [
            "id": "w1", "title": "M", "category": "", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 13, "look": "",
            "smells": [], "tastes": [], "grape": "", "think": "", "rating": 4, "isFavorite": false,
        ]
        let result = try run(.notes, from: 1, to: 2, [makeRecord("wineNotes", 0, wine, fields: ["/alcohol": (5, 9)])])
        let record = try #require(result.records.first)
        #expect(record.pointer == "/wineTastingNotes/0")
        #expect(record.location(of: "/alcoholByVolume").position == TextPosition(line: 5, column: 9))
        #expect(record.location(of: "/alcoholByVolume").field == "/wineTastingNotes/0/alcoholByVolume")
    }
}

@Suite struct SchemaDescriptorTests {
    @Test func collectionsInCanonicalOrder() throws {
        #expect(DatasetSchema.schema(for: .notes, version: 1)?.collectionNames == ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"])
        #expect(DatasetSchema.schema(for: .notes, version: 2)?.collectionNames
            == ["wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes"])
        #expect(DatasetSchema.schema(for: .petStory, version: 2)?.collectionNames == ["profiles", "members", "stories"])
        #expect(DatasetSchema.schema(for: .vocabulary, version: 1)?.collectionNames == ["wordBooks", "words"])
        #expect(DatasetSchema.schema(for: .vocabulary, version: 3) == nil)
    }

    @Test func fieldsInCanonicalOrderWithTheirRules() throws {
        let wine = try #require(DatasetSchema.schema(for: .notes, version: 2)?.collection(named: "wineTastingNotes")?.recordType)
        #expect(wine.name == "WineTastingNote")
        #expect(wine.fieldNames == [
            "id", "title", "category", "createdAt", "imageData", "alcoholByVolume", "look", "smells", "tastes", "grape", "think",
            "rating", "isFavorite",
        ])
        let rating = try #require(wine.field(named: "rating"))
        #expect(rating.range == 0...5 && rating.step == 0.5 && rating.isRequired)
        #expect(wine.field(named: "imageData")?.isExternalStorage == true && wine.field(named: "imageData")?.isRequired == false)
        #expect(wine.field(named: "alcoholByVolume")?.originalName == "alcohol")
        #expect(wine.field(named: "tastes")?.type == .array(.object(NotesV2.Taste.recordType)))
        let cocktail = try #require(DatasetSchema.schema(for: .notes, version: 1)?.collection(named: "cocktailNotes")?.recordType)
        #expect(cocktail.fieldNames == [
            "id", "title", "category", "createdAt", "imageData", "alcohol", "look", "smells", "tastes", "ingredients",
            "isContainsIce", "think", "rating", "isFavorite",
        ])
        let member = try #require(DatasetSchema.schema(for: .petStory, version: 2)?.collection(named: "members")?.recordType)
        #expect(member.field(named: "species")?.type
            == .enumeration(["bird", "dog", "cat", "rabbit", "hamster", "fish", "reptile", "other"]))
        let word = try #require(DatasetSchema.schema(for: .vocabulary, version: 2)?.collection(named: "words")?.recordType)
        #expect(word.fieldNames == [
            "id", "wordBookID", "meaningText", "meaningImageURL", "ganaText", "ganaImageURL", "kanjiText", "kanjiImageURL",
            "studyState", "timestamp",
        ])
        #expect(word.field(named: "kanjiImageURL")?.type == .url)
        let v1Word = try #require(DatasetSchema.schema(for: .vocabulary, version: 1)?.collection(named: "words")?.recordType)
        #expect(v1Word.field(named: "timestamp")?.type == .timestamp)
        #expect(v1Word.field(named: "ganaText")?.isRequired == false)
    }

    @Test func versionedSchemasAndPlans() {
        #expect(NotesSchemaV2.versionIdentifier == Schema.Version(2, 0, 0))
        #expect(NotesMigrationPlan.schemas.map { $0.versionIdentifier.major } == [1, 2])
        #expect(PetStoryMigrationPlan.stages.count == 1)
        #expect(VocabularyMigrationPlan.stages.first?.toVersion.versionIdentifier == Schema.Version(2, 0, 0))
    }
}

@Suite struct DomainDetectorTests {
    @Test func flagsThenHeaderThenShapes() {
        let none = DatasetHeader()
        #expect(DomainDetector.detect(domain: .notes, version: 2, header: DatasetHeader(domain: "vocabulary"), collections: [], sample: nil)! == (.notes, 2))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: DatasetHeader(domain: "pet-story", schemaVersion: 2), collections: [], sample: nil)! == (.petStory, 2))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: DatasetHeader(domain: "recipes"), collections: [], sample: nil) == nil)
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["wineTastingNotes"], sample: nil)! == (.notes, 2))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["coffeeNotes"], sample: nil)! == (.notes, 1))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["stories"], sample: ["mediaContentIds": []])! == (.petStory, 1))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["members"], sample: ["species": "dog"])! == (.petStory, 2))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["words"], sample: ["studyState": 1])! == (.vocabulary, 1))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["words"], sample: ["studyState": "fail"])! == (.vocabulary, 2))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["wordBooks"],
            sample: ["timestamp": ["_seconds": 1, "_nanoseconds": 0]])! == (.vocabulary, 1))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["__collections__"], sample: nil)! == (.vocabulary, 1))
        #expect(DomainDetector.detect(domain: nil, version: nil, header: none, collections: ["test"], sample: nil) == nil)
    }

    /// CSV and XML cells are text: a studyState in digits is V1's integer, a word is V2's enumeration.
    @Test(arguments: [("0", 1), ("1", 1), ("2", 1), ("-1", 1), ("17", 1), ("undefined", 2), ("success", 2), ("", 2), ("-", 2), ("1a", 2)])
    func studyStateTextTellsTheVersion(text: String, version: Int) {
        let detected = DomainDetector.detect(domain: nil, version: nil, header: DatasetHeader(), collections: ["words"],
                                             sample: ["studyState": .string(text), "timestamp": "2023-07-22T04:31:40Z"])
        #expect(detected! == (.vocabulary, version))
    }
}
