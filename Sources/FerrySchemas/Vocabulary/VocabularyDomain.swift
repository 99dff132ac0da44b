import FerryCore

/// The `vocabulary` domain (SCHEMAS.md "Domain vocabulary"), declared as any domain is: its V1
/// data comes in Firestore export layouts.
public enum VocabularyDomain: DomainDefinition {
    public static let name = "vocabulary"
    public static var migrationPlan: any SchemaMigrationPlan.Type { VocabularyMigrationPlan.self }

    @inlinable
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        VocabularySchemaV1.forEachModel(&visitor)
        VocabularySchemaV2.forEachModel(&visitor)
    }

    /// A word's `wordBookID` names a word book, in both versions: the migration stops at a V1
    /// word whose book is not in the dataset, so V1 validation reports it as well.
    public static func references(collection: String, version: Int) -> [ReferenceRule] {
        collection == "words"
            ? [ReferenceRule(field: "wordBookID", collection: "wordBooks", noun: "word book")] : []
    }

    public static var hasFirestoreLayouts: Bool { true }

    /// No record names a media file.
    public static func usesMediaCatalog(collection: String, version: Int) -> Bool { false }

    /// Its collections, the Firestore layouts' members and sub-collection paths (`wordBooks/b1/words`).
    public static func claims(collection name: String) -> Bool {
        switch name {
        case "wordBooks", "words", "__collections__", "subCollection": return true
        default: return FirestoreLayout.subCollectionParent(name) != nil
        }
    }

    /// Firestore layouts, Timestamp objects, an integer `studyState` (also in digits, as CSV and
    /// XML cells write it) and V1's `title` with `timestamp` mean V1; `createdAt` or a word
    /// `studyState` mean V2; V1 otherwise.
    public static func detectVersion(collections: [String], sample: Value?) -> Int {
        if collections.contains(where: { $0 == "__collections__" || $0 == "subCollection" || $0.contains("/") }) {
            return 1
        }
        guard let object = sample?.objectValue else { return 1 }
        if let first = firstDocument(object) { return detectVersion(collections: [], sample: first) }
        if let timestamp = object["timestamp"], FirestoreTimestamp.isTimestampObject(timestamp) { return 1 }
        if object["studyState"]?.isNumber == true { return 1 }
        // CSV and XML cells are text: a studyState written in digits is V1's integer, V2's is a word.
        if let state = object["studyState"]?.stringValue, DomainDetector.isIntegerText(state) { return 1 }
        if object["__collections__"] != nil || object["subCollection"] != nil { return 1 }
        if object["createdAt"] != nil || object["studyState"]?.stringValue != nil { return 2 }
        return 1
    }

    /// A sample that is a whole document or a collection keyed by document id: its first record.
    private static func firstDocument(_ object: ValueObject) -> Value? {
        for key in ["wordBooks", "words", "__collections__"] {
            if let inner = object[key] {
                switch inner {
                case .array(let items): return items.first
                case .object(let members): return members.first?.value
                default: break
                }
            }
        }
        return nil
    }
}
