import FerryCore
import Foundation
import Testing

@testable import FerrySchemas

/// Differential tests of the typed notes V1 -> V2 stage against the general one (`DatasetProcessor`
/// migrating 1 -> 2): when the general path reports nothing, the typed stage's model has the general
/// path's output value; when it reports anything, the typed stage gives up (nil).
@Suite struct TypedMigrationTests {
    // MARK: V1 records

    static let tastes: Value = [["label": "acid", "value": .number("0.7")], ["label": "산미", "value": 1]]

    static let bases: [(collection: String, value: Value)] = [
        ("wineNotes", [
            "id": "w1", "title": "Margaux", "category": "red", "createdAt": "2024-05-01T18:30:00.250+09:00",
            "alcohol": .number("13.5"), "look": " ruby, bright, clear ", "smells": ["cherry", "oak"], "tastes": tastes,
            "grape": "Merlot", "think": "good", "rating": .number("4.5"), "isFavorite": true,
        ]),
        ("coffeeNotes", [
            "id": "c1", "title": "Kenya", "category": "pour-over", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 0,
            "look": "", "smells": ["berry"], "tastes": [], "think": "", "rating": 4, "isFavorite": false,
        ]),
        ("whiskeyNotes", [
            "id": "w9", "title": "Islay", "category": "single malt", "createdAt": "2024-05-01T09:30:00.001Z",
            "alcohol": 46, "look": "amber", "smells": ["peat"], "tastes": tastes,
            "finish": ["length": "long", "note": "smoke"], "think": "", "rating": 4.5, "isFavorite": false,
            "imageData": "aGVsbG8gd29ybGQ=",
        ]),
        ("cocktailNotes", [
            "id": "k1", "title": "Negroni", "category": "classic", "createdAt": "2024-05-01T09:30:00Z",
            "alcohol": .number("24"), "look": "  ", "smells": [], "tastes": tastes,
            "ingredients": [["name": "gin", "amount": "30ml"], ["name": "Campari", "amount": "30ml"]],
            "isContainsIce": true, "think": "bitter", "rating": 5, "isFavorite": true,
        ]),
    ]

    /// Changes to a base record: a field set (or removed, with nil) at a pointer's first tokens.
    static let changes: [(String, [String], Value?)] = {
        var changes: [(String, [String], Value?)] = [("as is", [], nil)]
        for look in [
            "ruby, bright", "garnet", "a, b, c", "a,,b", ",hazy", "hazy,", "", "   ", "\n\t \r", " ruby ,\n bright ",
            "\u{3000}ruby\u{A0},\u{2003}clear\u{2028}", "\u{85}dark\u{85}", "\u{200B}zero width, space\u{200B}", ",",
            "샤토, 마고", "\u{FEFF}bom",
        ] {
            changes.append(("look \(look.debugDescription)", ["look"], .string(look)))
        }
        for length in [
            "long", " Long ", "LONG", "Medium\n", "\u{3000}short\u{3000}", "lingering", "Lingering", "", " ", "ＬＯＮＧ",
            "shorter", "lon g", "SHORT.", "\u{2028}long\u{2029}", "İ", "medıum",
        ] {
            changes.append(("finish length \(length.debugDescription)", ["finish", "length"], .string(length)))
        }
        changes.append(("finish note empty", ["finish", "note"], ""))
        for alcohol: Value in [0, .number("-0"), .number("0.5"), 100, .number("100.5"), -1, .number("1e-7")] {
            changes.append(("alcohol \(alcohol)", ["alcohol"], alcohol))
        }
        for smells: Value in [[], ["berry"], [""]] {
            changes.append(("smells \(smells)", ["smells"], smells))
        }
        for rating: Value in [
            .number("5.5"), 6, .number("-0.5"), .number("2.25"), 0, .number("-0"), 5, .number("4.50"), .number("0.5"),
            .number("1e0"), .number("4.500000000000001"),
        ] {
            changes.append(("rating \(rating)", ["rating"], rating))
        }
        for taste: Value in [.number("1.5"), .number("-0.1"), 0, 1, .number("-0"), .number("0.999"), .number("1.0000001")] {
            changes.append(("taste \(taste)", ["tastes"], [["label": "x", "value": taste]]))
        }
        changes.append(("no tastes", ["tastes"], []))
        changes.append(("no id", ["id"], nil))
        changes.append(("empty id", ["id"], ""))
        changes.append(("empty title", ["title"], ""))
        changes.append(("blank title", ["title"], " "))
        changes.append(("unicode title", ["title"], "샤토 \"마고\"\n\u{2028}"))
        changes.append(("no image", ["imageData"], nil))
        changes.append(("image", ["imageData"], "AA=="))
        changes.append(("bad image", ["imageData"], "AA="))
        changes.append(("sub-millisecond createdAt", ["createdAt"], "2024-05-01T09:30:00.0001Z"))
        changes.append(("numeric createdAt", ["createdAt"], 700_000_000))
        changes.append(("unknown field", ["extra"], 1))
        changes.append(("no ingredients", ["ingredients"], []))
        changes.append(("grape empty", ["grape"], ""))
        return changes
    }()

