import FerryCore
import Foundation

/// Decodes, validates and migrates the records of one dataset, one record at a time, and checks
/// what spans records (ids, references) at the end (DESIGN.md "Data flow": domain codec,
/// MigrationPlan, Validator).
///
/// Keeps id sets and pending references, never records. Not thread-safe: one processor per input
/// stream.
public final class DatasetProcessor {
    public let domain: Domain
    public let sourceVersion: Int
    public let targetVersion: Int
    public let options: ProcessingOptions
    let log: DiagnosticLog
    let timeZone: TimeZone
    let plan: any SchemaMigrationPlan.Type
    /// What the domain is (its assumptions, media).
    let definition: any DomainDefinition.Type
    let sourceSchema: any VersionedSchema.Type
    let targetVersionedSchema: any VersionedSchema.Type
    let decodingOptions: DecodingOptions

    /// The decode/validate/migrate half of the work, which needs no cross-record state.
    public let preparer: RecordPreparer

    // The state below is read and written by every commit, on the one thread the processor runs
    // on, and no access to it overlaps another: `@exclusivity(unchecked)` spares the runtime
    // check each access would make (several a record on the thread that keeps `--jobs` in order).

    /// Target collection -> records returned so far.
    @exclusivity(unchecked) private var counts = KeyedCounter()
    /// Target collection -> ids seen, where each was first seen (valid records), and which were
    /// read (references resolve against these; derived ids are not among them).
    @exclusivity(unchecked) private var ids: [String: IDTable] = [:]
    /// The collection and table `idTable(for:)` returned last.
    @exclusivity(unchecked) private var lastIDCollection: String?
    @exclusivity(unchecked) private var lastIDTable: IDTable?
    /// References to ids not read when their record was committed, located then (so that no
    /// record is held): checked again after the last record.
    @exclusivity(unchecked) private var pendingReferences: [UnsettledReference] = []
    /// The ids read but not kept whose referring records were said to be dropped (`--lenient`).
    private var reportedDrops: Set<ReferencedID> = []
    /// Set by a caller that holds back the records naming ids not read yet (`--lenient`: a
    /// record kept must have every reference settled). Then `unresolvedReferences` lists them for
    /// each record `commit` returns, and an id counts as read (`isRead`) only once its record is
    /// kept, so a record naming one that was dropped is dropped too. Off: nothing is listed.
    public var holdsUnsettledReferences = false
    /// True when some record of the source version names records of another collection
    /// (`DomainDefinition.references`): only then can a reference be unsettled.
    public var makesReferences: Bool { !preparer.referenceRules.isEmpty }
    /// With `holdsUnsettledReferences`, one list per record the last `commit` returned: the ids
    /// it names that were not read then (empty for most records).
    public private(set) var unresolvedReferences: [[ReferencedID]] = []
    @exclusivity(unchecked) private var reportedCollections: Set<String> = []
    @exclusivity(unchecked) private var reportedNotes: Set<String> = []
    @exclusivity(unchecked) private var timeZoneNoted = false

    /// - Throws: FerryError(.unknownVersion) for an unknown version or targetVersion < source version (no down-migration);
    ///   FerryError(.usage) for a time zone that is not an IANA name.
    public init(domain: Domain, sourceVersion: Int, targetVersion: Int, options: ProcessingOptions, log: DiagnosticLog) throws {
        guard let definition = domain.definition else {
            throw FerryError(.unknownDomain, "unknown domain \(quoted: domain.rawValue); domains: \(DomainRegistry.shared.namesList)")
        }
        let plan = definition.migrationPlan
        guard let source = plan.schema(version: sourceVersion) else {
            throw DatasetSchema.unknownVersion(sourceVersion, of: domain)
        }
        guard let target = plan.schema(version: targetVersion) else {
            throw DatasetSchema.unknownVersion(targetVersion, of: domain)
        }
        guard targetVersion >= sourceVersion else {
            throw FerryError(.unknownVersion,
                "cannot migrate \(domain.rawValue) down from version \(sourceVersion) to \(targetVersion) (no down-migration)")
        }
        guard let timeZone = TimeZone(identifier: options.timeZone) else {
            throw FerryError(.usage, "unknown time zone \(quoted: options.timeZone) (an IANA name such as UTC or Asia/Tokyo)")
        }
        self.domain = domain
        self.sourceVersion = sourceVersion
        self.targetVersion = targetVersion
        self.options = options
        self.log = log
        self.timeZone = timeZone
        self.plan = plan
        self.definition = definition
        self.sourceSchema = source
        self.targetVersionedSchema = target
        self.decodingOptions = DecodingOptions(
            dateStrategy: options.explicitDateStrategy, scalarsAsText: options.scalarsAsText, timeZone: timeZone,
            timeZoneName: options.timeZone)
        self.preparer = RecordPreparer(
            domain: domain, definition: definition, sourceVersion: sourceVersion, targetVersion: targetVersion, options: options, timeZone: timeZone,
            plan: plan, sourceSchema: source, decodingOptions: decodingOptions)
    }

