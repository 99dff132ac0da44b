import FerryCore
import Foundation
import Testing

@testable import FerrySchemas

/// The migration stages as declared on models (`MigrationStep`): what the plans list, what follows
/// from the steps (collection renames, pointers of diagnostics), what a step reports through its
/// context, and where the plain run (`migratePlainly`, the typed lane's) gives way to the one that
/// reports (`DatasetProcessor`), which runs the same step.
@Suite struct MigrationStepTests {
    static let tastes: Value = [["label": "acid", "value": .number("0.7")]]
    static let coffee: Value = [
        "id": "c1", "title": "Kenya", "category": "pour-over", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 0,
        "look": "", "smells": ["berry"], "tastes": tastes, "think": "", "rating": 4, "isFavorite": false,
    ]
    static let whiskey: Value = [
        "id": "w9", "title": "Islay", "category": "single malt", "createdAt": "2024-05-01T09:30:00.001Z",
        "alcohol": 46, "look": " amber , deep", "smells": ["peat"], "tastes": tastes,
        "finish": ["length": " Long ", "note": "smoke"], "think": "", "rating": 4.5, "isFavorite": false,
    ]

    /// The V1 model of `value` (read without a problem).
    static func model<M: FieldCodableCollection>(_ type: M.Type, _ value: Value) throws -> M {
        let (model, diagnostics, _) = decode(M.self, value, collection: M.collection)
        try #require(diagnostics.isEmpty, "\(diagnostics)")
        return model
    }

    static func context(_ source: String, _ target: String, mode: ProcessingMode = .normal, media: (any MediaCatalog)? = nil,
        timeZone: TimeZone = .gmt) -> MigrationContext
    {
        var options = ProcessingOptions()
        options.mode = mode
        options.media = media
        return MigrationContext(MigrationEnvironment(options: options, timeZone: timeZone, sourceCollection: source,
                                                     targetCollection: target), recordIndex: 3)
    }

    static func changed(_ value: Value, _ key: String, _ new: Value?) -> Value {
        guard case .object(var object) = value else { return value }
        object[key] = new
        return .object(object)
    }