    /// `value` with `path` set to `new` (removed when nil); nil when the base has no such object.
    static func changed(_ value: Value, _ path: [String], _ new: Value?) -> Value? {
        guard let key = path.first else { return value }
        guard case .object(var object) = value else { return nil }
        if path.count == 1 {
            if let new {
                object[key] = new
            } else {
                guard object[key] != nil else { return nil }
                object[key] = nil
            }
            return .object(object)
        }
        guard let inner = object[key], let replaced = changed(inner, Array(path.dropFirst()), new) else { return nil }
        object[key] = replaced
        return .object(object)
    }

    // MARK: The two paths

    static let modes: [ProcessingMode] = [.normal, .strict, .lenient]

    /// The V1 model the general path's decode reads from `value`, nil when it reports anything.
    static func v1Model(_ value: Value, collection: String) -> (any CollectionModel)? {
        guard let type = NotesSchemaV1.model(forCollection: collection) else { return nil }
        var diagnostics: [Diagnostic] = []
        let model = type.init(value: value, at: RecordContext(record: makeRecord(collection, 0, value)), diagnostics: &diagnostics)
        return diagnostics.isEmpty ? model : nil
    }

    struct Outcome {
        var accepted = 0
        var refused = 0
    }

    /// Runs one record both ways and checks the typed stage against the general one.
    static func compare(_ value: Value, collection: String, mode: ProcessingMode, label: String) throws -> Bool? {
        let general = try run(.notes, from: 1, to: 2, [makeRecord(collection, 0, value)], mode: mode)
        guard let old = v1Model(value, collection: collection) else {
            // The typed stage only ever sees models the decode accepted silently.
            #expect(!general.diagnostics.isEmpty, "\(label)")
            return nil
        }
        var options = ProcessingOptions()
        options.mode = mode
        let target = NotesMigrationPlan.collectionRenames(toVersion: 2)[collection] ?? collection
        let context = TypedMigrationContext(
            options: options, timeZone: TimeZone(identifier: "UTC") ?? .current, sourceCollection: collection,
            targetCollection: target)
        let migrate = try #require(NotesMigrationPlan.typedMigration(toVersion: 2))
        let typed = migrate(old, context)
        // The pair of the note's type gives what the boxed stage gives.
        var pairs = PairRunner(old: old, context: context)
        NotesMigrationPlan.forEachTypedPair(toVersion: 2, &pairs)
        #expect(pairs.ran == 1, "\(label)")
        #expect(pairs.result?.value == typed?.value, "\(label)")
        #expect((pairs.result == nil) == (typed == nil), "\(label)")
        if general.diagnostics.isEmpty {
            let expected = try #require(general.records.first?.value, "\(label)")
            // Giving up on a record the general path takes silently is allowed only for a derived id.
            if typed == nil {
                #expect(old.recordID == nil, "\(label): the typed stage gave up on a plain record")
                return false
            }
            #expect(typed?.value == expected, "\(label)")
            #expect(typed.map { type(of: $0).collection } == target, "\(label)")
            return true
        }
        #expect(typed == nil, "\(label): the general path reports \(general.diagnostics)")
        return false
    }