    /// The schema of the records `process` returns.
    public var targetSchema: DatasetSchema { targetVersionedSchema.datasetSchema }

    /// Decodes one raw record of the source version, validates it, migrates it to the target version, validates the result,
    /// and returns the canonical target-version records (values in canonical field order, collection = target collection name).
    /// Normalizes Firestore layouts (one raw record may yield several). Returns [] for an invalid record; every problem goes to the log with its location.
    public func process(_ record: consuming Record) -> [Record] {
        commit(preparer.prepare(record))
    }

    /// The second half of `process`: the checks that span records (unique ids, references,
    /// record indexes) and the reporting, in record order. `prepared` comes from
    /// `preparer.prepare(_:)`, which may run on another thread; committing the prepared records
    /// in input order gives exactly what `process` gives.
    public func commit(_ prepared: PreparedRecord) -> [Record] {
        if prepared.documents.count > 1 { warmIDs(of: prepared.documents) }
        var output: [Record] = []
        if holdsUnsettledReferences { unresolvedReferences.removeAll(keepingCapacity: true) }
        // Through a buffer: each document is read in place in the array, not copied out of it.
        prepared.documents.withUnsafeBufferPointer { documents in
            for index in documents.indices {
                let pendingBefore = pendingReferences.count
                guard let result = commit(documents[index]) else { continue }
                output.append(result)
                if holdsUnsettledReferences {
                    unresolvedReferences.append(pendingReferences[pendingBefore...].map { ReferencedID(collection: $0.collection, id: $0.id) })
                }
            }
        }
        return output
    }

    /// An id a record names in another collection (`wordBooks`, `members`).
    public struct ReferencedID: Sendable, Hashable {
        public var collection: String
        public var id: String

        public init(collection: String, id: String) {
            self.collection = collection
            self.id = id
        }
    }

    /// True when a record with `reference.id` was read in its collection (with
    /// `holdsUnsettledReferences`: read and kept), so a reference to it does not dangle.
    public func isRead(_ reference: ReferencedID) -> Bool {
        ids[reference.collection]?.isKnown(reference.id) ?? false
    }

    /// Cross-record checks after the last record: duplicate ids, dangling references; reports to the log.
    public func finish() {
        for reference in pendingReferences where !(ids[reference.collection]?.isKnown(reference.id) ?? false) {
            if holdsUnsettledReferences, ids[reference.collection]?.isRecorded(reference.id) ?? false {
                reportDropped(reference)
                continue
            }
            log.report(.error(.danglingReference, reference.danglingMessage, at: reference.location))
        }
        pendingReferences.removeAll()
    }

    /// Keeps a reference to an id not known yet for `finish()`. Under `--lenient` an id read but
    /// not kept is a record with errors of its own, reported: the records naming it are dropped
    /// with it, which a warning says once, at the first of them (not an error that would repeat
    /// the named record's problem, nor one for each; `dropsOnlyForIt`: false for a record dropped
    /// for errors of its own).
    private func holdUnsettled(_ reference: UnsettledReference, dropsOnlyForIt: Bool = true) {
        if dropsOnlyForIt, holdsUnsettledReferences, ids[reference.collection]?.isRecorded(reference.id) ?? false {
            reportDropped(reference)
        }
        pendingReferences.append(reference)
    }

