import FerryCore

/// The commit of the records the typed path took (`TypedPreparation`).
extension DatasetProcessor {
    /// The commit of a record the typed path took (`TypedPreparation`): what `commit(_:)`
    /// does for a record the general path finds no problem in (its id checked and recorded, its
    /// output index taken), without building its context or output record unless its id is a
    /// duplicate or it names an id not read yet. `item` is the raw record as the reader numbered
    /// it; its record is made only for a diagnostic. Returns false when the record is dropped (a
    /// duplicate id, reported).
    public func commit(typed: TypedPreparation, item: TakenItem) -> Bool {
        withUnsafePointer(to: typed) { commit(typedAt: $0, item: item) }
    }

    /// `commit(typed:item:)` for the preparation at `typed` (where a lane batch keeps it), read
    /// there: a copy would count its id and references up and down.
    public func commit(typedAt typed: UnsafePointer<TypedPreparation>, item: TakenItem) -> Bool {
        // Through a pointer: the item is not copied into the closures that may make its record.
        withUnsafePointer(to: item) { commitTyped(typed, .taken($0)) } != nil
    }

    /// `commit(typed:item:)` for a raw record at hand (one read record by record).
    public func commit(typed: TypedPreparation, record: Record) -> Bool {
        withUnsafePointer(to: typed) { typed in withUnsafePointer(to: record) { commitTyped(typed, .record($0)) } } != nil
    }

    /// `commit(typed:item:)` for a run whose writer takes values: the output record the general
    /// path's commit gives for it (`typed.value` in the target collection, with the output's record
    /// index, the record's location and its locator, mapped back through the stages as
    /// `commit(_:)` maps it), or nil when the record is dropped (a duplicate id, reported) or the
    /// typed path built no value for it.
    public func commitForOutput(typed: TypedPreparation, item: TakenItem) -> Record? {
        guard typed.value != nil else { return nil }
        // The output record is located by the raw one: made here, on the calling thread.
        return commitForOutput(typed: typed, record: item.record)
    }

    /// `commitForOutput(typed:item:)` for a raw record at hand.
    public func commitForOutput(typed: TypedPreparation, record: Record) -> Record? {
        guard let value = typed.value,
              let index = withUnsafePointer(to: typed, { typed in withUnsafePointer(to: record) { commitTyped(typed, .record($0)) } })
        else { return nil }
        let route = typed.route
        let context = RecordContext(record: record, options: decodingOptions)
        var location = context.locationWithoutField()
        location.collection = route.targetCollection
        location.recordIndex = index
        var locator = record.locator
        if let base = locator, let map = route.sourcePointer {
            locator = MappedLocator(base: base, prefix: context.path, map: map)
        }
        return Record(collection: route.targetCollection, value: value, location: location, locator: locator)
    }

    /// Checks and records a typed record's id and takes its output index (nil: dropped). The raw
    /// record of a taken item is made only when a diagnostic, or a line its item does not know,
    /// needs it.
    private func commitTyped(_ typed: UnsafePointer<TypedPreparation>, _ raw: TypedCommitRecord) -> Int? {
        // The route borrowed: the workers use it too, and a count written here per record would
        // move its cache line between the cores.
        TypedPreparation.borrowingRoute(at: typed) { commitTyped(typed, raw, route: $0) }
    }