    @Test(arguments: 0..<4) func typedStageMatchesTheGeneralOne(base: Int) throws {
        let (collection, value) = Self.bases[base]
        var outcome = Outcome()
        for (label, path, new) in Self.changes {
            guard let record = Self.changed(value, path, new) else { continue }
            for mode in Self.modes {
                switch try Self.compare(record, collection: collection, mode: mode, label: "\(collection) \(label) \(mode)") {
                case true?: outcome.accepted += 1
                case false?: outcome.refused += 1
                case nil: break
                }
            }
        }
        // Both outcomes occur for every type: the comparison is not vacuous.
        #expect(outcome.accepted > 20)
        #expect(outcome.refused > 20)
    }

    /// Two changes at once: a lossy drop of one field with a rule broken in another.
    @Test func combinedChanges() throws {
        let pairs: [([String], Value, [String], Value)] = [
            (["look"], "dark", ["rating"], 6), (["alcohol"], 1, ["title"], ""), (["smells"], ["x"], ["look"], "a, b"),
            (["finish", "length"], "LONG", ["tastes"], [["label": "x", "value": 2]]),
            (["look"], "", ["smells"], []),
        ]
        for (collection, value) in Self.bases {
            for (path1, value1, path2, value2) in pairs {
                guard let first = Self.changed(value, path1, value1), let both = Self.changed(first, path2, value2) else { continue }
                for mode in Self.modes {
                    _ = try Self.compare(both, collection: collection, mode: mode, label: "\(collection) \(path1)+\(path2) \(mode)")
                }
            }
        }
    }

    /// Runs the pair whose old model is the type of `old` (counting the pairs that matched).
    struct PairRunner: TypedMigrationPairVisitor {
        let old: any CollectionModel
        let context: TypedMigrationContext
        var ran = 0
        var result: (any CollectionModel)? = nil

        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(
            _ migrate: @escaping TypedPairMigration<Old, New>
        ) {
            guard let old = old as? Old else { return }
            ran += 1
            result = migrate(old, context)
        }
    }

    /// Collects the (old, new) collections of the pairs visited, in order.
    struct PairList: TypedMigrationPairVisitor {
        var pairs: [String] = []

        mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(
            _ migrate: @escaping TypedPairMigration<Old, New>
        ) {
            pairs.append("\(Old.collection) -> \(New.collection)")
        }
    }