    /// The `lossy-drop` warning for the records naming a record that is not written, once for it.
    private func reportDropped(_ reference: UnsettledReference) {
        guard reportedDrops.insert(ReferencedID(collection: reference.collection, id: reference.id)).inserted else { return }
        log.report(.warning(.lossyDrop, reference.droppedMessage, at: reference.location))
    }

    // MARK: One document

    private func commit(_ document: PreparedDocument) -> Record? {
        let collection = document.collection
        if document.isUnknownCollection {
            if reportedCollections.insert(collection).inserted {
                report([.error(.invalidValue,
                    "unknown collection \(collection.isEmpty ? "(none)" : collection) for domain \(domain.rawValue) v\(sourceVersion) "
                    + "(its collections: \(preparer.sourceCollections.joined(separator: ", "))); its records are skipped",
                    at: document.context.location())])
            }
            return nil
        }
        noteTimeZoneIfNeeded(collection: collection, context: document.context)

        // Identity and references are checked on every record as read, valid or not, so a record
        // with other problems still has its duplicate id and its dangling references reported
        // (validation collects every problem), and references to it do not dangle too.
        let targetCollection = document.targetCollection
        let duplicate = document.id.flatMap {
            duplicateError(id: $0, known: !holdsUnsettledReferences, collection: targetCollection, named: collection,
                context: document.context, pointer: nil, plainLine: document.idLine)
        }
        // The record's problems are reported together, once its last is known, in line and
        // column order (`reportRecord`): its duplicate id among those it was read with.
        var problems = document.decodeDiagnostics
        if let duplicate { problems.append(duplicate) }
        let hasErrors = countsError(document.decodeDiagnostics)
        let isDuplicate = duplicate != nil
        for reference in document.references where !(ids[reference.collection]?.isKnown(reference.id) ?? false) {
            let location = reference.location
            // A field already reported wrong (a wordBookID that differs from its parent book) is
            // one problem, not a second one when what it names is missing too.
            if hasErrors, document.decodeDiagnostics.contains(where: { $0.severity == .error && $0.location.field == location.field }) {
                continue
            }
            holdUnsettled(UnsettledReference(reference, at: location), dropsOnlyForIt: !hasErrors)
        }
        guard !hasErrors else { return reportRecord(problems) }

        // A duplicate is dropped, but what its stages found is still its problem to report.
        for batch in document.stageDiagnostics {
            problems += batch
            if countsError(batch) { return reportRecord(problems) }
        }
        if isDuplicate { return reportRecord(problems) }
        guard let result = document.result else { return reportRecord(problems) }

        if let id = result.derivedID,
           let duplicate = duplicateError(id: id, known: false, collection: result.collection, named: collection,
                                          context: document.context, pointer: result.sourcePointer)
        {
            problems.append(duplicate)
            return reportRecord(problems)  // a derived id (notes without one) that collides
        }
        problems += result.mediaDiagnostics
        if countsError(result.mediaDiagnostics) { return reportRecord(problems) }
        if !problems.isEmpty { reportRecord(problems) }

        if holdsUnsettledReferences, let id = document.id {
            // Kept: references to it are settled from now on (the entry exists; this marks it).
            _ = idTable(for: targetCollection).insert(id, known: true, line: nil, collection: nil, index: nil) { .root }
        }
        let outputIndex = counts.postIncrement(result.collection)
        // With no values wanted (`validate`), nothing reads where the returned record stands or
        // locates its fields: it is only counted in its collection, so its location and locator
        // are not built.
        guard options.needsOutputValues else {
            return Record(collection: result.collection, value: result.value,
                          location: SourceLocation(collection: result.collection, recordIndex: outputIndex))
        }
        var location = document.context.locationWithoutField()
        location.collection = result.collection
        location.recordIndex = outputIndex
        var locator = document.context.record.locator
        if let base = locator, !(document.context.isAtRoot && result.sourcePointer == nil) {
            locator = MappedLocator(base: base, prefix: document.context.path, map: result.sourcePointer)
        }
        return Record(collection: result.collection, value: result.value, location: location, locator: locator)
    }

