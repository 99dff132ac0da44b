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
    /// What the domain is (its assumptions, media).
    let definition: any DomainDefinition.Type
    let targetVersionedSchema: any VersionedSchema.Type
    let decodingOptions: DecodingOptions

    /// The decode/validate/migrate half of the work, which needs no cross-record state.
    public let preparer: RecordPreparer

    // The state below is read and written by every commit, on the one thread the processor runs
    // on, and no access to it overlaps another: `@exclusivity(unchecked)` spares the runtime
    // check each access would make (several a record on the thread that keeps `--jobs` in order).

    /// Target collection -> records returned so far.
    @exclusivity(unchecked) var counts = KeyedCounter()
    /// Target collection -> ids seen, where each was first seen (valid records), and which were
    /// read (references resolve against these; derived ids are not among them).
    @exclusivity(unchecked) var ids: [String: IDTable] = [:]
    /// The collection and table `idTable(for:)` returned last; not counted, as `ids` holds every
    /// table for the processor's life.
    @exclusivity(unchecked) var lastIDCollection: String?
    @exclusivity(unchecked) var lastIDTable: Unmanaged<IDTable>?
    /// References to ids not read when their record was committed, located then (so that no
    /// record is held): checked again after the last record.
    @exclusivity(unchecked) private var pendingReferences: [UnsettledReference] = []
    /// The ids read but not kept whose referring records were said to be dropped (`--lenient`).
    @exclusivity(unchecked) private var reportedDrops: Set<ReferencedID> = []
    /// The records the writer left out after their commit (`leftOut`).
    @exclusivity(unchecked) var leftOutIDs: Set<ReferencedID> = []
    /// Set by a caller that holds back the records naming ids not read yet (`--lenient`: a
    /// record kept must have every reference settled). Then `unresolvedReferences` lists them for
    /// each record `commit` returns, and an id counts as read (`isRead`) only once its record is
    /// kept, so a record naming one that was dropped is dropped too. Off: nothing is listed.
    @exclusivity(unchecked) public var holdsUnsettledReferences = false
    /// True when some record of the source version names records of another collection
    /// (`DomainDefinition.references`): only then can a reference be unsettled.
    public var makesReferences: Bool { !preparer.referenceRules.isEmpty }
    /// With `holdsUnsettledReferences`, one list per record the last `commit` returned: the ids
    /// it names that were not read then (empty for most records).
    @exclusivity(unchecked) public private(set) var unresolvedReferences: [[ReferencedID]] = []
    @exclusivity(unchecked) private var reportedCollections: Set<String> = []
    @exclusivity(unchecked) private var reportedNotes: Set<String> = []
    @exclusivity(unchecked) var timeZoneNoted = false

    /// The route `referenceTables` are for (`holdUnknownReferences`); held, so that no other
    /// route takes its address.
    @exclusivity(unchecked) var referenceTablesRoute: TypedRoute?
    /// The id table of the collection each rule of `referenceTablesRoute` names, by rule; not
    /// counted, as `ids` holds every table for the processor's life.
    @exclusivity(unchecked) var referenceTables: [Unmanaged<IDTable>] = []
    /// The slots `warmIDs` read, kept so that the reads are not optimized away.
    @exclusivity(unchecked) var warmSink: UInt32 = 0
    /// The keys `warmIDs` gathers for one table, kept for the next batch (no allocation each).
    @exclusivity(unchecked) var warmKeys: [IDTable.Key] = []
    /// The contexts of the documents of the nested record whose taken documents were committed
    /// last, found when one of them needed its context (a diagnostic): the record is parsed once
    /// for all its documents.
    @exclusivity(unchecked) var nestedContexts: (source: any TakenRecordSource, contexts: [RecordContext])?
    /// The documents committed so far, valid or not: one a record, each of a Firestore export's
    /// documents on its own (a raw record can hold several).
    @exclusivity(unchecked) public internal(set) var documentsCommitted = 0
    /// Set by a caller that reads the returned records again with `namesDocumentsBySource` (the
    /// references a filter left dangling): a record returned for a document keyed by id or nested
    /// in its raw record then carries where that document stands (`DocumentSourceLocator`).
    @exclusivity(unchecked) public var marksDocumentSources = false

    /// - Throws: FerryError(.unknownVersion) for an unknown version or targetVersion < source version (no down-migration);
    ///   FerryError(.usage) for a time zone that is not an IANA name (`IANATimeZone`).
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
        let timeZone = try IANATimeZone.resolve(options.timeZone)
        self.domain = domain
        self.sourceVersion = sourceVersion
        self.targetVersion = targetVersion
        self.options = options
        self.log = log
        self.definition = definition
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
        documentsCommitted += prepared.documents.count
        if prepared.documents.count > 1 { warmIDs(of: prepared.documents) }
        var output: [Record] = []
        if holdsUnsettledReferences { clearUnresolved() }
        // Through a buffer: each document is read in place in the array, not copied out of it.
        prepared.documents.withUnsafeBufferPointer { documents in
            for index in documents.indices {
                let pendingBefore = pendingReferences.count
                guard let result = commit(documents[index]) else { continue }
                output.append(result)
                if holdsUnsettledReferences { listUnresolved(since: pendingBefore) }
            }
        }
        return output
    }

    /// How many references wait for ids not read yet: what `listUnresolved(since:)` starts from.
    var pendingReferenceCount: Int { pendingReferences.count }

    /// Lists the references held since `start` (`pendingReferenceCount` before a record's commit)
    /// as the record's entry of `unresolvedReferences`.
    func listUnresolved(since start: Int) {
        unresolvedReferences.append(pendingReferences[start...].map { ReferencedID(collection: $0.collection, id: $0.id) })
    }

    /// Empties `unresolvedReferences` before a commit lists its records'.
    func clearUnresolved() {
        unresolvedReferences.removeAll(keepingCapacity: true)
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

    /// How a record of no collection is named in the `unknown collection` error.
    private static func noCollection(_ value: Value) -> String {
        value.objectValue?["$collection"] == nil ? #"(none: the record has no "$collection")"# : #"(none: its "$collection" is not a string)"#
    }

    /// True when `record` (one `commit` returned, committed with the record it names or after
    /// it) names a record the writer left out (`leftOut`): it is not to be written either. The
    /// `lossy-drop` warning of the first record naming that one is reported, as for a record with
    /// errors.
    public func namesLeftOut(_ record: Record) -> Bool {
        guard !leftOutIDs.isEmpty, let collection = record.collection else { return false }
        let references = preparer.references(record.value, collection: collection,
            context: RecordContext(record: record, options: decodingOptions))
        guard let named = references.first(where: { leftOutIDs.contains(ReferencedID(collection: $0.collection, id: $0.id)) })
        else { return false }
        reportDropped(UnsettledReference(named, at: named.location))
        return true
    }

    /// True when a reference held for `finish()` (its id not read when its record was committed)
    /// names `id` of `collection`.
    func holdsReference(to id: String, in collection: String) -> Bool {
        pendingReferences.contains { $0.id == id && $0.collection == collection }
    }

    /// Cross-record checks after the last record: duplicate ids, dangling references; reports to the log.
    /// - Parameter checked: for an input read in part (`ferry head` stopped early), true for the
    ///   ids that were read (another processor's `isRead`): a reference to any other names a
    ///   record that was never read, which may exist, and is not reported. Nil checks them all.
    public func finish(checking checked: ((ReferencedID) -> Bool)? = nil) {
        for reference in pendingReferences where !(ids[reference.collection]?.isKnown(reference.id) ?? false) {
            if let checked, !checked(ReferencedID(collection: reference.collection, id: reference.id)) { continue }
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
    func holdUnsettled(_ reference: UnsettledReference, dropsOnlyForIt: Bool = true) {
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

    /// Another version of `domain` whose schema has `collection`, if one has it.
    private static func version(holding collection: String, of domain: Domain, besides version: Int) -> Int? {
        guard let plan = domain.definition?.migrationPlan else { return nil }
        for schema in plan.schemas {
            let candidate = schema.versionIdentifier.major
            guard candidate != version, let dataset = DatasetSchema.schema(for: domain, version: candidate) else { continue }
            if dataset.collectionNames.contains(collection) { return candidate }
        }
        return nil
    }

    private func commit(_ document: PreparedDocument) -> Record? {
        let collection = document.collection
        if document.isUnknownCollection {
            // A line of JSON Lines that is not an object names no collection: its own problem,
            // said for each such line (not once, as for the records of a collection not known).
            if collection.isEmpty, document.context.record.value.objectValue == nil {
                let value = document.context.record.value
                report([.error(.typeError, "record: expected an object, found \(value.shortDescription)", at: document.context.location())])
                return nil
            }
            if reportedCollections.insert(collection).inserted {
                // A collection of another version of the domain: most likely the version is wrong.
                let other = Self.version(holding: collection, of: domain, besides: sourceVersion)
                report([.error(.invalidValue,
                    "unknown collection \(collection.isEmpty ? Self.noCollection(document.context.record.value) : collection) for domain \(domain.rawValue) v\(sourceVersion) "
                    + "(its collections: \(preparer.sourceCollections.joined(separator: ", "))); its records are skipped"
                    + (other.map { "; \(collection) is a collection of \(domain.rawValue) v\($0): is the input at version \($0)?" } ?? ""),
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
                context: document.context, pointer: nil, plainLine: document.idLine, idLocation: document.idLocation)
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
        if marksDocumentSources, !Self.isPlain(document.context) {
            locator = DocumentSourceLocator(base: locator, document: document.context)
        }
        return Record(collection: result.collection, value: result.value, location: location, locator: locator)
    }

    // MARK: Reporting

    /// Reports diagnostics (strict mode turns lossy warnings into errors; assumption notes and
    /// warnings are reported once per run). Returns true when any is an error.
    @discardableResult
    func report(_ diagnostics: [Diagnostic]) -> Bool {
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

    func noteTimeZoneIfNeeded(collection: String, context: @autoclosure () -> RecordContext) {
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