    @Test func theStageIsHandedAsOnePairPerCollection() {
        var list = PairList()
        NotesMigrationPlan.forEachTypedPair(toVersion: 2, &list)
        #expect(list.pairs == [
            "wineNotes -> wineTastingNotes", "coffeeNotes -> coffeeTastingNotes", "whiskeyNotes -> whiskeyTastingNotes",
            "cocktailNotes -> cocktailTastingNotes",
        ])
        // In the schemas' canonical order, renamed as the plan renames them.
        let renames = NotesMigrationPlan.collectionRenames(toVersion: 2)
        #expect(list.pairs == NotesSchemaV1.models.map { "\($0.collection) -> \(renames[$0.collection] ?? "")" })
        var domainList = PairList()
        Domain.notes.forEachTypedPair(toVersion: 2, &domainList)
        #expect(domainList.pairs == list.pairs)
    }

    @Test func noPairsWhereThereIsNoTypedStage() {
        for (domain, version) in [(Domain.notes, 1), (.notes, 3), (.petStory, 2), (.vocabulary, 2)] {
            var list = PairList()
            domain.forEachTypedPair(toVersion: version, &list)
            #expect(list.pairs.isEmpty, "\(domain) \(version)")
        }
    }

    @Test func aPairGivesUpOnAWrongTargetCollection() throws {
        let (collection, value) = Self.bases[1]
        let old = try #require(Self.v1Model(value, collection: collection) as? NotesV1.CoffeeNote)
        func context(_ target: String) -> TypedMigrationContext {
            TypedMigrationContext(options: ProcessingOptions(), timeZone: .gmt, sourceCollection: collection, targetCollection: target)
        }
        #expect(NotesMigrationPlan.coffeeV1toV2Typed(old, context("wineTastingNotes")) == nil)
        let v2 = try #require(NotesMigrationPlan.coffeeV1toV2Typed(old, context("coffeeTastingNotes")))
        #expect(v2.id == "c1")
        #expect(v2.title == "Kenya")
        #expect(v2.smells == [NotesV2.Smell(label: "berry")])
    }

    // MARK: Pieces

    @Test func otherVersionsHaveNoTypedStage() {
        #expect(NotesMigrationPlan.typedMigration(toVersion: 1) == nil)
        #expect(NotesMigrationPlan.typedMigration(toVersion: 3) == nil)
    }

    @Test func aWrongTargetCollectionGivesUp() throws {
        let (collection, value) = Self.bases[0]
        let old = try #require(Self.v1Model(value, collection: collection))
        let context = TypedMigrationContext(
            options: ProcessingOptions(), timeZone: .current, sourceCollection: collection, targetCollection: "coffeeTastingNotes")
        #expect(NotesMigrationPlan.migrateV1toV2Typed(old, context) == nil)
        // A V2 model is not a V1 one.
        let v2 = try #require(NotesMigrationPlan.migrateV1toV2Typed(old, TypedMigrationContext(
            options: ProcessingOptions(), timeZone: .current, sourceCollection: collection, targetCollection: "wineTastingNotes")))
        #expect(NotesMigrationPlan.migrateV1toV2Typed(v2, context) == nil)
    }

    @Test func finishLengthRule() {
        #expect(NotesMigrationPlan.finishLength(" Long ") == .long)
        #expect(NotesMigrationPlan.finishLength("SHORT\n") == .short)
        #expect(NotesMigrationPlan.finishLength("lingering") == nil)
        #expect(NotesMigrationPlan.finishLength("") == nil)
    }
}

/// `FieldRuleCheck` against `FieldReader` reading the model's own value.
@Suite struct FieldRuleCheckTests {
    static let createdAt = Instant(seconds: 1_714_555_800) ?? .epoch

    static func taste(_ score: Double) -> NotesV2.Taste { NotesV2.Taste(label: "x", score: score) }

    static func coffee(title: String = "Kenya", rating: Double = 4, tastes: [NotesV2.Taste] = [], createdAt: Instant = createdAt)
        -> NotesV2.CoffeeTastingNote
    {
        NotesV2.CoffeeTastingNote(
            id: "c1", title: title, category: "", createdAt: createdAt, smells: [NotesV2.Smell(label: "")], tastes: tastes,
            think: "", rating: rating, isFavorite: false)
    }

    /// True when `FieldReader` reads `model.value` back without a diagnostic, as `model` itself.
    static func readsBack<M: FieldCodable>(_ model: M) -> Bool {
        let (back, diagnostics, _) = decode(M.self, model.value)
        return diagnostics.isEmpty && back == model
    }

