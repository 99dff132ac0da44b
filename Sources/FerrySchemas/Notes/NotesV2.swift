/// The `notes` domain at schema version 2 (SCHEMAS.md "Domain notes: V2"): tasting notes built
/// from capability protocols.
public enum NotesV2 {
    /// How long a whiskey's finish lasts.
    public enum FinishLength: String, Sendable, Hashable, CaseIterable {
        case short, medium, long
    }

    /// A cocktail ingredient: V1's, field for field (name, amount; record type `Ingredient`).
    public typealias Ingredient = NotesV1.Ingredient

    /// A tasting note's fields in canonical order (`Notable`'s): id, title, category, createdAt,
    /// imageData, the category's `own`, then think, rating, isFavorite.
    static func noteFields(_ own: FieldSchema...) -> [FieldSchema] {
        [
            FieldSchema("id", .nonEmptyString),
            FieldSchema("title", .nonEmptyString),
            FieldSchema("category", .string),
            FieldSchema("createdAt", .instant),
            .optional("imageData", .data, isExternalStorage: true),
        ] + own + [
            FieldSchema("think", .string),
            FieldSchema("rating", .double, range: 0...5, step: 0.5),
            FieldSchema("isFavorite", .bool),
        ]
    }
}

/// The `notes` domain's version 2 schema.
public enum NotesSchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static let domain = Domain.notes
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(NotesV2.WineTastingNote.self)
        visitor.visit(NotesV2.CoffeeTastingNote.self)
        visitor.visit(NotesV2.WhiskeyTastingNote.self)
        visitor.visit(NotesV2.CocktailTastingNote.self)
    }
}

/// What every V2 tasting note has: id, title, category, createdAt, imageData, think, rating, isFavorite.
public protocol Notable: CollectionModel {
    var id: String { get set }
    /// Non-empty.
    var title: String { get set }
    var category: String { get set }
    var createdAt: Instant { get set }
    /// External storage in bundles (`media/notes/<collection>/<id>.<ext>`).
    var imageData: Base64Data? { get set }
    var think: String { get set }
    /// 0...5 in steps of 0.5.
    var rating: Double { get set }
    var isFavorite: Bool { get set }
}

/// A drink with alcohol: `alcoholByVolume` in percent, 0...100 (wine, whiskey, cocktail).
public protocol Alcoholable {
    var alcoholByVolume: Double { get set }
}

/// A drink whose look is noted (wine, whiskey).
public protocol Lookable {
    var look: NotesV2.Look { get set }
}

/// A drink whose smells are noted (wine, coffee, whiskey).
public protocol Smellable {
    var smells: [NotesV2.Smell] { get set }
}

/// A drink whose tastes are noted (all four).
public protocol Tastable {
    var tastes: [NotesV2.Taste] { get set }
}

/// A wine's grape.
public protocol Grapable {
    var grape: NotesV2.Grape { get set }
}

/// A whiskey's finish.
public protocol Finishable {
    var finish: NotesV2.Finish { get set }
}

/// A cocktail's ingredients and ice.
public protocol Ingredientable {
    var ingredients: [NotesV2.Ingredient] { get set }
    var isContainsIce: Bool { get set }
}
