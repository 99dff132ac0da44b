import FerryCore

/// Where a value being decoded stands: the record it belongs to and the value's pointer inside
/// it, so every diagnostic carries the field pointer (`/wineNotes/3/tastes/0/value`) and the
/// line and column the record's locator finds for it.
public struct RecordContext: Sendable {
    /// What every context of one record shares: one reference to copy instead of a dozen, since a
    /// context is copied for every nested value decoded.
    private final class Shared: Sendable {
        let record: Record
        /// Nil for `record.pointer` (built when a diagnostic asks for it).
        let explicitBase: JSONPointer?
        let options: DecodingOptions
        let sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?
        /// The id a Firestore layout gives a document inside the raw record; nil: the record's own.
        let documentID: DocumentID?
        /// `record.pointer` built once for the many documents of one raw record (`cachingBase()`);
        /// nil: built when asked.
        let recordPointer: JSONPointer?

        var base: JSONPointer { explicitBase ?? recordPointer ?? record.pointer }

        init(record: Record, base: JSONPointer?, options: DecodingOptions, sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?,
            documentID: DocumentID? = nil, recordPointer: JSONPointer? = nil)
        {
            self.record = record
            self.explicitBase = base
            self.options = options
            self.sourcePointer = sourcePointer
            self.documentID = documentID
            self.recordPointer = recordPointer
        }

        func with(
            record: Record? = nil, base: JSONPointer?? = .none, options: DecodingOptions? = nil,
            sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?? = .none, documentID: DocumentID?? = .none
        ) -> Shared {
            // Another record has another pointer: the cached one goes with the record it was built for.
            Shared(record: record ?? self.record, base: base ?? explicitBase, options: options ?? self.options,
                sourcePointer: sourcePointer ?? self.sourcePointer, documentID: documentID ?? self.documentID,
                recordPointer: record == nil ? recordPointer : nil)
        }
    }

    /// The id of a document a Firestore layout finds inside a raw record (nil when it has none).
    struct DocumentID: Sendable {
        var id: String?
    }

    private var shared: Shared

    /// The members a Firestore layout filled in, which the source document lacks: `id` from its
    /// key, `wordBookID` from its parent book. A pointer to one names the document itself (RFC
    /// 6901: `/id` or `/wordBookID` would not resolve in the input).
    var filledMembers: [String] = []

    /// The record as read (its location and locator give positions).
    public var record: Record {
        // Read in place: `context.record.locator` copies the locator only, not the whole record
        // (its value, strings and locator, a retain and a release each).
        _read { yield shared.record }
        set { shared = shared.with(record: newValue, base: .some(shared.base)) }
    }
    /// The pointer of the value being decoded, relative to the record's value (`/tastes/0`).
    public var path: JSONPointer {
        get {
            switch last {
            case .none: return parentPath
            case .key(let token): return parentPath.appending(token)
            case .index(let index): return parentPath.appending(index)
            case .keyIndex(let token, let index):
                var tokens = parentPath.tokens
                tokens.append(token)
                tokens.append(String(index))
                return JSONPointer(tokens: tokens)
            }
        }
        set {
            parentPath = newValue
            last = .none
        }
    }

    /// `path` is `parentPath` followed by `last`: appending one token (or a key and then an index:
    /// a list's elements) costs nothing until a diagnostic or a deeper value asks for the pointer
    /// (most values never do).
    private var parentPath: JSONPointer
    private var last = LastToken.none
    /// How many tokens of `path` lead to the document a Firestore layout found inside the raw
    /// record (0 for a record of its own): a message names a field from there (`displayName`).
    private(set) var documentDepth = 0

    /// This context as the root of a document nested in the raw record (`FirestoreLayout`).
    func asDocumentRoot() -> RecordContext {
        var copy = self
        switch last {
        case .none: copy.documentDepth = parentPath.tokens.count
        case .key, .index: copy.documentDepth = parentPath.tokens.count + 1
        case .keyIndex: copy.documentDepth = parentPath.tokens.count + 2
        }
        return copy
    }