    @Test func agreesWithTheReader() throws {
        var models: [NotesV2.CoffeeTastingNote] = []
        for rating in [0, 0.5, 4.5, 5, 5.5, -0.5, 2.25, .nan, .infinity, 1e-300] { models.append(Self.coffee(rating: rating)) }
        for score in [0, 1, 0.5, 1.5, -0.1, .nan] { models.append(Self.coffee(tastes: [Self.taste(0.5), Self.taste(score)])) }
        for title in ["", " ", "t"] { models.append(Self.coffee(title: title)) }
        for nanoseconds: Int32 in [0, 1_000_000, 1, 999_999, 250_000_000] {
            models.append(Self.coffee(createdAt: Instant(seconds: 1_714_555_800, nanoseconds: nanoseconds) ?? .epoch))
        }
        for model in models {
            #expect(FieldRuleCheck.passes(model) == Self.readsBack(model), "\(model)")
        }
        // -0 reads back as 0, a model equal to it but not the same: the check refuses it (the record
        // then takes the general path), stricter than the reader.
        #expect(Self.readsBack(Self.coffee(rating: -0.0)))
        #expect(!FieldRuleCheck.passes(Self.coffee(rating: -0.0)))
        #expect(!FieldRuleCheck.passes(Self.coffee(tastes: [Self.taste(-0.0)])))
        #expect(FieldRuleCheck.passes(Self.coffee()))
        #expect(!FieldRuleCheck.passes(Self.coffee(rating: 5.5)))
    }

    @Test func enumerationsAndNestedTypes() {
        let finish = NotesV2.Finish(length: .long, note: "")
        #expect(FieldRuleCheck.passes(finish))
        // A descriptor that refuses what the model writes: the check names the type's own rules.
        var check = FieldRuleCheck(type: RecordType("Finish", [FieldSchema("length", .enumeration(["short"])), FieldSchema("note", .nonEmptyString)]))
        finish.encode(to: &check)
        check.finish()
        #expect(check.failed)
        // A required field not written, an unknown field.
        var missing = FieldRuleCheck(type: RecordType("T", [FieldSchema("label", .string), FieldSchema("value", .double), FieldSchema("more", .bool)]))
        Self.taste(0.5).encode(to: &missing)
        missing.finish()
        #expect(missing.failed)
        var unknown = FieldRuleCheck(type: RecordType("T", [FieldSchema("label", .string)]))
        Self.taste(0.5).encode(to: &unknown)
        unknown.finish()
        #expect(unknown.failed)
    }
}

/// `FieldRuleCheck` with a kept `FieldRulePlan` (the typed stage's check) against `FieldReader`
/// reading the model's own value, on models breaking each rule the V2 descriptors list: the cases
/// are derived from the descriptors, so that a rule added to a descriptor is checked here too.
@Suite struct FieldRulePlanTests {
    static let createdAt = Instant(seconds: 1_714_555_800, nanoseconds: 250_000_000) ?? .epoch
    static let tastes = [NotesV2.Taste(label: "x", score: 0.5)]

    /// Where a test can set each field with a rule, by field name.
    struct Setters<M> {
        var doubles: [String: WritableKeyPath<M, Double>] = [:]
        var strings: [String: WritableKeyPath<M, String>] = [:]
        var instants: [String: WritableKeyPath<M, Instant>] = [:]
        /// The nested arrays of tastes (their `value` rule is checked through them).
        var tastes: [String: WritableKeyPath<M, [NotesV2.Taste]>] = [:]
    }

    /// Values that break a number field's rules, and boundary values that keep them.
    static func numbers(_ field: FieldSchema) -> (breaking: [Double], keeping: [Double]) {
        var breaking: [Double] = [.nan, .infinity, -.infinity, -0.0]
        var keeping: [Double] = []
        if let range = field.range {
            breaking += [range.upperBound.nextUp, range.lowerBound.nextDown, range.upperBound + 1]
            keeping += [range.lowerBound, range.upperBound]
        }
        if let step = field.step {
            let base = field.range?.lowerBound ?? 0
            breaking += [base + step / 2, base + step * 1.000001]
            keeping += [base + step, base + step * 2]
        }
        return (breaking, keeping.filter { $0 != 0 || $0.sign == .plus })
    }

    static func readsBack<M: FieldCodable>(_ model: M) -> Bool { FieldRuleCheckTests.readsBack(model) }