    private func commitTyped(_ typed: UnsafePointer<TypedPreparation>, _ raw: TypedCommitRecord, route: TypedRoute) -> Int? {
        documentsCommitted += 1
        var made: Record? = nil
        func record() -> Record {
            if let made { return made }
            let record = raw.make()
            made = record
            return record
        }
        func context() -> RecordContext {
            if case .taken(let item) = raw, let document = item.pointee.document { return nestedContext(item, document) }
            return RecordContext(record: record(), options: decodingOptions)
        }
        if !timeZoneNoted { noteTimeZoneIfNeeded(collection: route.sourceCollection, context: context()) }
        // As `commit(_:)` with records held back (`--lenient`): an id counts as read once its record is kept.
        let holds = holdsUnsettledReferences
        if holds { clearUnresolved() }
        let pendingBefore = holds ? pendingReferenceCount : 0
        if let id = typed.pointee.id {
            // As `duplicateError` for a plain record (at its own root, no pointer mapping).
            let known = raw.singleLine
            let line = typed.pointee.singleLine > 0 ? typed.pointee.singleLine : known > 0 ? known : made.map(DatasetProcessor.idLine) ?? raw.idLine()
            // A nested record's document is not the usual record: its pointer is kept, not its index.
            let documentPointer = raw.documentPointer
            let isDocument = documentPointer != nil
            let first = idTableReference(for: route.targetCollection)._withUnsafeGuaranteedRef { table in
                table.insert(id, key: typed.pointee.idKey ?? IDTable.Key(id), known: !holds, line: line,
                    collection: isDocument ? nil : raw.collection, index: isDocument ? nil : raw.index)
                {
                    if let documentPointer { return documentPointer }
                    var recordPointer = DatasetProcessor.idLocation(context(), nil).field ?? .root
                    if recordPointer.last == "id" { recordPointer.tokens.removeLast() }
                    return recordPointer
                }
            }
            if let first {
                // The lane's record holds no value to take the id from: it is the typed one.
                var location = DatasetProcessor.idLocation(context(), nil)
                location.recordID = id
                report([Self.duplicate(id: id, in: route.sourceCollection, first: first, at: location)])
                // As `commit(_:)`: a duplicate's references are still checked.
                if !typed.pointee.references.isEmpty { holdUnknownReferences(of: typed, route: route, context: context()) }
                return nil
            }
        }
        // Most records name none: no call then.
        if !typed.pointee.references.isEmpty { holdUnknownReferences(of: typed, route: route, context: context()) }
        if holds {
            if let id = typed.pointee.id {
                _ = idTable(for: route.targetCollection).insert(id, known: true, line: nil, collection: nil, index: nil) { .root }
            }
            listUnresolved(since: pendingBefore)
        }
        return counts.postIncrement(route.targetCollection)
    }

    /// The context of document `document` of the nested record of `item` (a taken document), as
    /// the general path's layout gives it: the record parsed and split once for all its documents.
    private func nestedContext(_ item: UnsafePointer<TakenItem>, _ document: Int) -> RecordContext {
        if let nestedContexts, nestedContexts.source === item.pointee.source, document < nestedContexts.contexts.count {
            return nestedContexts.contexts[document]
        }
        let record = item.pointee.parsedRecord
        let context = RecordContext(record: record, options: decodingOptions)
        let contexts = FirestoreLayout.documents(of: context.record, context: context, nested: preparer.hasFirestoreLayouts)
            .map(\.context)
        nestedContexts = (item.pointee.source, contexts)
        return document < contexts.count ? contexts[document] : context
    }

    /// Keeps the references of a typed record to ids not read yet, located and worded as
    /// `commit(_:)` keeps a `PendingReference` (its context is built only for those). `route` is
    /// `typed`'s, borrowed: neither it nor its rules are counted here, as the workers read them
    /// for every record they take.
    @inline(never)
    private func holdUnknownReferences(of typed: UnsafePointer<TypedPreparation>, route: TypedRoute,
        context: @autoclosure () -> RecordContext)
    {
        if referenceTablesRoute !== route {
            // The tables of the collections the route's rules name, looked up once a run of
            // records of one route (not once a reference); made empty when none was read yet.
            referenceTables = route.referenceRules.map { Unmanaged.passUnretained(storedIDTable($0.collection)) }
            referenceTablesRoute = route
        }
        var located: RecordContext?
        // Through buffers: each reference is read in place, not copied (its id counted) first,
        // and each table used uncounted.
        typed.pointee.references.withUnsafeBufferPointer { references in referenceTables.withUnsafeBufferPointer { tables in
            for k in references.indices {
                // Its fields read where it stands: an element used in a closure is copied first.
                let at = references.baseAddress! + k
                let key = at.pointee.key
                guard !tables[at.pointee.rule]._withUnsafeGuaranteedRef({ $0.isKnown(at.pointee.id, key: key) })
                else { continue }
                // The rule (three strings to count) is taken only for the rare id not read yet.
                let reference = references[k]
                let rule = route.referenceRules[reference.rule]
                let recordContext = located ?? context()
                located = recordContext
                let pending = PendingReference(rule: rule, id: reference.id, index: reference.index, context: recordContext)
                // The raw record the lane took holds no value: its id is the typed one.
                var location = pending.location
                location.recordID = typed.pointee.id
                holdUnsettled(UnsettledReference(pending, at: location))
            }
        } }
    }