    // MARK: Reporting

    /// Reports diagnostics (strict mode turns lossy warnings into errors; assumption notes and
    /// warnings are reported once per run). Returns true when any is an error.
    @discardableResult
    private func report(_ diagnostics: [Diagnostic]) -> Bool {
        var hasError = false
        for var diagnostic in diagnostics {
            if diagnostic.code == .assumption, diagnostic.severity != .error {
                guard reportedNotes.insert(diagnostic.message).inserted else { continue }
            }
            if options.mode == .strict, diagnostic.severity == .warning, diagnostic.code.rawValue.hasPrefix("lossy-") {
                diagnostic.severity = .error
                diagnostic.message += " (--strict)"
            }
            if diagnostic.severity == .error { hasError = true }
            log.report(diagnostic)
        }
        return hasError
    }

    /// True when `report` would count an error among `diagnostics` (`--strict` makes lossy
    /// warnings errors).
    private func countsError(_ diagnostics: [Diagnostic]) -> Bool {
        preparer.hasErrors(diagnostics)
    }

    /// Reports the problems of one record in line and column order, whatever found them: the
    /// errors of its reading (type errors, unknown fields, missing fields at the record's start)
    /// and those of its rule checks (ranges, checks across fields, a migration's checks, its
    /// duplicate id) are interleaved by where they stand. The sort is stable (two at one place
    /// keep the order found); a diagnostic with no line (none from input has none: a record read
    /// without a locator) goes after those with one, in the order found, and one with a line but
    /// no column goes first on its line. Returns nil, for `commit` to return.
    @discardableResult
    private func reportRecord(_ diagnostics: [Diagnostic]) -> Record? {
        report(Self.inPlaceOrder(diagnostics))
        return nil
    }

