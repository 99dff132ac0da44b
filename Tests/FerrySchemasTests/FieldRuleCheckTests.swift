import FerryCore
import Foundation
import Testing

@testable import FerrySchemas

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
