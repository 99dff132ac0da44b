import FerryCore

/// The `notes` domain (SCHEMAS.md "Domain notes"), declared as any domain is.
public enum NotesDomain: DomainDefinition {
    public static let name = "notes"
    public static var migrationPlan: any SchemaMigrationPlan.Type { NotesMigrationPlan.self }

    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        NotesSchemaV1.forEachModel(&visitor)
        NotesSchemaV2.forEachModel(&visitor)
    }

    static let collections: Set<String> = [
        "wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes",
        "wineTastingNotes", "coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes",
    ]

    public static func claims(collection name: String) -> Bool { collections.contains(name) }

    /// No record names a media file that is checked against a bundle's catalog: `imageData`
    /// (external storage) is put back into the record before it is read (`MediaInliner`).
    public static func usesMediaCatalog(collection: String, version: Int) -> Bool { false }

    /// `…TastingNotes` collections, `alcoholByVolume` or an object `look` mean V2; else V1.
    public static func detectVersion(collections: [String], sample: Value?) -> Int {
        if collections.contains(where: { $0.hasSuffix("TastingNotes") }) { return 2 }
        if collections.contains(where: { $0.hasSuffix("Notes") }) { return 1 }
        if let object = sample?.objectValue, object["alcoholByVolume"] != nil || object["look"]?.objectValue != nil {
            return 2
        }
        return 1
    }
}
