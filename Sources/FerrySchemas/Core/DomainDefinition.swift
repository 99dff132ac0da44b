import FerryCore

/// What a domain is, for every part of Ferry that reads, checks, migrates or writes its data:
/// its name, its versioned schemas and migration plan, how its data is recognised, and the few
/// things only some domains have (Firestore nesting, media files). The built-in domains
/// (`NotesDomain`, `PetStoryDomain`, `VocabularyDomain`) are declared with this protocol and
/// registered like an app's own (`DomainRegistry.register(_:)`); everything but `name` and
/// `migrationPlan` has a default that fits a domain of plain collections.
public protocol DomainDefinition: Sendable {
    /// The name on the command line (`--domain`), in headers and manifests (`reading-log`):
    /// non-empty, without whitespace or `/`.
    static var name: String { get }
    /// The plan: its `schemas` (oldest first) are the domain's versions, its stages the migrations.
    static var migrationPlan: any SchemaMigrationPlan.Type { get }

    /// Visits every collection model of every version, oldest version first. The default visits
    /// `migrationPlan.schemas`; a definition that lists its schemas by their concrete types
    /// (`@inlinable`) lets a caller's visitor be specialized for them.
    static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor)

    /// True when a collection of that name is the domain's (detection by collection names, in
    /// registration order). The default: a collection of one of its versions.
    static func claims(collection name: String) -> Bool
    /// The version of data whose header names none: from its collection names and one record's
    /// value (or the whole document). The default: the only version with one of the collections,
    /// else the only version whose model of the sample's collection has one of its fields, else
    /// the oldest version.
    static func detectVersion(collections: [String], sample: Value?) -> Int

    /// True when the domain's records can hold Firestore export layouts (documents with nested
    /// `__collections__`), which are split into documents before decoding. Default false.
    static var hasFirestoreLayouts: Bool { get }
    /// A note about an assumption a migration makes, reported once per run before the first
    /// record of `collection` (such as the time zone calendar days are taken in); nil (the
    /// default) for none.
    static func assumption(collection: String, fromVersion: Int, toVersion: Int, timeZone: String) -> String?
    /// The media files a V2 model names, each with the pointer of its path field and whether a
    /// missing file is only a warning (media a lone export never had); checked against a bundle's
    /// media. The default: none.
    static func mediaPaths(of model: any CollectionModel) -> [DomainMediaPath]
    /// The path stems (no extension) of the media files that belong to a record of an older
    /// layout (`ProfileImages/<id>`), for bundles that carry media beside the data. Default none.
    static func mediaStems(collection: String?, value: Value) -> [String]
    /// True when records of `collection` at `version` may need a bundle's media catalog: they name
    /// media files (`mediaPaths(of:)`) or their migration to the next version looks files up
    /// (`MigrationContext.mediaFiles(withStem:)`). A bundle's records of a collection that needs
    /// it at no version along their way take the general path, which checks them against the
    /// catalog; the others may take the typed path. The default: true, so that a domain that says
    /// nothing keeps its bundle records on the general path.
    static func usesMediaCatalog(collection: String, version: Int) -> Bool
    /// The fields of a record of `collection` at `version` that name records of another
    /// collection by id, checked when the dataset has been read (`dangling-reference`). The
    /// default: none.
    static func references(collection: String, version: Int) -> [ReferenceRule]
}

/// A field that names records of another collection by their ids (a story's `taggedMemberIds`
/// naming members): every id it holds must be the id of a record of `collection` in the same
/// dataset, else the error `dangling-reference` at the field (`taggedMemberIds[1] "m9" names no
/// member of the dataset`). A list field names one record per string element; a string field
/// names one record when not empty. Elements and values of other types are left to the model's
/// own checks.
public struct ReferenceRule: Sendable, Hashable {
    /// The referring field, at the top level of the record (`taggedMemberIds`).
    public var field: String
    /// The collection whose ids it names (`members`).
    public var collection: String
    /// What one record of that collection is called in the message (`member`, `word book`).
    public var noun: String

    public init(field: String, collection: String, noun: String) {
        self.field = field
        self.collection = collection
        self.noun = noun
    }
}

/// A media file a record names (`DomainDefinition.mediaPaths(of:)`).
public struct DomainMediaPath: Sendable, Hashable {
    /// The path as the record holds it (`media/Stories/s1/m1.jpg`).
    public var path: String
    /// Where the path is in the record (`/media/0/path`).
    public var field: JSONPointer
    /// True when a missing file is a `media-not-found` warning, not a `missing-media` error.
    public var mayBeMissing: Bool

    public init(path: String, field: JSONPointer, mayBeMissing: Bool = false) {
        self.path = path
        self.field = field
        self.mayBeMissing = mayBeMissing
    }
}

extension DomainDefinition {
    public static func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        for schema in migrationPlan.schemas { schema.forEachModel(&visitor) }
    }

    public static func claims(collection name: String) -> Bool {
        migrationPlan.schemas.contains { $0.model(forCollection: name) != nil }
    }

    public static func detectVersion(collections: [String], sample: Value?) -> Int {
        let schemas = migrationPlan.schemas
        func only(_ holds: (any VersionedSchema.Type) -> Bool) -> Int? {
            let matching = schemas.filter(holds)
            return matching.count == 1 ? matching[0].versionIdentifier.major : nil
        }
        for name in collections {
            if let version = only({ $0.model(forCollection: name) != nil }) { return version }
        }
        if let object = sample?.objectValue {
            for member in object {
                let version = only { schema in
                    schema.models.contains { model in
                        (collections.isEmpty || collections.contains(model.collection))
                            && model.recordType.index(ofField: member.key) != nil
                    }
                }
                if let version { return version }
            }
        }
        return schemas.first?.versionIdentifier.major ?? 1
    }

    public static var hasFirestoreLayouts: Bool { false }

    public static func assumption(collection: String, fromVersion: Int, toVersion: Int, timeZone: String) -> String? { nil }

    public static func mediaPaths(of model: any CollectionModel) -> [DomainMediaPath] { [] }

    public static func mediaStems(collection: String?, value: Value) -> [String] { [] }

    public static func usesMediaCatalog(collection: String, version: Int) -> Bool { true }

    public static func references(collection: String, version: Int) -> [ReferenceRule] { [] }
}