    /// Checks every rule of `M.recordType` (and of its tastes) on variations of `base`.
    static func check<M: FieldCodable>(_ base: M, _ setters: Setters<M>) -> Int {
        let plan = FieldRulePlan(M.recordType)
        var cases = 0
        func expectSame(_ model: M, _ label: String, breaks: Bool) {
            cases += 1
            let passes = FieldRuleCheck.passes(model, plan: plan)
            #expect(passes == !breaks, "\(M.self) \(label)")
            #expect(passes == FieldRuleCheck.passes(model), "\(M.self) \(label)")
            // The reader reads -0 back as 0 (the check is stricter there); otherwise the same.
            if !label.hasSuffix("-0.0") { #expect(passes == readsBack(model), "\(M.self) \(label)") }
        }
        expectSame(base, "as is", breaks: false)
        for field in M.recordType.fields {
            switch field.type {
            case .double:
                let keyPath = setters.doubles[field.name]
                #expect(keyPath != nil, "\(M.self).\(field.name) has no setter")
                guard let keyPath else { continue }
                let (breaking, keeping) = numbers(field)
                for number in breaking { var m = base; m[keyPath: keyPath] = number; expectSame(m, "\(field.name) \(number)", breaks: true) }
                for number in keeping { var m = base; m[keyPath: keyPath] = number; expectSame(m, "\(field.name) \(number)", breaks: false) }
            case .nonEmptyString:
                let keyPath = setters.strings[field.name]
                #expect(keyPath != nil, "\(M.self).\(field.name) has no setter")
                guard let keyPath else { continue }
                var m = base
                m[keyPath: keyPath] = ""
                expectSame(m, "\(field.name) empty", breaks: true)
                m[keyPath: keyPath] = " "
                expectSame(m, "\(field.name) blank", breaks: false)
            case .instant:
                let keyPath = setters.instants[field.name]
                #expect(keyPath != nil, "\(M.self).\(field.name) has no setter")
                guard let keyPath else { continue }
                for nanoseconds: Int32 in [1, 999_999, 250_000_001, 0, 999_000_000] {
                    var m = base
                    m[keyPath: keyPath] = Instant(seconds: 1_714_555_800, nanoseconds: nanoseconds) ?? .epoch
                    expectSame(m, "\(field.name) \(nanoseconds)ns", breaks: nanoseconds % 1_000_000 != 0)
                }
            case .array(.object(let nested)) where nested == NotesV2.Taste.recordType:
                let keyPath = setters.tastes[field.name]
                #expect(keyPath != nil, "\(M.self).\(field.name) has no setter")
                guard let keyPath, let value = nested.field(named: "value") else { continue }
                let (breaking, keeping) = numbers(value)
                for number in breaking {
                    var m = base
                    m[keyPath: keyPath] = tastes + [NotesV2.Taste(label: "", score: number)]
                    expectSame(m, "\(field.name) value \(number)", breaks: true)
                }
                for number in keeping {
                    var m = base
                    m[keyPath: keyPath] = [NotesV2.Taste(label: "", score: number)] + tastes
                    expectSame(m, "\(field.name) value \(number)", breaks: false)
                }
            case .string, .data, .bool, .object(_), .array(_):
                // Every value of the model's Swift type keeps these rules (string, base64, bool) or
                // they are nested types of strings (look, smells, grape, ingredients) or an
                // enumeration written from its Swift enum (finish).
                continue
            default:
                Issue.record("\(M.self).\(field.name): a rule this test does not cover")
            }
        }
        return cases
    }

    @Test func wine() {
        let base = NotesV2.WineTastingNote(
            id: "w", title: "t", category: "", createdAt: Self.createdAt, alcoholByVolume: 13, look: NotesV2.Look(tint: "", note: ""),
            smells: [NotesV2.Smell(label: "")], tastes: Self.tastes, grape: NotesV2.Grape(variety: ""), think: "", rating: 4.5,
            isFavorite: false)
        let setters = Setters<NotesV2.WineTastingNote>(
            doubles: ["alcoholByVolume": \.alcoholByVolume, "rating": \.rating], strings: ["id": \.id, "title": \.title],
            instants: ["createdAt": \.createdAt], tastes: ["tastes": \.tastes])
        #expect(Self.check(base, setters) > 40)
    }

    @Test func coffee() {
        let base = NotesV2.CoffeeTastingNote(
            id: "c", title: "t", category: "", createdAt: Self.createdAt, smells: [], tastes: Self.tastes, think: "", rating: 0,
            isFavorite: true)
        let setters = Setters<NotesV2.CoffeeTastingNote>(
            doubles: ["rating": \.rating], strings: ["id": \.id, "title": \.title], instants: ["createdAt": \.createdAt],
            tastes: ["tastes": \.tastes])
        #expect(Self.check(base, setters) > 30)
    }

    @Test func whiskey() {
        let base = NotesV2.WhiskeyTastingNote(
            id: "w", title: "t", category: "", createdAt: Self.createdAt, alcoholByVolume: 46, look: NotesV2.Look(tint: "", note: ""),
            smells: [], tastes: Self.tastes, finish: NotesV2.Finish(length: .long, note: ""), think: "", rating: 5, isFavorite: false)
        let setters = Setters<NotesV2.WhiskeyTastingNote>(
            doubles: ["alcoholByVolume": \.alcoholByVolume, "rating": \.rating], strings: ["id": \.id, "title": \.title],
            instants: ["createdAt": \.createdAt], tastes: ["tastes": \.tastes])
        #expect(Self.check(base, setters) > 40)
    }

    @Test func cocktail() {
        let base = NotesV2.CocktailTastingNote(
            id: "k", title: "t", category: "", createdAt: Self.createdAt, alcoholByVolume: 24, tastes: Self.tastes,
            ingredients: [NotesV2.Ingredient(name: "", amount: "")], isContainsIce: true, think: "", rating: 1, isFavorite: false)
        let setters = Setters<NotesV2.CocktailTastingNote>(
            doubles: ["alcoholByVolume": \.alcoholByVolume, "rating": \.rating], strings: ["id": \.id, "title": \.title],
            instants: ["createdAt": \.createdAt], tastes: ["tastes": \.tastes])
        #expect(Self.check(base, setters) > 40)
    }

    /// A plan names its own descriptor's rules: a finish whose descriptor refuses what it writes,
    /// an array of strings into a field of objects, a nested plan shared by several checks.
    @Test func plansOfOtherDescriptors() {
        let finish = NotesV2.Finish(length: .long, note: "")
        #expect(FieldRuleCheck.passes(finish, plan: FieldRulePlan(NotesV2.Finish.recordType)))
        let strict = FieldRulePlan(RecordType("Finish", [FieldSchema("length", .enumeration(["short"])), FieldSchema("note", .string)]))
        #expect(!FieldRuleCheck.passes(finish, plan: strict))
        #expect(FieldRuleCheck.passes(NotesV2.Finish(length: .short, note: ""), plan: strict))
        var wrongKind = FieldRuleCheck(type: RecordType("T", [FieldSchema("label", .array(.object(NotesV2.Smell.recordType)))]))
        wrongKind.add("label", ["x"])
        wrongKind.finish()
        #expect(wrongKind.failed)
        var emptyStrings = FieldRuleCheck(type: RecordType("T", [FieldSchema("label", .array(.double))]))
        emptyStrings.add("label", [String]())
        emptyStrings.finish()
        #expect(!emptyStrings.failed)
        var twice = FieldRuleCheck(type: RecordType("T", [FieldSchema("a", .string), FieldSchema("b", .string)]))
        twice.add("a", "x")
        twice.add("a", "x")
        #expect(twice.failed)
        var outOfOrder = FieldRuleCheck(type: RecordType("T", [FieldSchema("a", .string), .optional("b", .double)]))
        outOfOrder.add("b", 1.0)
        outOfOrder.add("a", "x")
        outOfOrder.finish()
        #expect(!outOfOrder.failed)
    }
}