    private enum LastToken {
        case none
        case key(String)
        case index(Int)
        /// A member's key and then an element's index (`/tastes/0` below `parentPath`).
        case keyIndex(String, Int)
    }
    /// The pointer of the record's value from the dataset root; `record.pointer` unless a Firestore
    /// layout nests documents inside one raw record.
    public var base: JSONPointer {
        get { shared.base }
        set { shared = shared.with(base: .some(newValue)) }
    }
    /// Decoding options (date strategy, CSV scalars, time zone).
    public var options: DecodingOptions {
        get { shared.options }
        set { shared = shared.with(options: newValue) }
    }
    /// `options.scalarsAsText`, read without copying the options (a reader asks once a record).
    public var scalarsAsText: Bool { shared.options.scalarsAsText }
    /// After a migration: maps a pointer in the new shape (`/alcoholByVolume`) to the field of the
    /// source record it came from (`/alcohol`), so diagnostics point at the source.
    public var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? {
        get { shared.sourcePointer }
        set { shared = shared.with(sourcePointer: .some(newValue)) }
    }

    /// The context of `record`'s value at `path`. `options.scalarsAsText` is set as well when the
    /// record says its scalars are text (`Record.scalarsAreText`).
    public init(
        record: consuming Record, path: JSONPointer = .root, base: JSONPointer? = nil, options: DecodingOptions = DecodingOptions(),
        sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? = nil
    ) {
        var options = options
        // A record from a text format (a CSV member of a bundle of JSON) is typed as that format's
        // plain input is, whatever the dataset's other files are.
        if record.scalarsAreText { options.scalarsAsText = true }
        self.shared = Shared(record: record, base: base, options: options, sourcePointer: sourcePointer)
        self.parentPath = path
    }

    /// True when `base` is the record's own pointer (no Firestore layout nesting).
    var hasRecordBase: Bool { shared.explicitBase == nil }

    /// The context of a member of this value.
    public func appending(_ token: String) -> RecordContext {
        var copy = self
        if case .none = last {
            copy.last = .key(token)
        } else {
            copy.parentPath = path
            copy.last = .key(token)
        }
        return copy
    }

    /// This context with the record's locator replaced (`SubtreeLocator`); path, base and
    /// everything else as they are.
    func locating(with locator: any FieldLocating) -> RecordContext {
        var record = shared.record
        record.locator = locator
        var copy = self
        // The locator is not part of the record's pointer: a pointer built already still holds.
        copy.shared = Shared(record: record, base: shared.explicitBase, options: shared.options, sourcePointer: shared.sourcePointer,
            recordPointer: shared.recordPointer)
        return copy
    }

    /// This context with `record.pointer` built once and kept for every context made from it, for
    /// the many documents of one raw record (each asks for its base when it is committed); `base`
    /// and `hasRecordBase` are as they were.
    func cachingBase() -> RecordContext {
        guard hasRecordBase, shared.recordPointer == nil else { return self }
        var copy = self
        copy.shared = Shared(record: shared.record, base: nil, options: shared.options, sourcePointer: shared.sourcePointer,
            documentID: shared.documentID, recordPointer: shared.record.pointer)
        return copy
    }

    /// True when the path is the record's root.
    var isAtRoot: Bool {
        if case .none = last { return parentPath.tokens.isEmpty }
        return false
    }

    /// The context of an element of this value.
    public func appending(_ index: Int) -> RecordContext {
        var copy = self
        switch last {
        case .none:
            copy.last = .index(index)
        case .key(let token):
            copy.last = .keyIndex(token, index)
        case .index, .keyIndex:
            copy.parentPath = path
            copy.last = .index(index)
        }
        return copy
    }

    /// Whether the record's format holds a place for the member `name` of this value, absent from
    /// its value (a CSV column whose cell is empty): its locator finds a position for it. True
    /// when the record has no locator (nothing tells; an absent string is then taken as empty).
    func hasPlace(ofMember name: String) -> Bool {
        guard let locator = record.locator else { return true }
        return locator.position(of: sourcePath(of: JSONPointer(tokens: [name]))) != nil
    }

