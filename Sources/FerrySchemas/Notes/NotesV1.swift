/// The `notes` domain at schema version 1 (SCHEMAS.md "Domain notes: V1"): `wineNotes`,
/// `coffeeNotes`, `whiskeyNotes`, `cocktailNotes`.
public enum NotesV1 {}

/// The `notes` domain's version 1 schema, as a SwiftData-style `VersionedSchema`.
public enum NotesSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static let domain = Domain.notes
    public static var models: [any CollectionModel.Type] {
        [NotesV1.WineNote.self, NotesV1.CoffeeNote.self, NotesV1.WhiskeyNote.self, NotesV1.CocktailNote.self]
    }
}
