/// Finds the line and column of a field inside one record, on demand.
///
/// Readers do not record a position for every value on the hot path; they hand each record a
/// locator that can find one when a diagnostic needs it (the JSON reader rescans the record's own
/// bytes, the CSV reader maps a field to its column).
public protocol FieldLocating: Sendable {
    /// The position of the value at `field` (a pointer relative to the record), or nil when the
    /// field is absent. For an absent field the caller falls back to the record's own position.
    func position(of field: JSONPointer) -> TextPosition?

    /// The line of every field, when the whole record stands on that one line (a JSON Lines
    /// line); nil otherwise. Lets callers skip `position(of:)` when only the line is wanted.
    var singleLine: Int? { get }

    /// The line of the value at `field`: `position(of:)?.line`, which a locator may find without
    /// the column (the line is all the id check keeps of a record).
    func line(of field: JSONPointer) -> Int?

    /// Locators of the members (keyed by member key) or elements (keyed by 0-based decimal index)
    /// of the object or array at `field`, each giving positions relative to its own value, all
    /// found in one pass; nil when the locator cannot (callers then locate through this one).
    /// Lets a record holding many documents (a Firestore export's collection) be located in time
    /// linear in its size rather than one rescan of it per document.
    func childLocators(of field: JSONPointer) -> [String: any FieldLocating]?

    /// `childLocators(of:)` in the members' or elements' order, a key that repeats in the object
    /// located at each of its occurrences (the dictionary keeps the first); nil when the locator
    /// cannot (callers then use `childLocators(of:)`).
    func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]?
}

extension FieldLocating {
    public var singleLine: Int? { nil }

    public func childLocators(of field: JSONPointer) -> [String: any FieldLocating]? { nil }

    public func childLocatorsInOrder(of field: JSONPointer) -> [(token: String, locator: any FieldLocating)]? { nil }

    public func line(of field: JSONPointer) -> Int? { position(of: field)?.line }
}

/// One record read from an input: its value and where it came from.
public struct Record: Sendable {
    /// The collection it belongs to (`wineNotes`), nil when the input names none.
    public var collection: String?
    /// The document id given by the container rather than the record (Firestore exports keyed by
    /// document id: `{"wordBooks": {"<id>": {...}}}`), nil when the record stands in an array.
    public var documentID: String?
    /// The record itself, usually an object.
    public var value: Value
    /// Where the record starts: file, member, line and column of its first byte, collection and
    /// 0-based index in that collection.
    public var location: SourceLocation
    /// Finds the positions of fields inside the record, when the reader can.
    public var locator: (any FieldLocating)?
    /// True when the record was read from a format whose scalars are all text
    /// (`FormatDescriptor.scalarsAreText`: CSV cells, XML text), so a schema types them. Set per
    /// file or bundle member by whoever knows its format, so the members of one dataset in
    /// different formats are each typed as a plain input of their own format is.
    public var scalarsAreText: Bool
    /// Set when the record is one document of a collection the reader streamed document by
    /// document (`NestedCollections`); `collection`, `documentID` and `location` are then the
    /// whole collection's.
    public var nesting: RecordNesting?

    @inlinable
    public init(
        collection: String?, documentID: String? = nil, value: Value, location: SourceLocation,
        locator: (any FieldLocating)? = nil, scalarsAreText: Bool = false
    ) {
        self.collection = collection
        self.documentID = documentID
        self.value = value
        self.location = location
        self.locator = locator
        self.scalarsAreText = scalarsAreText
        self.nesting = nil
    }

    /// The pointer of this record from the dataset root: `/<collection>/<index>`, or
    /// `/<collection>/<document id>` in a collection keyed by document id (RFC 6901: the member's
    /// key, so that the pointer resolves in the input).
    public var pointer: JSONPointer {
        var tokens: [String] = []
        if let collection { tokens.append(collection) }
        if let documentID {
            tokens.append(documentID)
        } else if let index = location.recordIndex {
            tokens.append(String(index))
        }
        return JSONPointer(tokens: tokens)
    }

    /// The record's id for messages: its `id` field when that is a non-empty string, else the
    /// document id its container gives it; nil when it has neither.
    public var id: String? {
        if let own = value.objectValue?["id"]?.stringValue, !own.isEmpty { return own }
        return documentID
    }

    /// The location of a field of this record: the record's location with `field` set to the
    /// pointer from the dataset root, and the line and column of the field when the locator finds
    /// it (else those of the record).
    /// - Parameter field: a pointer relative to the record (`/tastes/0/value`).
    public func location(of field: JSONPointer) -> SourceLocation {
        var result = location
        result.field = pointer.appending(field)
        result.recordID = id
        if let position = locator?.position(of: field) {
            result.position = position
        }
        return result
    }
}