    /// Brings the id table's slots for the ids of `batch` (records the typed path took, in input
    /// order) into the cache before they are committed one by one (`IDTable.warm`), and what
    /// looking up the ids they name reads (`IDTable.warmLookups`). Changes nothing.
    ///
    /// The keys are gathered first, then read in a loop of loads only: reading a record's route
    /// or references may count a reference, an atomic operation that waits for every load before
    /// it, and each miss was then waited for in turn.
    public func warmIDs(of batch: [TypedPreparation]) {
        // The records of a batch are nearly always of one collection: the others are left cold.
        guard let route = batch.first?.route else { return }
        let table = idTable(for: route.targetCollection)
        var keys = warmKeys
        warmKeys = []
        keys.removeAll(keepingCapacity: true)
        batch.withUnsafeBufferPointer { batch in
            for i in batch.indices where batch[i].route === route {
                if let key = batch[i].idKey { keys.append(key) }
            }
        }
        warmSink ^= keys.withUnsafeBufferPointer { table.warm($0) }
        // The tables the route's rules name, those read so far (none is made here).
        for (rule, named) in route.referenceRules.enumerated() {
            guard let table = ids[named.collection] else { continue }
            keys.removeAll(keepingCapacity: true)
            batch.withUnsafeBufferPointer { batch in
                for i in batch.indices where batch[i].route === route && !batch[i].references.isEmpty {
                    batch[i].references.withUnsafeBufferPointer { references in
                        for k in references.indices where references[k].rule == rule { keys.append(references[k].key) }
                    }
                }
            }
            warmSink ^= keys.withUnsafeBufferPointer { table.warmLookups($0) }
        }
        warmKeys = keys
    }
    /// `warmIDs(of:)` for the documents a Firestore layout found in one raw record (a word book
    /// and its thousand words), those of the last document's collection: their probes then find
    /// the slots in the cache as the typed path's batches do.
    func warmIDs(of documents: [PreparedDocument]) {
        guard let collection = documents.last?.targetCollection else { return }
        let table = idTable(for: collection)
        warmSink ^= table.warm(documents.lazy.compactMap { $0.targetCollection == collection ? $0.id.map(IDTable.Key.init) : nil })
    }
}

/// The raw record of a typed commit: a taken item, whose record is made only when asked, or a
/// record at hand. Points at the caller's: valid during the commit only.
private enum TypedCommitRecord {
    case taken(UnsafePointer<TakenItem>)
    case record(UnsafePointer<Record>)

    var collection: String? {
        switch self {
        case .taken(let item): item.pointee.collection
        case .record(let record): record.pointee.collection
        }
    }

    var index: Int? {
        switch self {
        case .taken(let item): item.pointee.recordIndex
        case .record(let record): record.pointee.location.recordIndex
        }
    }

    /// The pointer of a nested record's document (`TakenItem.documentPointer`).
    var documentPointer: JSONPointer? {
        switch self {
        case .taken(let item): item.pointee.documentPointer
        case .record: nil
        }
    }

    /// The line every field stands on when known without the record (0: not known).
    var singleLine: Int {
        switch self {
        case .taken(let item): item.pointee.singleLine
        case .record: 0
        }
    }

    /// `DatasetProcessor.idLine(of:)` of the record, which a taken item finds without making it.
    func idLine() -> Int? {
        switch self {
        case .taken(let item):
            // As `idLine(of:)` for a record with a locator and no single line.
            return item.pointee.line(of: DatasetProcessor.idPointer) ?? item.pointee.line(of: .root) ?? item.pointee.start.line
        case .record(let record): return DatasetProcessor.idLine(of: record.pointee)
        }
    }

    func make() -> Record {
        switch self {
        case .taken(let item): item.pointee.record
        case .record(let record): record.pointee
        }
    }
}