    /// The pointer relative to the record's source value of `relative` (below `path`).
    public func sourcePath(of relative: JSONPointer = .root) -> JSONPointer {
        let full = path.appending(relative)
        return sourcePointer?(full) ?? full
    }

    /// The pointer from the dataset root of the value at `relative` below this one: the `field`
    /// of `location(of:)`, without looking up its position.
    public func pointer(of relative: JSONPointer) -> JSONPointer {
        base.appending(sourcePath(of: relative))
    }

    /// The id of the record (or Firestore document) for messages: the document's id when a
    /// Firestore layout set one, else the record's own id, except inside a raw record whose id
    /// is a collection name or path (`base` set).
    public internal(set) var recordID: String? {
        get {
            if let documentID = shared.documentID { return documentID.id }
            return hasRecordBase ? record.id : nil
        }
        set { shared = shared.with(documentID: .some(DocumentID(id: newValue))) }
    }

    /// `location()` without its `field`: the record's location with the line and column of this
    /// value. Builds no pointer when this is the record's own root and no migration maps it (the
    /// usual record), which is all a writer's location needs.
    func locationWithoutField() -> SourceLocation {
        guard isAtRoot, sourcePointer == nil else {
            // `location()` without building the field's pointer (each document of a Firestore
            // export comes here once).
            var result = record.location
            result.field = nil
            result.recordID = recordID
            if let position = position(ofSource: sourcePath()) { result.position = position }
            return result
        }
        var result = record.location
        result.field = nil
        if let position = record.locator?.position(of: .root) { result.position = position }
        return result
    }

    /// The location of the value at `relative` below this one: the record's location with `field`
    /// set to the pointer from the dataset root, and the line and column of the value, or of its
    /// nearest enclosing value the locator finds (an absent field points at its parent).
    public func location(of relative: JSONPointer = .root) -> SourceLocation {
        if !filledMembers.isEmpty, relative.tokens.count == 1, filledMembers.contains(relative.tokens[0]) {
            return location(of: .root)
        }
        if relative.tokens.isEmpty, isAtRoot, sourcePointer == nil {
            // The record's own root (the usual case): no pointers to join or map.
            var result = locationWithoutField()
            result.field = base
            result.recordID = recordID
            return result
        }
        let source = sourcePath(of: relative)
        var result = record.location
        result.field = base.appending(source)
        result.recordID = recordID
        if let position = position(ofSource: source) { result.position = position }
        return result
    }

    /// `location(of:)` of the member `key` of this value at its `occurrence` (0 for the first,
    /// which a pointer resolves to): a key given again is reported where it stands again, when
    /// the record's locator lists members in order (else at the first).
    func location(ofMember key: String, occurrence: Int) -> SourceLocation {
        let member = JSONPointer(tokens: [key])
        var result = location(of: member)
        let source = sourcePath(of: member)
        guard occurrence > 0, !filledMembers.contains(key), let token = source.tokens.last,
              let members = record.locator?.childLocatorsInOrder(of: JSONPointer(tokens: Array(source.tokens.dropLast())))
        else { return result }
        let occurrences = members.filter { $0.token == token }
        guard occurrence < occurrences.count, let position = occurrences[occurrence].locator.position(of: .root) else { return result }
        result.position = position
        return result
    }

    /// The line and column of the value at `source` (a pointer relative to the record's source
    /// value), or of its nearest enclosing value the locator finds; nil without a locator or
    /// when it finds none.
    private func position(ofSource source: JSONPointer) -> TextPosition? {
        guard let locator = record.locator else { return nil }
        var tokens = source.tokens
        while true {
            if let position = locator.position(of: JSONPointer(tokens: tokens)) { return position }
            if tokens.isEmpty { return nil }
            tokens.removeLast()
        }
    }
}