    /// The (old collection -> new collection) pairs of each plan's one stage, in canonical order.
    @Test func eachPlanListsOneStepPerCollection() {
        func pairs(_ stages: [MigrationStage]) -> [String] {
            stages.flatMap { $0.steps.map { "\($0.sourceModel.collection) -> \($0.targetModel.collection)" } }
        }
        #expect(pairs(NotesMigrationPlan.stages) == [
            "wineNotes -> wineTastingNotes", "coffeeNotes -> coffeeTastingNotes", "whiskeyNotes -> whiskeyTastingNotes",
            "cocktailNotes -> cocktailTastingNotes",
        ])
        #expect(pairs(PetStoryMigrationPlan.stages) == ["profiles -> profiles", "members -> members", "stories -> stories"])
        #expect(pairs(VocabularyMigrationPlan.stages) == ["wordBooks -> wordBooks", "words -> words"])
        // Every V1 collection has its step, in the schema's order.
        #expect(NotesMigrationPlan.stages[0].steps.map { $0.sourceModel.collection } == NotesSchemaV1.models.map { $0.collection })
        #expect(PetStoryMigrationPlan.stages[0].steps.map { $0.sourceModel.collection } == PetStorySchemaV1.models.map { $0.collection })
        #expect(VocabularyMigrationPlan.stages[0].steps.map { $0.sourceModel.collection } == VocabularySchemaV1.models.map { $0.collection })
    }

    @Test func collectionRenamesFollowFromTheSteps() {
        #expect(NotesMigrationPlan.collectionRenames(toVersion: 2) == [
            "wineNotes": "wineTastingNotes", "coffeeNotes": "coffeeTastingNotes", "whiskeyNotes": "whiskeyTastingNotes",
            "cocktailNotes": "cocktailTastingNotes",
        ])
        #expect(NotesMigrationPlan.collectionRenames(toVersion: 1) == [:])
        #expect(PetStoryMigrationPlan.collectionRenames(toVersion: 2) == [:])
        #expect(VocabularyMigrationPlan.stage(toVersion: 2)?.step(forSourceCollection: "words")?.targetModel.collection == "words")
        #expect(VocabularyMigrationPlan.stage(toVersion: 2)?.step(forSourceCollection: "wineNotes") == nil)
    }

    @Test func pointersOfTheNewRecordMapBackThroughTheStep() {
        func back(_ plan: any SchemaMigrationPlan.Type, _ pointer: JSONPointer, _ collection: String) -> String {
            plan.sourcePointer(for: pointer, inCollection: collection, toVersion: 2).description
        }
        #expect(back(NotesMigrationPlan.self, "/alcoholByVolume", "wineTastingNotes") == "/alcohol")
        #expect(back(NotesMigrationPlan.self, "/smells/1/label", "coffeeTastingNotes") == "/smells/1")
        #expect(back(NotesMigrationPlan.self, "/look/tint", "whiskeyTastingNotes") == "/look")
        #expect(back(NotesMigrationPlan.self, "/rating", "wineTastingNotes") == "/rating")
        #expect(back(PetStoryMigrationPlan.self, "/location/longitude", "stories") == "/lng")
        #expect(back(PetStoryMigrationPlan.self, "/media/2/path", "stories") == "/mediaContentIds/2")
        #expect(back(VocabularyMigrationPlan.self, "/createdAt", "wordBooks") == "/timestamp")
        #expect(back(VocabularyMigrationPlan.self, "/createdAt", "words") == "/createdAt")
        #expect(back(VocabularyMigrationPlan.self, "/timestamp", "words") == "/timestamp")
        // A collection no step makes: the pointer as it is.
        #expect(back(NotesMigrationPlan.self, "/alcoholByVolume", "wineNotes") == "/alcoholByVolume")
    }

    /// Lossy drops are warnings at the V1 fields, in the order the step reports them; the V2
    /// model is still made.
    @Test func aStepReportsAtTheOldRecordsFields() throws {
        let lossy = Self.changed(Self.changed(Self.coffee, "alcohol", .number("5.5")), "look", "dark")
        let old = try Self.model(NotesV1.CoffeeNote.self, lossy)
        var context = Self.context("coffeeNotes", "coffeeTastingNotes")
        let new = try NotesMigrationPlan.coffeeV1toV2.migrate(old, &context)
        #expect(new.id == "c1")
        #expect(new.smells == [NotesV2.Smell(label: "berry")])
        #expect(context.problems == [
            MigrationProblem(severity: .warning, code: .lossyDrop,
                             message: "alcohol 5.5 has no place in CoffeeTastingNote; dropped", field: "/alcohol"),
            MigrationProblem(severity: .warning, code: .lossyDrop,
                             message: "look \"dark\" has no place in CoffeeTastingNote; dropped", field: "/look"),
        ])
        // Positioned in the record, which names its id.
        let record = makeRecord("coffeeNotes", 0, lossy, line: 4, fields: ["/alcohol": (5, 14), "/look": (6, 11)])
        let diagnostics = context.diagnostics(in: RecordContext(record: record))
        #expect(diagnostics.map(summary) == ["warning lossy-drop 5:14 /coffeeNotes/0/alcohol", "warning lossy-drop 6:11 /coffeeNotes/0/look"])
        #expect(diagnostics.map { $0.location.recordID } == ["c1", "c1"])
        // The plain run gives up on it: the reporting path takes the record.
        let environment = context.environment
        #expect(NotesMigrationPlan.coffeeV1toV2.migratePlainly(old, in: environment,
                                                                rules: FieldRulePlan(NotesV2.CoffeeTastingNote.recordType)) == nil)
    }

    @Test func aFinishLengthIsAnErrorOrUnderLenientMedium() throws {
        let odd = try Self.model(NotesV1.WhiskeyNote.self, Self.changed(Self.whiskey, "finish", ["length": "Lingering", "note": "smoke"]))
        var normal = Self.context("whiskeyNotes", "whiskeyTastingNotes")
        #expect(throws: MigrationAbandoned.self) { try NotesMigrationPlan.whiskeyV1toV2.migrate(odd, &normal) }
        #expect(normal.problems == [MigrationProblem(severity: .error, code: .invalidValue,
            message: "finish.length \"Lingering\" is not short, medium or long (--lenient maps it to medium)",
            field: "/finish/length")])
        var lenient = Self.context("whiskeyNotes", "whiskeyTastingNotes", mode: .lenient)
        let mapped = try NotesMigrationPlan.whiskeyV1toV2.migrate(odd, &lenient)
        #expect(mapped.finish == NotesV2.Finish(length: .medium, note: "Lingering. smoke"))
        #expect(lenient.problems.map(\.code) == [.lossyChange])
        // A known length, trimmed and lower-cased; the look split at its first comma.
        let plain = try Self.model(NotesV1.WhiskeyNote.self, Self.whiskey)
        var context = Self.context("whiskeyNotes", "whiskeyTastingNotes")
        let v2 = try NotesMigrationPlan.whiskeyV1toV2.migrate(plain, &context)
        #expect(v2.finish == NotesV2.Finish(length: .long, note: "smoke"))
        #expect(v2.look == NotesV2.Look(tint: "amber", note: "deep"))
        #expect(context.problems.isEmpty)
    }

    /// The plain run is the reporting path's output exactly where that path reports nothing, and
    /// nil elsewhere (a lossy drop, a derived id, a V2 rule broken).
    @Test func thePlainRunGivesWayWhereThePathReports() throws {
        let rules = FieldRulePlan(NotesV2.CoffeeTastingNote.recordType)
        let cases: [(String, Value, Bool)] = [
            ("as is", Self.coffee, true),
            ("no id", Self.changed(Self.coffee, "id", nil), false),
            ("rating 6", Self.changed(Self.coffee, "rating", 6), false),
            ("empty title", Self.changed(Self.coffee, "title", ""), false),
            ("lossy look", Self.changed(Self.coffee, "look", "dark"), false),
            ("blank look", Self.changed(Self.coffee, "look", " \n"), true),
        ]
        for (label, value, plain) in cases {
            let old = try Self.model(NotesV1.CoffeeNote.self, value)
            let environment = Self.context("coffeeNotes", "coffeeTastingNotes").environment
            let typed = NotesMigrationPlan.coffeeV1toV2.migratePlainly(old, in: environment, rules: rules)
            let general = try run(.notes, from: 1, to: 2, [makeRecord("coffeeNotes", 0, value)])
            #expect((typed != nil) == plain, "\(label)")
            // Its two halves, as the lane runs them (the step on the boxed model, then the check
            // of the new model by its own type), give the same.
            let halves = NotesMigrationPlan.coffeeV1toV2.migrateUnchecked(boxed: old, in: environment)
                .flatMap { $0 as? NotesV2.CoffeeTastingNote }
                .flatMap { environment.checkedPlainly($0, rules: rules, scalarsAsText: false) }
            #expect(halves?.value == typed?.value, "\(label)")
            // Only the step's own findings stop the first half (a broken V2 rule is the second's).
            #expect((NotesMigrationPlan.coffeeV1toV2.migrateUnchecked(boxed: old, in: environment) != nil)
                == (plain || label == "rating 6" || label == "empty title"), "\(label)")
            if let typed {
                #expect(general.diagnostics.isEmpty, "\(label)")
                #expect(general.records.map(\.value) == [typed.value], "\(label)")
            } else {
                #expect(!general.diagnostics.isEmpty || general.records.first?.value.objectValue?["id"] != nil, "\(label)")
            }
        }
    }

    @Test func aStudyStateIsAnErrorOrUnderLenientUndefined() throws {
        let value: Value = ["id": "w1", "wordBookID": "b1", "studyState": 7,
                            "timestamp": ["_seconds": 1, "_nanoseconds": 1_500_000]]
        let old = try Self.model(VocabularyV1.Word.self, value)
        var lenient = Self.context("words", "words", mode: .lenient)
        let word = try VocabularyMigrationPlan.wordV1toV2.migrate(old, &lenient)
        #expect(word.studyState == .undefined)
        #expect(word.timestamp == Instant(seconds: 1, nanoseconds: 1_000_000))
        #expect(lenient.problems.map(\.message) == [
            "timestamp has 1500000 nanoseconds; cut to milliseconds (1970-01-01T00:00:01.001Z)",
            "studyState 7 is not 0, 1 or 2; set to \"undefined\"",
        ])
        var normal = Self.context("words", "words")
        _ = try VocabularyMigrationPlan.wordV1toV2.migrate(old, &normal)
        #expect(normal.hasErrors)
        #expect(normal.problems.last == MigrationProblem(severity: .error, code: .invalidValue,
            message: "studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)",
            field: "/studyState"))
    }

    @Test func aMembersDatesBecomeDaysInTheTimeZone() throws {
        let value: Value = ["id": "m1", "name": "Mochi", "since": "2024-04-30T20:00:00Z", "birthDate": "2020-02-03",
                            "type": "cat", "sex": "female", "bio": "", "createdAt": "2024-05-01T00:00:00Z"]
        let old = try Self.model(PetStoryV1.FamilyMember.self, value)
        var context = Self.context("members", "members", timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .gmt)
        let member = try PetStoryMigrationPlan.memberV1toV2.migrate(old, &context)
        #expect(member.since.description == "2024-05-01")
        #expect(member.birthDate.description == "2020-02-03")
        #expect(member.species == .cat)
        #expect(member.image == nil)
        #expect(context.problems.isEmpty)
    }

    @Test func aStoryNeedsBothCoordinatesAndMarksMediaNotExported() throws {
        let value: Value = ["id": "s1", "caption": "", "createdAt": "2024-05-01T00:00:00Z", "mediaContentIds": ["p1"],
                            "lat": 35.6, "taggedMemberIds": []]
        let old = try Self.model(PetStoryV1.Story.self, value)
        var context = Self.context("stories", "stories")
        let story = try PetStoryMigrationPlan.storyV1toV2.migrate(old, &context)
        #expect(story.media == [PetStoryV2.MediaItem(id: "p1", kind: .unknown, path: "media/Stories/s1/p1")])
        #expect(story.location == nil)
        #expect(context.problems == [
            MigrationProblem(severity: .warning, code: .mediaNotFound,
                             message: "media \"p1\" was not exported with this file; kind set to unknown",
                             field: "/mediaContentIds/0"),
            MigrationProblem(severity: .error, code: .invalidValue, message: "lat without lng; a location needs both", field: "/lat",
                             comparedFields: ["/lng"]),
        ])
    }

    /// Hands each step's concrete model types, as the typed lane does to specialize for a pair.
    struct PairNames: MigrationStepVisitor {
        var names: [String] = []
        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(_ step: MigrationStep<Old, New>) {
            names.append("\(Old.self) -> \(New.self)")
        }
    }

    @Test func aStepIsHandedWithItsConcreteTypes() throws {
        var visitor = PairNames()
        for step in VocabularyMigrationPlan.stages[0].steps { step.accept(&visitor) }
        #expect(visitor.names == ["WordBook -> WordBook", "Word -> Word"])
        // The boxed run refuses a model of another type.
        let book = try Self.model(VocabularyV1.WordBook.self, ["id": "b1", "title": "N5", "timestamp": ["_seconds": 0, "_nanoseconds": 0]])
        var context = Self.context("words", "words")
        #expect(throws: (any Error).self) { try VocabularyMigrationPlan.stages[0].steps[1].migrate(boxed: book, &context) }
        #expect(VocabularyMigrationPlan.stages[0].steps[1].migratePlainly(boxed: book, in: context.environment,
            rules: FieldRulePlan(VocabularyV2.Word.recordType), scalarsAsText: false) == nil)
        #expect(VocabularyMigrationPlan.stages[0].steps[1].migrateUnchecked(boxed: book, in: context.environment) == nil)
    }

    static let member: Value = [
        "id": "m1", "name": "Pet", "since": "2010-04-03", "birthDate": "2010-01-01T15:00:00Z", "type": "cat",
        "sex": "male", "bio": "", "createdAt": "2023-01-10T10:05:00Z",
    ]

    /// A new model that checks across fields (pet-story's V2 member: its birth day not after the
    /// day it was made) has those checks run by the plain run (`AcrossFieldsCheck`), as the path
    /// that reports runs them reading it back: a plain member migrates to what that path gives, as
    /// read from a JSON or a CSV input; one born after it was made is left to that path, which
    /// reports it.
    @Test(arguments: [false, true])
    func aNewModelCheckingAcrossFieldsHasThoseChecksRun(scalarsAsText: Bool) throws {
        let rules = FieldRulePlan(PetStoryV2.FamilyMember.recordType)
        let environment = Self.context("members", "members").environment
        let old = try Self.model(PetStoryV1.FamilyMember.self, Self.member)
        let typed = try #require(PetStoryMigrationPlan.memberV1toV2.migratePlainly(old, in: environment, rules: rules,
            scalarsAsText: scalarsAsText))
        let general = try run(.petStory, from: 1, to: 2, [makeRecord("members", 0, Self.member)])
        // The dataset's one note (the time zone of calendar days), which the lane's commit makes too.
        #expect(general.diagnostics == ["note assumption 2:3 -"])
        #expect(general.records.map(\.value) == [typed.value])
        #expect(typed.value.objectValue?["birthDate"] == "2010-01-01")
        // The second half alone runs the checks across fields too.
        let unchecked = try #require(PetStoryMigrationPlan.memberV1toV2.migrateUnchecked(boxed: old, in: environment)
            as? PetStoryV2.FamilyMember)
        #expect(environment.checkedPlainly(unchecked, rules: rules, scalarsAsText: scalarsAsText)?.value == typed.value)

        let lateValue = Self.changed(Self.member, "birthDate", "2024-01-01T15:00:00Z")
        let late = try Self.model(PetStoryV1.FamilyMember.self, lateValue)
        // The step itself finds nothing, and the new model keeps every rule of its own fields.
        var context = MigrationContext(environment)
        let migrated = try PetStoryMigrationPlan.memberV1toV2.migrate(late, &context)
        #expect(context.problems.isEmpty)
        #expect(FieldRuleCheck.passes(migrated, plan: rules))
        #expect(environment.checkedPlainly(migrated, rules: rules, scalarsAsText: scalarsAsText) == nil)
        #expect(PetStoryMigrationPlan.memberV1toV2.migratePlainly(late, in: environment, rules: rules,
            scalarsAsText: scalarsAsText) == nil)
        let reported = try run(.petStory, from: 1, to: 2, [makeRecord("members", 0, lateValue)])
        #expect(reported.records.isEmpty)
        #expect(reported.log.diagnostics.map(\.message) == [
            "calendar days (birthDate, since) are taken in time zone UTC (--time-zone)",
            "birthDate 2024-01-01 is after the day of createdAt (2023-01-10 in UTC)"])
        #expect(reported.diagnostics == ["note assumption 2:3 -", "error invalid-value 2:3 /members/0/birthDate"])
    }
}
