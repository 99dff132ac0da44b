import FerryCore

/// Integrity: the id tables, duplicate ids and where a record's id stands.
extension DatasetProcessor {
    /// Records an id in the table of `collection` (the output's: ids are unique there); a second
    /// record with it is a `duplicate-id` error naming `inputCollection` (the collection its
    /// pointer is in), returned (not reported yet: the caller places it among the record's other
    /// problems). Nil for an id not seen before. `known` ids (read from records, not derived) are
    /// what references resolve against.
    /// `plainLine`: the line `idLine(of:)` gives for a plain record, when found already (on the
    /// thread that prepared it); `idLocation`: `idLocation(context, nil)` for any other record
    /// with no `pointer`, likewise.
    func duplicateError(id: String, known: Bool, collection: String, named inputCollection: String,
        context: RecordContext, pointer: (@Sendable (JSONPointer) -> JSONPointer)?, plainLine: Int?? = nil,
        idLocation: SourceLocation? = nil) -> Diagnostic?
    {
        let table = idTable(for: collection)
        // The usual record (`/<collection>/<index>`, the id at `/id`; not one keyed by document
        // id) needs no pointer built, and
        // no locator scan when the record stands on one line.
        let isPlain = pointer == nil && Self.isPlain(context)
        var line: Int?
        var fullLocation: SourceLocation?
        if isPlain {
            line = plainLine ?? DatasetProcessor.idLine(of: context.record)
        } else {
            fullLocation = (pointer == nil ? idLocation : nil) ?? DatasetProcessor.idLocation(context, pointer)
            line = fullLocation?.line
        }
        let first = table.insert(id, known: known, line: line,
            collection: isPlain ? context.record.collection : nil, index: isPlain ? context.record.location.recordIndex : nil)
        {
            var recordPointer = (fullLocation ?? DatasetProcessor.idLocation(context, pointer)).field ?? .root
            if recordPointer.last == "id" { recordPointer.tokens.removeLast() }
            return recordPointer
        }
        guard let first else { return nil }
        return Self.duplicate(id: id, in: inputCollection, first: first, at: fullLocation ?? DatasetProcessor.idLocation(context, pointer))
    }

    /// The `duplicate-id` error of a second record with `id`, naming `collection`: the input's
    /// collection, which the error's pointer and the first record's are in (`wineNotes`, also when
    /// a migration writes `wineTastingNotes`).
    static func duplicate(id: String, in collection: String, first: IDTable.FirstSeen, at location: SourceLocation) -> Diagnostic {
        var message = "duplicate id \(quoted: id) in \(collection): first at"
        if let line = first.line { message += " line \(line)" }
        // A Firestore document's id is its key, so both have the same pointer: the line tells them apart.
        if let field = first.field, first.line == nil || field != location.field {
            message += (first.line == nil ? " " : " (") + field.description + (first.line == nil ? "" : ")")
        }
        return .error(.duplicateID, message, at: location)
    }

    /// Takes back what the commit of `record` (one it returned, in its target collection) said of
    /// its id when the writer then left the record out: with `holdsUnsettledReferences`, records
    /// committed after it that name it are held and dropped with a `lossy-drop` warning, as those
    /// naming a record with errors are, and none is written naming a record that was not.
    /// Nothing changes otherwise (all references are checked as read), nor when a record read
    /// before it named it: that one was let go with it, in input order, ahead of it.
    /// Records committed with it or after it that name it are found by `namesLeftOut(_:)`.
    public func leftOut(_ record: Record) {
        guard holdsUnsettledReferences, let collection = record.collection,
              case .string(let id)? = record.value.objectValue?["id"], !id.isEmpty
        else { return }
        leftOutIDs.insert(ReferencedID(collection: collection, id: id))
        guard !holdsReference(to: id, in: collection) else { return }
        ids[collection]?.markUnknown(id)
    }

    /// The id table of a collection (the last one asked for is kept at hand: records of one
    /// collection usually come together).
    func idTable(for collection: String) -> IDTable {
        idTableReference(for: collection).takeUnretainedValue()
    }

    /// `idTable(for:)` not counted: `ids` holds every table for the processor's life, and the
    /// commit of each record uses one (`_withUnsafeGuaranteedRef`).
    @inline(__always)
    func idTableReference(for collection: String) -> Unmanaged<IDTable> {
        if let lastIDTable, lastIDCollection != nil, UTF8Text.equalHolding(&lastIDCollection!, collection) {
            return lastIDTable
        }
        let table = Unmanaged.passUnretained(storedIDTable(collection))
        lastIDCollection = collection
        lastIDTable = table
        return table
    }

    /// The id table of `collection`, made empty when none was read yet.
    func storedIDTable(_ collection: String) -> IDTable {
        if let existing = ids[collection] { return existing }
        let table = IDTable()
        ids[collection] = table
        return table
    }

    /// The location of a record's `/id` as `context.location(of:)` gives it, with `pointer`
    /// mapping it back to the source record.
    static func idLocation(_ context: RecordContext, _ pointer: (@Sendable (JSONPointer) -> JSONPointer)?) -> SourceLocation {
        var idContext = context
        idContext.sourcePointer = pointer
        return idContext.location(of: idPointer)
    }

    /// The line of the `/id` of a record standing at its own root, as `location(of: /id)` finds
    /// it (the id's position, else the record's, else the record's line), without building the
    /// record's pointer.
    public static func idLine(of record: Record) -> Int? {
        // Asked in place first: the usual record stands on one line (no copy of its locator).
        if let single = record.locator?.singleLine { return single }
        guard let locator = record.locator else { return record.location.line }
        if let line = locator.line(of: idPointer) { return line }
        if let line = locator.line(of: .root) { return line }
        return record.location.line
    }

    static let idPointer = JSONPointer(tokens: ["id"])

    /// True for the usual record (`/<collection>/<index>`, at its own root, not keyed by
    /// document id), whose id's line is `idLine(of:)`.
    static func isPlain(_ context: RecordContext) -> Bool {
        context.isAtRoot && context.hasRecordBase && context.record.documentID == nil
    }
}
