import FerryCore
@testable import FerrySchemas
import Testing

@Suite struct NotesMigrationTests {
    let wineV1: Value = [
        "id": "w1", "title": "Margaux", "category": "red", "createdAt": "2024-05-01T18:30:00.250+09:00",
        "alcohol": .number("13.5"), "look": " ruby, bright, clear ", "smells": ["cherry", "oak"],
        "tastes": [["label": "acid", "value": .number("0.7")]], "grape": "Merlot", "think": "good",
        "rating": .number("4.5"), "isFavorite": true,
    ]

    @Test func migratesAWineNote() throws {
        let result = try run(.notes, from: 1, to: 2, [makeRecord("wineNotes", 0, wineV1)])
        #expect(result.diagnostics == [])
        let record = try #require(result.records.first)
        #expect(record.collection == "wineTastingNotes")
        #expect(record.location.recordIndex == 0)
        #expect(record.location.line == 2)
        #expect(record.value == [
            "id": "w1", "title": "Margaux", "category": "red", "createdAt": "2024-05-01T09:30:00.250Z",
            "alcoholByVolume": 13.5, "look": ["tint": "ruby", "note": "bright, clear"],
            "smells": [["label": "cherry"], ["label": "oak"]], "tastes": [["label": "acid", "value": 0.7]],
            "grape": ["variety": "Merlot"], "think": "good", "rating": 4.5, "isFavorite": true,
        ])
    }

    @Test func lookWithoutCommaIsAllTint() {
        #expect(NotesMigrationPlan.splitLook("  garnet ") == ("garnet", ""))
        #expect(NotesMigrationPlan.splitLook("") == ("", ""))
        #expect(NotesMigrationPlan.splitLook(",hazy") == ("", "hazy"))
        // Unicode whitespace is trimmed too, at either end of either part.
        #expect(NotesMigrationPlan.splitLook("\u{A0}ruby\u{3000}, deep\u{2028}") == ("ruby", "deep"))
        #expect(NotesMigrationPlan.splitLook("  rubí ,\tnoté\n") == ("rubí", "noté"))
    }

    /// The byte-level split gives what the split by scalars gives, on looks made of pieces that
    /// stress both ends of both parts.
    @Test func splitLookMatchesTheScalarRule() {
        let pieces = ["", " ", "\t", "\n", "\r\n", ",", "a", "é", "日本", "\u{A0}", "\u{2028}", "\u{3000}", "\u{85}", "x y", "\u{1F377}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let look = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let fast = NotesMigrationPlan.splitLook(look)
            let rule = NotesMigrationPlan.splitLookByScalars(look)
            #expect(fast == rule, "\(look.debugDescription)")
        }
    }

    @Test func derivesIDsForNotesWithoutOne() throws {
        var value = wineV1
        value = .object(ValueObject(value.objectValue!.members.filter { $0.key != "id" }))
        value = .object({ var o = value.objectValue!; o["title"] = "Cha\u{0302}teau Margaux"; return o }())
        let result = try run(.notes, from: 1, to: 2, [makeRecord("wineNotes", 2, value)])
        #expect(result.diagnostics == [])
        // python3: uuid.uuid5(uuid.NAMESPACE_URL, "ferry:wineNotes/2/2024-05-01T09:30:00.250Z/Ch\u00e2teau Margaux")
        #expect(result.records.first?.value.objectValue?["id"] == "983141d9-85bd-5253-aaaf-c7a897d99560")
        // V1 -> V1 keeps the id absent.
        let same = try run(.notes, from: 1, to: 1, [makeRecord("wineNotes", 2, value)])
        #expect(same.records.first?.value.objectValue?["id"] == nil)
    }

    func coffee(alcohol: Value, look: Value) -> Value {
        [
            "id": "c1", "title": "Kenya", "category": "pour-over", "createdAt": "2024-05-01T09:30:00Z", "alcohol": alcohol,
            "look": look, "smells": ["berry"], "tastes": [], "think": "", "rating": 4, "isFavorite": false,
        ]
    }

    @Test func coffeeDropsAlcoholAndLookWithLossyWarnings() throws {
        let record = makeRecord("coffeeNotes", 0, coffee(alcohol: .number("0.5"), look: "dark"),
            fields: ["/alcohol": (3, 16), "/look": (4, 13)])
        let result = try run(.notes, from: 1, to: 2, [record])
        #expect(result.diagnostics == [
            "warning lossy-drop 3:16 /coffeeNotes/0/alcohol", "warning lossy-drop 4:13 /coffeeNotes/0/look",
        ])
        #expect(result.log.diagnostics[0].description.hasSuffix(
            #"/coffeeNotes/0/alcohol: alcohol 0.5 has no place in CoffeeTastingNote; dropped (id "c1") [lossy-drop]"#))
        #expect(result.records.first?.value == [
            "id": "c1", "title": "Kenya", "category": "pour-over", "createdAt": "2024-05-01T09:30:00Z",
            "smells": [["label": "berry"]], "tastes": [], "think": "", "rating": 4.0, "isFavorite": false,
        ])
    }

    @Test func defaultDropsAreSilent() throws {
        let result = try run(.notes, from: 1, to: 2, [makeRecord("coffeeNotes", 0, coffee(alcohol: 0, look: "  "))])
        #expect(result.diagnostics == [])
        #expect(result.records.count == 1)
    }

    @Test func strictTurnsLossyDropsIntoErrors() throws {
        let result = try run(.notes, from: 1, to: 2, [makeRecord("coffeeNotes", 0, coffee(alcohol: 5, look: ""))], mode: .strict)
        #expect(result.diagnostics == ["error lossy-drop 2:3 /coffeeNotes/0/alcohol"])
        #expect(result.records.isEmpty)
    }

    func cocktail(smells: Value, look: Value) -> Value {
        [
            "id": "k1", "title": "Negroni", "category": "stirred", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 24,
            "look": look, "smells": smells, "tastes": [["label": "bitter", "value": 0.8]],
            "ingredients": [["name": "gin", "amount": "30 ml"]], "isContainsIce": true, "think": "", "rating": 5,
            "isFavorite": true,
        ]
    }

    @Test func cocktailDropsLookAndSmells() throws {
        let result = try run(.notes, from: 1, to: 2, [makeRecord("cocktailNotes", 0, cocktail(smells: ["orange"], look: "red"))])
        #expect(result.diagnostics == [
            "warning lossy-drop 2:3 /cocktailNotes/0/look", "warning lossy-drop 2:3 /cocktailNotes/0/smells",
        ])
        #expect(result.records.first?.value == [
            "id": "k1", "title": "Negroni", "category": "stirred", "createdAt": "2024-05-01T09:30:00Z", "alcoholByVolume": 24.0,
            "tastes": [["label": "bitter", "value": 0.8]], "ingredients": [["name": "gin", "amount": "30 ml"]],
            "isContainsIce": true, "think": "", "rating": 5.0, "isFavorite": true,
        ])
        let quiet = try run(.notes, from: 1, to: 2, [makeRecord("cocktailNotes", 0, cocktail(smells: [], look: ""))])
        #expect(quiet.diagnostics == [])
    }

    func whiskey(length: String, note: String) -> Value {
        [
            "id": "w9", "title": "Islay", "category": "single malt", "createdAt": "2024-05-01T09:30:00Z", "alcohol": 46,
            "look": "amber", "smells": ["peat"], "tastes": [], "finish": ["length": .string(length), "note": .string(note)],
            "think": "", "rating": 4.5, "isFavorite": false,
        ]
    }

    @Test func finishLengthIsLowerCased() throws {
        let result = try run(.notes, from: 1, to: 2, [makeRecord("whiskeyNotes", 0, whiskey(length: " Long", note: "smoke"))])
        #expect(result.diagnostics == [])
        #expect(result.records.first?.value.objectValue?["finish"] == ["length": "long", "note": "smoke"])
        #expect(result.records.first?.value.objectValue?["look"] == ["tint": "amber", "note": ""])
    }

    @Test func unknownFinishLengthIsAnErrorNamingRecordAndField() throws {
        let record = makeRecord("whiskeyNotes", 3, whiskey(length: "Lingering", note: "smoke"), line: 40,
            fields: ["/finish/length": (52, 17)])
        let result = try run(.notes, from: 1, to: 2, [record])
        #expect(result.diagnostics == ["error invalid-value 52:17 /whiskeyNotes/3/finish/length"])
        #expect(result.log.diagnostics[0].description.hasSuffix(
            #"/whiskeyNotes/3/finish/length: finish.length "Lingering" is not short, medium or long (--lenient maps it to medium) (id "w9") [invalid-value]"#))
        #expect(result.records.isEmpty)
    }

    @Test func lenientFinishBecomesMediumWithTheTextInFrontOfTheNote() throws {
        let record = makeRecord("whiskeyNotes", 0, whiskey(length: "Lingering", note: "smoke"))
        let result = try run(.notes, from: 1, to: 2, [record], mode: .lenient)
        #expect(result.diagnostics == ["warning lossy-change 2:3 /whiskeyNotes/0/finish/length"])
        #expect(result.records.first?.value.objectValue?["finish"] == ["length": "medium", "note": "Lingering. smoke"])
        #expect(NotesMigrationPlan.joinFinishNote(original: "Very long!", note: "x") == "Very long! x")
        #expect(NotesMigrationPlan.joinFinishNote(original: "Lingering", note: "") == "Lingering")
        #expect(NotesMigrationPlan.joinFinishNote(original: " ", note: "x") == "x")
    }

    @Test func outOfRangeRatingAndTasteAreV2ErrorsAtTheV1Field() throws {
        var object = wineV1.objectValue!
        object["rating"] = 7
        object["alcohol"] = 140
        object["tastes"] = [["label": "acid", "value": 1.5]]
        let record = makeRecord("wineNotes", 1, .object(object),
            fields: ["/rating": (9, 13), "/alcohol": (5, 14), "/tastes/0/value": (7, 30)])
        let result = try run(.notes, from: 1, to: 2, [record])
        #expect(result.diagnostics == [
            "error out-of-range 5:14 /wineNotes/1/alcohol", "error out-of-range 7:30 /wineNotes/1/tastes/0/value",
            "error out-of-range 9:13 /wineNotes/1/rating",
        ])
        #expect(result.log.diagnostics.map(\.message) == [
            "alcoholByVolume 140 is out of range 0...100", "tastes/0/value 1.5 is out of range 0...1",
            "rating 7 is out of range 0...5",
        ])
        #expect(result.records.isEmpty)
        // V1 itself has no ranges.
        #expect(try run(.notes, from: 1, to: 1, [record]).diagnostics == [])
    }

    @Test func ratingMovesInStepsOfAHalf() throws {
        var object = wineV1.objectValue!
        object["rating"] = .number("4.3")
        let result = try run(.notes, from: 1, to: 2, [makeRecord("wineNotes", 0, .object(object))])
        #expect(result.diagnostics == ["error invalid-value 2:3 /wineNotes/0/rating"])
        #expect(result.log.diagnostics[0].message == "rating 4.3 is not a multiple of 0.5")
    }

    @Test func subMillisecondCreatedAtIsLossyPrecision() throws {
        var object = wineV1.objectValue!
        object["createdAt"] = "2024-05-01T09:30:00.123456Z"
        let record = makeRecord("wineNotes", 0, .object(object), fields: ["/createdAt": (4, 18)])
        let result = try run(.notes, from: 1, to: 2, [record])
        #expect(result.diagnostics == ["warning lossy-precision 4:18 /wineNotes/0/createdAt"])
        #expect(result.records.first?.value.objectValue?["createdAt"] == "2024-05-01T09:30:00.123Z")
        let strict = try run(.notes, from: 1, to: 2, [record], mode: .strict)
        #expect(strict.diagnostics == ["error lossy-precision 4:18 /wineNotes/0/createdAt"])
    }
}

