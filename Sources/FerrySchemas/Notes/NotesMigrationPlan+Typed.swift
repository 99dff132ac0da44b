import FerryCore

/// The typed form of the `notes` V1 -> V2 stage (issue 7): the same mapping as `migrateV1toV2`, on
/// models, with the same rule functions (`splitLook`, `finishLength`, `dropIsLossy`). It takes the
/// plain case only and gives up (nil) on every record the general stage or V2's validation would
/// report anything about:
/// - no `id` (the general stage derives one, checked for uniqueness on commit);
/// - a lossy drop: coffee with `alcohol` not 0 or a `look` not blank, cocktail with a `look` not
///   blank or any `smells` (warnings, errors under `--strict`);
/// - a `finish.length` that is not short, medium or long once trimmed and lower-cased (an error, or
///   a `lossy-change` warning under `--lenient`);
/// - a V2 rule broken (checked by `FieldRuleCheck` against the V2 descriptor): `title` empty,
///   `rating` out of 0...5 or off its 0.5 step, a taste `value` out of 0...1, `alcoholByVolume` out
///   of 0...100, ...
extension NotesMigrationPlan {
    public static func typedMigration(toVersion version: Int) -> TypedRecordMigration? {
        version == 2 ? migrateV1toV2Typed : nil
    }

    /// The per-record V1 -> V2 step on models: the V2 note, or nil for the general stage. Runs the
    /// step of the note's pair (`forEachTypedPair`), found by casting `old`.
    public static let migrateV1toV2Typed: TypedRecordMigration = { old, context in
        switch old {
        case let note as NotesV1.WineNote: return wineV1toV2Typed(note, context)
        case let note as NotesV1.CoffeeNote: return coffeeV1toV2Typed(note, context)
        case let note as NotesV1.WhiskeyNote: return whiskeyV1toV2Typed(note, context)
        case let note as NotesV1.CocktailNote: return cocktailV1toV2Typed(note, context)
        default: return nil
        }
    }

    /// The V1 -> V2 stage as its four (V1 note, V2 note) pairs, in canonical collection order
    /// (nothing for another version).
    @inlinable
    public static func forEachTypedPair<Visitor: TypedMigrationPairVisitor>(toVersion version: Int, _ visitor: inout Visitor) {
        guard version == 2 else { return }
        visitor.visit(wineV1toV2Typed)
        visitor.visit(coffeeV1toV2Typed)
        visitor.visit(whiskeyV1toV2Typed)
        visitor.visit(cocktailV1toV2Typed)
    }

    /// `wineNotes` -> `wineTastingNotes` on models; nil (the general stage) without an id or when
    /// a V2 rule is broken.
    public static let wineV1toV2Typed: TypedPairMigration<NotesV1.WineNote, NotesV2.WineTastingNote> = {
        old, context in
        guard let id = old.id else { return nil }
        let model = typedWine(old, id: id)
        guard keepsV2Rules(model, V2Rules.wine, context) else { return nil }
        return model
    }

    /// `coffeeNotes` -> `coffeeTastingNotes` on models; nil (the general stage) without an id, for
    /// a lossy drop of `alcohol` or `look`, or when a V2 rule is broken.
    public static let coffeeV1toV2Typed: TypedPairMigration<NotesV1.CoffeeNote, NotesV2.CoffeeTastingNote> = {
        old, context in
        guard let id = old.id, !dropIsLossy(alcohol: old.alcohol), !dropIsLossy(look: old.look) else { return nil }
        let model = typedCoffee(old, id: id)
        guard keepsV2Rules(model, V2Rules.coffee, context) else { return nil }
        return model
    }

    /// `whiskeyNotes` -> `whiskeyTastingNotes` on models; nil (the general stage) without an id,
    /// for a `finish.length` that is not short, medium or long, or when a V2 rule is broken.
    public static let whiskeyV1toV2Typed: TypedPairMigration<NotesV1.WhiskeyNote, NotesV2.WhiskeyTastingNote> = {
        old, context in
        guard let id = old.id, let length = finishLength(old.finish.length) else { return nil }
        let model = typedWhiskey(old, id: id, length: length)
        guard keepsV2Rules(model, V2Rules.whiskey, context) else { return nil }
        return model
    }

