import FerryCore
import FerrySchemas
import Testing

/// The notes' collection models are built by the memberwise initializer Swift makes, behind a
/// public initializer and `init(from:)` (one argument per field): each field must land in its own
/// property. Every field has a value of its own here, so a field read into the wrong property, or
/// left out, changes what the model holds or writes back.
@Suite struct NotesModelBuildingTests {
    /// The canonical value every V1 note shares (the fields all notes have).
    static let commonV1: [(String, Value)] = [
        ("id", "id-1"), ("title", "Title 1"), ("category", "category-1"), ("createdAt", "2024-05-01T09:30:00.250Z"),
        ("imageData", "aGVsbG8="), ("alcohol", 13.5), ("look", "ruby, deep"), ("smells", ["cherry", "oak"]),
        ("tastes", [["label": "acidity", "value": 0.7], ["label": "body", "value": 2.25]]),
    ]
    static let endV1: [(String, Value)] = [("think", "think-1"), ("rating", 4.5), ("isFavorite", true)]

    static func object(_ members: [(String, Value)]) -> Value {
        .object(ValueObject(members.map { (key: $0.0, value: $0.1) }))
    }

    /// Decodes `value` as `M` with no diagnostic and checks that it writes `value` back.
    static func decodesAndWritesBack<M: FieldCodable>(_ type: M.Type, _ value: Value) throws -> M {
        let (model, diagnostics, _) = decode(M.self, value)
        #expect(diagnostics == [])
        #expect(model.value == value)
        return model
    }

    @Test func v1WineNoteHoldsEachField() throws {
        let value = Self.object(Self.commonV1 + [("grape", "Merlot")] + Self.endV1)
        let note = try Self.decodesAndWritesBack(NotesV1.WineNote.self, value)
        #expect(note.id == "id-1")
        #expect(note.title == "Title 1")
        #expect(note.category == "category-1")
        #expect(note.createdAt.description == "2024-05-01T09:30:00.250Z")
        #expect(note.imageData?.base64 == "aGVsbG8=")
        #expect(note.alcohol == 13.5)
        #expect(note.look == "ruby, deep")
        #expect(note.smells == ["cherry", "oak"])
        #expect(note.tastes.map(\.label) == ["acidity", "body"])
        #expect(note.tastes.map(\.score) == [0.7, 2.25])
        #expect(note.grape == "Merlot")
        #expect(note.think == "think-1")
        #expect(note.rating == 4.5)
        #expect(note.isFavorite == true)
        let built = NotesV1.WineNote(
            id: "id-1", title: "Title 1", category: "category-1", createdAt: note.createdAt, imageData: note.imageData,
            alcohol: 13.5, look: "ruby, deep", smells: ["cherry", "oak"], tastes: note.tastes, grape: "Merlot",
            think: "think-1", rating: 4.5, isFavorite: true)
        #expect(built.value == value)
        // The optional fields default to absent.
        let bare = NotesV1.WineNote(
            title: "t", category: "c", createdAt: note.createdAt, alcohol: 0, look: "", smells: [], tastes: [], grape: "g",
            think: "", rating: 0, isFavorite: false)
        #expect(bare.id == nil && bare.imageData == nil)
    }

    @Test func v2WineTastingNoteHoldsEachField() throws {
        let value = Self.object([
            ("id", "id-2"), ("title", "Title 2"), ("category", "category-2"), ("createdAt", "2024-05-02T09:30:00Z"),
            ("imageData", "aGVsbG8="), ("alcoholByVolume", 12.5), ("look", ["tint": "ruby", "note": "deep"]),
            ("smells", [["label": "cherry"]]), ("tastes", [["label": "acidity", "value": 0.5]]),
            ("grape", ["variety": "Merlot"]), ("think", "think-2"), ("rating", 3.5), ("isFavorite", false),
        ])
        let note = try Self.decodesAndWritesBack(NotesV2.WineTastingNote.self, value)
        #expect(note.id == "id-2")
        #expect(note.title == "Title 2")
        #expect(note.category == "category-2")
        #expect(note.createdAt.description == "2024-05-02T09:30:00Z")
        #expect(note.imageData?.base64 == "aGVsbG8=")
        #expect(note.alcoholByVolume == 12.5)
        #expect(note.look.tint == "ruby" && note.look.note == "deep")
        #expect(note.smells.map(\.label) == ["cherry"])
        #expect(note.tastes.map(\.label) == ["acidity"] && note.tastes.map(\.score) == [0.5])
        #expect(note.grape.variety == "Merlot")
        #expect(note.think == "think-2")
        #expect(note.rating == 3.5)
        #expect(note.isFavorite == false)
        let built = NotesV2.WineTastingNote(
            id: "id-2", title: "Title 2", category: "category-2", createdAt: note.createdAt, imageData: note.imageData,
            alcoholByVolume: 12.5, look: note.look, smells: note.smells, tastes: note.tastes, grape: note.grape,
            think: "think-2", rating: 3.5, isFavorite: false)
        #expect(built.value == value)
    }

    @Test func otherV1NotesWriteBackEachField() throws {
        _ = try Self.decodesAndWritesBack(NotesV1.CoffeeNote.self, Self.object(Self.commonV1 + Self.endV1))
        let finish: Value = ["length": "long", "note": "smoky"]
        _ = try Self.decodesAndWritesBack(NotesV1.WhiskeyNote.self, Self.object(Self.commonV1 + [("finish", finish)] + Self.endV1))
        let ingredients: Value = [["name": "gin", "amount": "30ml"], ["name": "tonic", "amount": "90ml"]]
        let cocktail = Self.object(Self.commonV1 + [("ingredients", ingredients), ("isContainsIce", true)] + Self.endV1)
        let note = try Self.decodesAndWritesBack(NotesV1.CocktailNote.self, cocktail)
        #expect(note.ingredients.map(\.name) == ["gin", "tonic"])
        #expect(note.isContainsIce == true)
    }

    @Test func otherV2NotesWriteBackEachField() throws {
        let start: [(String, Value)] = [
            ("id", "id-3"), ("title", "Title 3"), ("category", "category-3"), ("createdAt", "2024-05-03T09:30:00Z"),
            ("imageData", "aGVsbG8="),
        ]
        let drink: [(String, Value)] = [("alcoholByVolume", 40.5), ("look", ["tint": "amber", "note": "clear"])]
        let senses: [(String, Value)] = [("smells", [["label": "peat"]]), ("tastes", [["label": "body", "value": 0.25]])]
        let end: [(String, Value)] = [("think", "think-3"), ("rating", 2.5), ("isFavorite", true)]
        _ = try Self.decodesAndWritesBack(NotesV2.CoffeeTastingNote.self, Self.object(start + senses + end))
        let finish: [(String, Value)] = [("finish", ["length": "medium", "note": "smoky"])]
        _ = try Self.decodesAndWritesBack(NotesV2.WhiskeyTastingNote.self, Self.object(start + drink + senses + finish + end))
        let cocktail: [(String, Value)] = [
            ("alcoholByVolume", 10.5), ("tastes", [["label": "sweet", "value": 0.75]]),
            ("ingredients", [["name": "gin", "amount": "30ml"]]), ("isContainsIce", false),
        ]
        _ = try Self.decodesAndWritesBack(NotesV2.CocktailTastingNote.self, Self.object(start + cocktail + end))
    }
}
