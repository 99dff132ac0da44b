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