    /// `cocktailNotes` -> `cocktailTastingNotes` on models; nil (the general stage) without an id,
    /// for a lossy drop of `look` or `smells`, or when a V2 rule is broken.
    public static let cocktailV1toV2Typed: TypedPairMigration<NotesV1.CocktailNote, NotesV2.CocktailTastingNote> = {
        old, context in
        guard let id = old.id, !dropIsLossy(look: old.look), !dropIsLossy(smellCount: old.smells.count) else { return nil }
        let model = typedCocktail(old, id: id)
        guard keepsV2Rules(model, V2Rules.cocktail, context) else { return nil }
        return model
    }

    /// The V2 descriptors' rules, compiled once (`FieldRuleCheck`).
    enum V2Rules {
        static let wine = FieldRulePlan(NotesV2.WineTastingNote.recordType)
        static let coffee = FieldRulePlan(NotesV2.CoffeeTastingNote.recordType)
        static let whiskey = FieldRulePlan(NotesV2.WhiskeyTastingNote.recordType)
        static let cocktail = FieldRulePlan(NotesV2.CocktailTastingNote.recordType)
    }

    /// True when `model` belongs to the context's target collection and keeps every V2 rule
    /// (`rules`: compiled from `M.recordType`). (A test, not a filter: the model is not copied
    /// on its way through.)
    private static func keepsV2Rules<M: FieldCodable & CollectionModel>(_ model: M, _ rules: FieldRulePlan,
        _ context: TypedMigrationContext) -> Bool
    {
        M.collection == context.targetCollection && FieldRuleCheck.passes(model, plan: rules)
    }

    /// The V2 note of a V1 note whose id is `id` (the closures above check first what makes the
    /// record take the general stage). Not optional: an optional model is copied on unwrapping.
    static func typedWine(_ v1: NotesV1.WineNote, id: String) -> NotesV2.WineTastingNote {
        NotesV2.WineTastingNote(
            id: id, title: v1.title, category: v1.category, createdAt: v1.createdAt, imageData: v1.imageData,
            alcoholByVolume: v1.alcohol, look: typedLook(v1.look), smells: typedSmells(v1.smells),
            tastes: typedTastes(v1.tastes), grape: NotesV2.Grape(variety: v1.grape), think: v1.think,
            rating: v1.rating, isFavorite: v1.isFavorite)
    }

    static func typedCoffee(_ v1: NotesV1.CoffeeNote, id: String) -> NotesV2.CoffeeTastingNote {
        NotesV2.CoffeeTastingNote(
            id: id, title: v1.title, category: v1.category, createdAt: v1.createdAt, imageData: v1.imageData,
            smells: typedSmells(v1.smells), tastes: typedTastes(v1.tastes), think: v1.think, rating: v1.rating,
            isFavorite: v1.isFavorite)
    }

    static func typedWhiskey(_ v1: NotesV1.WhiskeyNote, id: String, length: NotesV2.FinishLength)
        -> NotesV2.WhiskeyTastingNote
    {
        NotesV2.WhiskeyTastingNote(
            id: id, title: v1.title, category: v1.category, createdAt: v1.createdAt, imageData: v1.imageData,
            alcoholByVolume: v1.alcohol, look: typedLook(v1.look), smells: typedSmells(v1.smells),
            tastes: typedTastes(v1.tastes), finish: NotesV2.Finish(length: length, note: v1.finish.note),
            think: v1.think, rating: v1.rating, isFavorite: v1.isFavorite)
    }

    static func typedCocktail(_ v1: NotesV1.CocktailNote, id: String) -> NotesV2.CocktailTastingNote {
        NotesV2.CocktailTastingNote(
            id: id, title: v1.title, category: v1.category, createdAt: v1.createdAt, imageData: v1.imageData,
            alcoholByVolume: v1.alcohol, tastes: typedTastes(v1.tastes),
            ingredients: v1.ingredients.map { NotesV2.Ingredient(name: $0.name, amount: $0.amount) },
            isContainsIce: v1.isContainsIce, think: v1.think, rating: v1.rating, isFavorite: v1.isFavorite)
    }

    private static func typedLook(_ look: String) -> NotesV2.Look {
        let (tint, note) = splitLook(look)
        return NotesV2.Look(tint: tint, note: note)
    }

    private static func typedSmells(_ smells: [String]) -> [NotesV2.Smell] {
        smells.map { NotesV2.Smell(label: $0) }
    }

    private static func typedTastes(_ tastes: [NotesV1.Taste]) -> [NotesV2.Taste] {
        tastes.map { NotesV2.Taste(label: $0.label, score: $0.score) }
    }
}
