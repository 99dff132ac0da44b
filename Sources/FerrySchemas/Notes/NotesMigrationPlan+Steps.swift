import FerryCore

/// The `notes` V1 -> V2 stage, one step per kind of note, on models (SCHEMAS.md "Domain notes:
/// V1 -> V2"; the rule functions `splitLook`, `finishLength`, `dropIsLossy`, `joinFinishNote` are
/// in `NotesMigrationPlan.swift`). What each step reports, at the V1 field:
/// - a note without an `id` gets one derived from its collection, index, `createdAt` and `title`;
/// - coffee with `alcohol` not 0 or a `look` not blank, cocktail with a `look` not blank or any
///   `smells`: a `lossy-drop` warning (an error under `--strict`);
/// - a whiskey `finish.length` that is not short, medium or long once trimmed and lower-cased: an
///   `invalid-value` error, or under `--lenient` `medium` with the text moved in front of
///   `finish.note` and a `lossy-change` warning.
/// V2's own rules (a `rating` out of 0...5, an empty `title`) are checked on the V2 model by
/// whoever runs the step.
extension NotesMigrationPlan {
    /// `wineNotes` -> `wineTastingNotes`.
    public static let wineV1toV2 = MigrationStep(NotesV1.WineNote.self, to: NotesV2.WineTastingNote.self,
                                                 pointerRenames: renames) { old, context in
        NotesV2.WineTastingNote(
            id: id(of: old.id, old.title, old.createdAt, &context), title: old.title, category: old.category,
            createdAt: old.createdAt, imageData: old.imageData, alcoholByVolume: old.alcohol, look: look(old.look),
            smells: smells(old.smells), tastes: tastes(old.tastes), grape: NotesV2.Grape(variety: old.grape),
            think: old.think, rating: old.rating, isFavorite: old.isFavorite)
    }

    /// `coffeeNotes` -> `coffeeTastingNotes`: `alcohol` and `look` have no place in V2.
    public static let coffeeV1toV2 = MigrationStep(NotesV1.CoffeeNote.self, to: NotesV2.CoffeeTastingNote.self,
                                                   pointerRenames: renames) { old, context in
        let id = id(of: old.id, old.title, old.createdAt, &context)
        if dropIsLossy(alcohol: old.alcohol) {
            context.warning(.lossyDrop,
                "alcohol \(NumberText.ecmaScript(old.alcohol) ?? "") has no place in \(NotesV2.CoffeeTastingNote.recordType.name); dropped",
                at: "/alcohol")
        }
        if dropIsLossy(look: old.look) {
            context.warning(.lossyDrop,
                "look \(quoted: old.look) has no place in \(NotesV2.CoffeeTastingNote.recordType.name); dropped", at: "/look")
        }
        return NotesV2.CoffeeTastingNote(
            id: id, title: old.title, category: old.category, createdAt: old.createdAt, imageData: old.imageData,
            smells: smells(old.smells), tastes: tastes(old.tastes), think: old.think, rating: old.rating,
            isFavorite: old.isFavorite)
    }

    /// `whiskeyNotes` -> `whiskeyTastingNotes`: `finish.length` is checked (see above).
    public static let whiskeyV1toV2 = MigrationStep(NotesV1.WhiskeyNote.self, to: NotesV2.WhiskeyTastingNote.self,
                                                    pointerRenames: renames) { old, context in
        let id = id(of: old.id, old.title, old.createdAt, &context)
        let finish: NotesV2.Finish
        if let length = finishLength(old.finish.length) {
            finish = NotesV2.Finish(length: length, note: old.finish.note)
        } else if context.isLenient {
            context.warning(.lossyChange,
                "finish.length \(quoted: old.finish.length) is not short, medium or long; set to medium, the text moved to finish.note",
                at: "/finish/length")
            finish = NotesV2.Finish(length: .medium, note: joinFinishNote(original: old.finish.length, note: old.finish.note))
        } else {
            context.error(.invalidValue,
                "finish.length \(quoted: old.finish.length) is not short, medium or long (--lenient maps it to medium)",
                at: "/finish/length")
            throw MigrationAbandoned()
        }
        return NotesV2.WhiskeyTastingNote(
            id: id, title: old.title, category: old.category, createdAt: old.createdAt, imageData: old.imageData,
            alcoholByVolume: old.alcohol, look: look(old.look), smells: smells(old.smells), tastes: tastes(old.tastes),
            finish: finish, think: old.think, rating: old.rating, isFavorite: old.isFavorite)
    }

    /// `cocktailNotes` -> `cocktailTastingNotes`: `look` and `smells` have no place in V2.
    public static let cocktailV1toV2 = MigrationStep(NotesV1.CocktailNote.self, to: NotesV2.CocktailTastingNote.self,
                                                     pointerRenames: renames) { old, context in
        let id = id(of: old.id, old.title, old.createdAt, &context)
        if dropIsLossy(look: old.look) {
            context.warning(.lossyDrop,
                "look \(quoted: old.look) has no place in \(NotesV2.CocktailTastingNote.recordType.name); dropped", at: "/look")
        }
        if dropIsLossy(smellCount: old.smells.count) {
            context.warning(.lossyDrop,
                "\(old.smells.count) smell(s) have no place in \(NotesV2.CocktailTastingNote.recordType.name); dropped",
                at: "/smells")
        }
        return NotesV2.CocktailTastingNote(
            id: id, title: old.title, category: old.category, createdAt: old.createdAt, imageData: old.imageData,
            alcoholByVolume: old.alcohol, tastes: tastes(old.tastes),
            ingredients: old.ingredients,
            isContainsIce: old.isContainsIce, think: old.think, rating: old.rating, isFavorite: old.isFavorite)
    }

    /// The V1 note's id, or for a note without one the id derived from its collection, index,
    /// `createdAt` and `title` (`DerivedID.forNote`; its uniqueness is checked on commit).
    private static func id(of id: String?, _ title: String, _ createdAt: Instant, _ context: inout MigrationContext) -> String {
        context.recordID = id
        if let id { return id }
        return DerivedID.forNote(collection: context.sourceCollection, index: context.recordIndex, createdAt: createdAt,
                                 title: title)
    }

    private static func look(_ look: String) -> NotesV2.Look {
        let (tint, note) = splitLook(look)
        return NotesV2.Look(tint: tint, note: note)
    }

    private static func smells(_ smells: [String]) -> [NotesV2.Smell] {
        smells.map { NotesV2.Smell(label: $0) }
    }

    private static func tastes(_ tastes: [NotesV1.Taste]) -> [NotesV2.Taste] {
        tastes.map { NotesV2.Taste(label: $0.label, score: $0.score) }
    }
}