    /// `diagnostics` sorted stably by (line, column), those with no line last (see `reportRecord`).
    static func inPlaceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        func key(_ diagnostic: Diagnostic) -> (Int, Int) {
            guard let line = diagnostic.location.line else { return (Int.max, 0) }
            return (line, diagnostic.location.column ?? 0)
        }
        // Most records have one problem or none, and most lists are in order already.
        guard diagnostics.count > 1,
              zip(diagnostics, diagnostics.dropFirst()).contains(where: { key($0) > key($1) })
        else { return diagnostics }
        return diagnostics.enumerated()
            .sorted { a, b in
                let (ka, kb) = (key(a.element), key(b.element))
                return ka != kb ? ka < kb : a.offset < b.offset
            }
            .map(\.element)
    }

    private func noteTimeZoneIfNeeded(collection: String, context: @autoclosure () -> RecordContext) {
        guard !timeZoneNoted,
              let message = definition.assumption(collection: collection, fromVersion: sourceVersion, toVersion: targetVersion,
                  timeZone: options.timeZone)
        else { return }
        timeZoneNoted = true
        // About the whole dataset, placed at its first member: no field, no record id.
        var location = context().location()
        location.field = nil
        location.recordID = nil
        report([.note(.assumption, message, at: location)])
    }

    // MARK: Integrity

    /// Records an id in the table of `collection` (the output's: ids are unique there); a second
    /// record with it is a `duplicate-id` error naming `inputCollection` (the collection its
    /// pointer is in), returned (not reported yet: the caller places it among the record's other
    /// problems). Nil for an id not seen before. `known` ids (read from records, not derived) are
    /// what references resolve against.
    /// `plainLine`: the line `idLine(of:)` gives for a plain record, when found already (on the
    /// thread that prepared it).
    private func duplicateError(id: String, known: Bool, collection: String, named inputCollection: String,
        context: RecordContext, pointer: (@Sendable (JSONPointer) -> JSONPointer)?, plainLine: Int?? = nil) -> Diagnostic?
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
            fullLocation = DatasetProcessor.idLocation(context, pointer)
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
    private static func duplicate(id: String, in collection: String, first: IDTable.FirstSeen, at location: SourceLocation) -> Diagnostic {
        var message = "duplicate id \(quoted: id) in \(collection): first at"
        if let line = first.line { message += " line \(line)" }
        if let field = first.field { message += (first.line == nil ? " " : " (") + field.description + (first.line == nil ? "" : ")") }
        return .error(.duplicateID, message, at: location)
    }

    /// The commit of a record the typed path took (`TypedPreparation`, issue 7): what `commit(_:)`
    /// does for a record the general path finds no problem in (its id checked and recorded, its
    /// output index taken), without building its context or output record unless its id is a
    /// duplicate. `record` is the raw record as the reader numbered it. Returns false when the
    /// record is dropped (a duplicate id, reported).
    public func commit(typed: TypedPreparation, record: Record) -> Bool {
        commitTyped(typed, record: record) != nil
    }

    /// `commit(typed:record:)` for a run whose writer takes values: the output record the general
    /// path's commit gives for it (`typed.value` in the target collection, with the output's record
    /// index, the record's location and its locator, mapped back through the stages as
    /// `commit(_:)` maps it), or nil when the record is dropped (a duplicate id, reported) or the
    /// typed path built no value for it.
    public func commitForOutput(typed: TypedPreparation, record: Record) -> Record? {
        guard let value = typed.value, let index = commitTyped(typed, record: record) else { return nil }
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

    /// Checks and records a typed record's id and takes its output index (nil: dropped).
    private func commitTyped(_ typed: TypedPreparation, record: Record) -> Int? {
        let route = typed.route
        var context: RecordContext { RecordContext(record: record, options: decodingOptions) }
        if !timeZoneNoted { noteTimeZoneIfNeeded(collection: route.sourceCollection, context: context) }
        if let id = typed.id {
            // As `duplicateError` for a plain record (at its own root, no pointer mapping).
            let table = idTable(for: route.targetCollection)
            let line = typed.singleLine > 0 ? typed.singleLine : DatasetProcessor.idLine(of: record)
            let first = table.insert(id, key: typed.idKey ?? IDTable.Key(id), known: true, line: line,
                collection: record.collection, index: record.location.recordIndex)
            {
                var recordPointer = DatasetProcessor.idLocation(context, nil).field ?? .root
                if recordPointer.last == "id" { recordPointer.tokens.removeLast() }
                return recordPointer
            }
            if let first {
                // The lane's record holds no value to take the id from: it is the typed one.
                var location = DatasetProcessor.idLocation(context, nil)
                location.recordID = id
                report([Self.duplicate(id: id, in: route.sourceCollection, first: first, at: location)])
                // As `commit(_:)`: a duplicate's references are still checked.
                if !typed.references.isEmpty { holdUnknownReferences(of: typed, context: context) }
                return nil
            }
        }
        // Most records name none: no call then.
        if !typed.references.isEmpty { holdUnknownReferences(of: typed, context: context) }
        return counts.postIncrement(route.targetCollection)
    }

    /// Keeps the references of a typed record to ids not read yet, located and worded as
    /// `commit(_:)` keeps a `PendingReference` (its context is built only for those).
    @inline(never)
    private func holdUnknownReferences(of typed: TypedPreparation, context: @autoclosure () -> RecordContext) {
        let route = typed.route
        let rules = route.referenceRules
        if referenceTablesRoute !== route {
            // The tables of the collections the route's rules name, looked up once a run of
            // records of one route (not once a reference); made empty when none was read yet.
            referenceTables = rules.map { rule in
                if let table = ids[rule.collection] { return table }
                let table = IDTable()
                ids[rule.collection] = table
                return table
            }
            referenceTablesRoute = route
        }
        var located: RecordContext?
        for reference in typed.references {
            // The rule (three strings to count) is taken only for the rare id not read yet.
            guard !referenceTables[reference.rule].isKnown(reference.id, key: reference.key) else { continue }
            let rule = rules[reference.rule]
            let recordContext = located ?? context()
            located = recordContext
            let pending = PendingReference(rule: rule, id: reference.id, index: reference.index, context: recordContext)
            // The raw record the lane took holds no value: its id is the typed one.
            var location = pending.location
            location.recordID = typed.id
            holdUnsettled(UnsettledReference(pending, at: location))
        }
    }

    /// Brings the id table's slots for the ids of `batch` (records the typed path took, in input
    /// order) into the cache before they are committed one by one (`IDTable.warm`). Changes nothing.
    public func warmIDs(of batch: [TypedPreparation]) {
        // The records of a batch are nearly always of one collection: the others are left cold.
        guard let route = batch.first?.route else { return }
        let table = idTable(for: route.targetCollection)
        warmSink ^= table.warm(batch.lazy.compactMap { $0.route === route ? $0.idKey : nil })
    }
    /// `warmIDs(of:)` for the documents a Firestore layout found in one raw record (a word book
    /// and its thousand words), those of the last document's collection: their probes then find
    /// the slots in the cache as the typed path's batches do.
    private func warmIDs(of documents: [PreparedDocument]) {
        guard let collection = documents.last?.targetCollection else { return }
        let table = idTable(for: collection)
        warmSink ^= table.warm(documents.lazy.compactMap { $0.targetCollection == collection ? $0.id.map(IDTable.Key.init) : nil })
    }
    /// The route `referenceTables` are for (`holdUnknownReferences`); held, so that no other
    /// route takes its address.
    @exclusivity(unchecked) private var referenceTablesRoute: TypedRoute?
    /// The id table of the collection each rule of `referenceTablesRoute` names, by rule.
    @exclusivity(unchecked) private var referenceTables: [IDTable] = []
    /// The slots `warmIDs` read, kept so that the reads are not optimized away.
    @exclusivity(unchecked) private var warmSink: UInt32 = 0

    /// The id table of a collection (the last one asked for is kept at hand: records of one
    /// collection usually come together).
    private func idTable(for collection: String) -> IDTable {
        if let lastIDTable, lastIDCollection == collection { return lastIDTable }
        let table: IDTable
        if let existing = ids[collection] {
            table = existing
        } else {
            table = IDTable()
            ids[collection] = table
        }
        lastIDCollection = collection
        lastIDTable = table
        return table
    }

    /// The location of a record's `/id` as `context.location(of:)` gives it, with `pointer`
    /// mapping it back to the source record.
    private static func idLocation(_ context: RecordContext, _ pointer: (@Sendable (JSONPointer) -> JSONPointer)?) -> SourceLocation {
        var idContext = context
        idContext.sourcePointer = pointer
        return idContext.location(of: idPointer)
    }

    /// The line of the `/id` of a record standing at its own root, as `location(of: /id)` finds
    /// it (the id's position, else the record's, else the record's line), without building the
    /// record's pointer.
    static func idLine(of record: Record) -> Int? {
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

    // MARK: Lightweight mapping

    /// The lightweight copy of an old value into a new type: the members the new type has, by name.
    static func lightweight(_ value: Value, to type: RecordType) -> Value {
        guard case .object(let object) = value else { return value }
        var result = ValueObject()
        result.reserveCapacity(object.count)
        let fields = type.fields
        var hint = 0
        for member in object.members {
            // Members usually come in field order: look where the previous one was found first.
            if hint < fields.count, fields[hint].name == member.key {
                hint += 1
                result.append(member.key, member.value)
                continue
            }
            if let index = fields.firstIndex(where: { $0.name == member.key }) {
                hint = index + 1
                result.append(member.key, member.value)
            }
        }
        return .object(result)
    }

    /// A type's default: null, false, 0, a blank string, an empty list or object.
    static func isDefault(_ value: Value) -> Bool {
        switch value {
        case .null: return true
        case .bool(let flag): return !flag
        case .integer, .double, .number: return value.doubleValue == 0
        case .string(let text): return NotesMigrationPlan.isBlank(text)
        case .array(let items): return items.isEmpty
        case .object(let members): return members.isEmpty
        }
    }
}

/// A locator for a document nested in a raw record, or for a migrated record: finds the field
/// in the source record's shape.
struct MappedLocator: FieldLocating {
    let base: any FieldLocating
    let prefix: JSONPointer
    let map: (@Sendable (JSONPointer) -> JSONPointer)?

    func position(of field: JSONPointer) -> TextPosition? {
        base.position(of: prefix.appending(map?(field) ?? field))
    }
}
