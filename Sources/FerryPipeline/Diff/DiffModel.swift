import FerryCore
import FerrySchemas

/// What one side of a diff was: the input as named, what it was read as and the version it was
/// compared at.
public struct DiffSide: Sendable, Equatable {
    /// The input as the user named it (`-` for standard input).
    public var input: String
    /// Its format for people (`json`, `tar`, `bundle folder`, ...).
    public var format: String
    /// The domain; nil for schema-free records.
    public var domain: Domain?
    /// The version read.
    public var version: Int?
    /// The version compared at: `version`, or NEW's when OLD was migrated to it (or the reverse).
    public var comparedVersion: Int?
}

/// How the records of a collection were paired.
public enum DiffKey: String, Sendable {
    /// By `id` (or a Firestore document id): every record of the collection on both sides has one,
    /// and no two on one side share it.
    case id
    /// By position: some record lacks an id or repeats one (schema-free data).
    case position
}

/// One record that differs, with the pointers of the canonical JSON documents
/// (`/<collection>/<index>`, or `/<index>` for records of no collection).
public struct RecordDifference: Sendable {
    /// What happened to the record.
    public enum Kind: String, Sendable {
        case added, removed, changed
        /// Only its position changed: no difference for a comparison by id, a `move` in a patch.
        case moved
    }

    /// What happened to the record.
    public var kind: Kind
    /// The collection; nil for records of no collection (a schema-free top-level array).
    public var collection: String?
    /// The record's id; nil when paired by position.
    public var id: String?
    /// Its 0-based index in OLD's collection; nil when added.
    public var oldIndex: Int?
    /// Its 0-based index in NEW's collection; nil when removed.
    public var newIndex: Int?
    /// The whole record: OLD's when removed, NEW's when added; nil when changed.
    public var value: Value?
    /// Field by field (`FieldChange.changes`), `--ignore`d fields left out; empty unless changed.
    public var changes: [FieldChange] = []
    /// For a JSON Patch only: the record stands at this index of the collection being patched
    /// (OLD with the removals and the earlier additions and moves applied), not at `newIndex`,
    /// and moves there first. Nil when it already stands at `newIndex` (records kept their order).
    public var moveFrom: Int?

    /// A difference with no value, changes or move yet.
    public init(kind: Kind, collection: String?, id: String?, oldIndex: Int? = nil, newIndex: Int? = nil) {
        self.kind = kind
        self.collection = collection
        self.id = id
        self.oldIndex = oldIndex
        self.newIndex = newIndex
    }

    /// The pointer of the record in OLD's canonical JSON.
    public var oldPointer: JSONPointer? { oldIndex.map { Self.pointer(collection, $0) } }
    /// The pointer of the record in NEW's canonical JSON.
    public var newPointer: JSONPointer? { newIndex.map { Self.pointer(collection, $0) } }

    /// `/<collection>/<index>`, or `/<index>` without a collection.
    public static func pointer(_ collection: String?, _ index: Int) -> JSONPointer {
        JSONPointer(tokens: (collection.map { [$0] } ?? []) + [String(index)])
    }
}

/// One media file that differs, compared by SHA-256 (dataset-root paths, `media/...`).
public struct MediaDifference: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case added, removed, changed, renamed
    }

    /// What happened to the file.
    public var kind: Kind
    /// NEW's path; OLD's for a removed file.
    public var path: String
    /// OLD's path of a renamed file (same bytes, another path); nil otherwise.
    public var oldPath: String?
    /// Lower-case hex digests; nil on the side that lacks the file.
    public var oldSHA256: String?
    public var newSHA256: String?
}

/// The counts of a diff; the diff found nothing when all are 0.
public struct DiffSummary: Sendable, Equatable {
    /// Records only NEW has.
    public var recordsAdded = 0
    /// Records only OLD has.
    public var recordsRemoved = 0
    /// Paired records with at least one field change left after `--ignore`.
    public var recordsChanged = 0
    /// Records whose position changed and nothing else: no difference for a comparison by id,
    /// one `move` in a JSON Patch.
    public var recordsMoved = 0
    /// Media files by `MediaDifference.Kind`.
    public var mediaAdded = 0
    public var mediaRemoved = 0
    public var mediaChanged = 0
    public var mediaRenamed = 0

    public init() {}

    /// True when records or media differ (moves aside).
    public var differs: Bool {
        recordsAdded + recordsRemoved + recordsChanged + mediaAdded + mediaRemoved + mediaChanged + mediaRenamed > 0
    }
}

/// Receives a diff as it is found: per collection (OLD's order, then NEW's new ones) the removed
/// records in OLD's order, then the added and changed ones in NEW's order; then media in byte
/// order of path; then the counts. Memory stays bounded when a reporter writes as it goes.
public protocol DiffReporter: AnyObject {
    /// Both sides were read; called once, before anything else.
    func begin(old: DiffSide, new: DiffSide) throws
    /// A collection's comparison starts (every collection either side has, differing or not);
    /// nil is the records of no collection.
    func beginCollection(_ collection: String?, keyedBy key: DiffKey) throws
    /// One record that differs (or only moved) in the current collection.
    func record(_ difference: RecordDifference) throws
    /// The current collection is done.
    func endCollection(_ collection: String?) throws
    /// One media file that differs, after every collection.
    func media(_ difference: MediaDifference) throws
    /// The counts; called once, last.
    func finish(_ summary: DiffSummary) throws
}