@Suite struct NotesValidationTests {
    let v2: Value = [
        "id": "n1", "title": "Kenya", "category": "", "createdAt": "2024-05-01T09:30:00Z", "smells": [],
        "tastes": [["label": "acid", "value": 0.5]], "think": "", "rating": 3.0, "isFavorite": false,
    ]

    @Test func canonicalizesV2() throws {
        let shuffled: Value = [
            "isFavorite": false, "rating": .number("3.0"), "think": "", "tastes": [["value": .number("0.5"), "label": "acid"]],
            "smells": [], "createdAt": "2024-05-01T18:30:00+09:00", "category": "", "title": "Kenya", "id": "n1",
        ]
        let result = try run(.notes, from: 2, to: 2, [makeRecord("coffeeTastingNotes", 0, shuffled)])
        #expect(result.diagnostics == [])
        #expect(result.records.first?.value == v2)
    }

    @Test func reportsEveryProblemWithItsPointer() throws {
        let bad: Value = [
            "id": "n1", "title": "", "category": 5, "createdAt": "2024-05-01T09:30:00", "smells": "x",
            "tastes": [["label": "acid"]], "think": "", "rating": "five", "isFavorite": false, "extra": 1,
            "imageData": "not base64",
        ]
        let result = try run(.notes, from: 2, to: 2, [makeRecord("coffeeTastingNotes", 4, bad)])
        #expect(result.diagnostics == [
            "error invalid-value 2:3 /coffeeTastingNotes/4/title",
            "error type-error 2:3 /coffeeTastingNotes/4/category",
            "error invalid-value 2:3 /coffeeTastingNotes/4/createdAt",
            "error invalid-value 2:3 /coffeeTastingNotes/4/imageData",
            "error type-error 2:3 /coffeeTastingNotes/4/smells",
            "error missing-field 2:3 /coffeeTastingNotes/4/tastes/0/value",
            "error type-error 2:3 /coffeeTastingNotes/4/rating",
            "error unknown-field 2:3 /coffeeTastingNotes/4/extra",
        ])
        #expect(result.log.diagnostics.map(\.message) == [
            "title must not be empty", "category: expected a string, found 5",
            "createdAt \"2024-05-01T09:30:00\" has no offset and no Z; add Z for UTC or an offset such as +09:00",
            "imageData is not standard base64 with padding (RFC 4648 section 4)", "smells: expected a list, found \"x\"",
            "tastes/0/value is missing (required in Taste)", "rating: expected a number, found \"five\"",
            "unknown field \"extra\" in CoffeeTastingNote",
        ])
    }

    @Test func integerFieldsRefuseFractionsAndHugeNumbers() {
        let (_, fractional, _) = decode(VocabularyV1.Word.self, [
            "id": "w", "studyState": .number("1.5"), "timestamp": "2024-05-01T09:30:00Z",
        ])
        #expect(fractional == ["error type-error 2:3 /c/0/studyState"])
        let (_, huge, diagnostics) = decode(VocabularyV1.Word.self, [
            "id": "w", "studyState": .number("18446744073709551616"), "timestamp": "2024-05-01T09:30:00Z",
        ])
        #expect(huge == ["error type-error 2:3 /c/0/studyState"])
        #expect(diagnostics[0].message == "studyState: expected an integer (Int64), found 18446744073709551616")
        let (word, accepted, _) = decode(VocabularyV1.Word.self, [
            "id": "w", "studyState": .number("1.0"), "timestamp": "2024-05-01T09:30:00Z",
        ])
        #expect(accepted == [])
        #expect(word.value.objectValue?["studyState"] == .integer(1))
    }

    @Test func nonFiniteNumbersAreInvalid() {
        var object = v2.objectValue!
        object["rating"] = .number("1e400")
        let (_, result, _) = decode(NotesV2.CoffeeTastingNote.self, .object(object))
        #expect(result == ["error invalid-value 2:3 /c/0/rating"])
    }

    @Test func missingAndNullRequiredFields() {
        var object = v2.objectValue!
        object["title"] = nil
        object["think"] = .null
        let (_, result, diagnostics) = decode(NotesV2.CoffeeTastingNote.self, .object(object))
        #expect(result == ["error missing-field 2:3 /c/0/title", "error missing-field 2:3 /c/0/think"])
        #expect(diagnostics.map(\.message) == [
            "title is missing (required in CoffeeTastingNote)", "think is null (required in CoffeeTastingNote)",
        ])
    }

    @Test func csvScalarsAsText() {
        let csv: Value = [
            "id": "n1", "title": "Kenya", "createdAt": "2024-05-01T09:30:00Z",
            "tastes": [["label": "acid", "value": "0.5"]], "rating": "3", "isFavorite": "false",
        ]
        let options = DecodingOptions(scalarsAsText: true)
        let (note, result, _) = decode(NotesV2.CoffeeTastingNote.self, csv, options: options)
        // A CSV row has no cells for an empty list: absent `smells` reads as []. `category` and
        // `think` have no column here (the record's locator finds none), so they are missing, as
        // in JSON; an empty cell of their column would read as "".
        #expect(result == ["error missing-field 2:3 /c/0/category", "error missing-field 2:3 /c/0/think"])
        #expect(note.category == "" && note.think == "" && note.rating == 3 && note.tastes.first?.score == 0.5)
        #expect(note.smells.isEmpty)
    }

    @Test func numericCreatedAtUsesTheDateStrategyWithOneNote() throws {
        var object = v2.objectValue!
        object["createdAt"] = .number("736245000.25")
        let records = [makeRecord("coffeeTastingNotes", 0, .object(object)), makeRecord("coffeeTastingNotes", 1, {
            var o = object
            o["id"] = "n2"
            return .object(o)
        }())]
        let result = try run(.notes, from: 2, to: 2, records)
        #expect(result.diagnostics == ["note assumption 2:3 /coffeeTastingNotes/0/createdAt"])
        #expect(result.log.diagnostics[0].message
            == "numeric dates read as seconds since 2001-01-01T00:00:00Z (--date-strategy deferredToDate)")
        #expect(result.records.first?.value.objectValue?["createdAt"] == "2024-05-01T08:30:00.250Z")

        let millis = try run(.notes, from: 2, to: 2, [makeRecord("coffeeTastingNotes", 0, {
            var o = object
            o["createdAt"] = .number("1714555800250")
            return .object(o)
        }())]) { $0.dateStrategy = .millisecondsSince1970 }
        #expect(millis.records.first?.value.objectValue?["createdAt"] == "2024-05-01T09:30:00.250Z")

        let iso = try run(.notes, from: 2, to: 2, [makeRecord("coffeeTastingNotes", 0, .object(object))]) {
            $0.dateStrategy = .iso8601
        }
        #expect(iso.diagnostics == ["error type-error 2:3 /coffeeTastingNotes/0/createdAt"])
    }
}
