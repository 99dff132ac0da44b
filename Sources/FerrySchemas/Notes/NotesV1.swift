/// The `notes` domain at schema version 1 (SCHEMAS.md "Domain notes: V1"): `wineNotes`,
/// `coffeeNotes`, `whiskeyNotes`, `cocktailNotes`.
public enum NotesV1 {}

/// The `notes` domain's version 1 schema, as a SwiftData-style `VersionedSchema`.
public enum NotesSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let domain = Domain.notes
    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        visitor.visit(NotesV1.WineNote.self)
        visitor.visit(NotesV1.CoffeeNote.self)
        visitor.visit(NotesV1.WhiskeyNote.self)
        visitor.visit(NotesV1.CocktailNote.self)
    }
}

extension NotesV1 {
    /// A V1 note's fields in canonical order: the nine every category has (id, title, category,
    /// createdAt, imageData, alcohol, look, smells, tastes), the category's `own`, then think,
    /// rating, isFavorite.
    static func noteFields(_ own: FieldSchema...) -> [FieldSchema] {
        [
            .optional("id", .nonEmptyString),
            FieldSchema("title", .string),
            FieldSchema("category", .string),
            FieldSchema("createdAt", .instant),
            .optional("imageData", .data, isExternalStorage: true),
            FieldSchema("alcohol", .double),
            FieldSchema("look", .string),
            FieldSchema("smells", .array(.string)),
            FieldSchema("tastes", .array(.object(Taste.recordType))),
        ] + own + [
            FieldSchema("think", .string),
            FieldSchema("rating", .double),
            FieldSchema("isFavorite", .bool),
        ]
    }
}
