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
    let sourceSchema: any VersionedSchema.Type
    let targetVersionedSchema: any VersionedSchema.Type
    let decodingOptions: DecodingOptions

    /// Target collection -> records returned so far.
    private var counts: [String: Int] = [:]
    /// Target collection -> id -> where it was first seen (valid records).
    private var firstSeen: [String: [String: FirstSeen]] = [:]
    /// Target collection -> every id read, valid or not (references resolve against these).
    private var knownIDs: [String: Set<String>] = [:]
    private var pendingReferences: [PendingReference] = []
    private var reportedCollections: Set<String> = []
    private var reportedNotes: Set<String> = []
    private var timeZoneNoted = false

    private struct FirstSeen {
        var line: Int?
        var field: JSONPointer?
    }

    private struct PendingReference {
        var collection: String
        var id: String
        var location: SourceLocation
        var message: String
    }

    /// - Throws: FerryError(.unknownVersion) for an unknown version or targetVersion < source version (no down-migration);
    ///   FerryError(.usage) for a time zone that is not an IANA name.
    public init(domain: Domain, sourceVersion: Int, targetVersion: Int, options: ProcessingOptions, log: DiagnosticLog) throws {
        let plan = DatasetProcessor.plan(for: domain)
        guard let source = plan.schema(version: sourceVersion) else {
            throw FerryError(.unknownVersion, "\(domain.rawValue) has no schema version \(sourceVersion) (known: 1, 2)")
        }
        guard let target = plan.schema(version: targetVersion) else {
            throw FerryError(.unknownVersion, "\(domain.rawValue) has no schema version \(targetVersion) (known: 1, 2)")
        }
        guard targetVersion >= sourceVersion else {
            throw FerryError(.unknownVersion,
                "cannot migrate \(domain.rawValue) down from version \(sourceVersion) to \(targetVersion) (no down-migration)")
        }
        guard let timeZone = TimeZone(identifier: options.timeZone) else {
            throw FerryError(.usage, "unknown time zone \"\(options.timeZone)\" (an IANA name such as UTC or Asia/Tokyo)")
        }
        self.domain = domain
        self.sourceVersion = sourceVersion
        self.targetVersion = targetVersion
        self.options = options
        self.log = log
        self.timeZone = timeZone
        self.plan = plan
        self.sourceSchema = source
        self.targetVersionedSchema = target
        self.decodingOptions = DecodingOptions(
            dateStrategy: options.dateStrategy, scalarsAsText: options.scalarsAsText, timeZone: timeZone,
            timeZoneName: options.timeZone)
    }

    /// The migration plan of a domain.
    public static func plan(for domain: Domain) -> any SchemaMigrationPlan.Type {
        switch domain {
        case .notes: return NotesMigrationPlan.self
        case .petStory: return PetStoryMigrationPlan.self
        case .vocabulary: return VocabularyMigrationPlan.self
        }
    }

    /// The schema of the records `process` returns.
    public var targetSchema: DatasetSchema { targetVersionedSchema.datasetSchema }

    /// Decodes one raw record of the source version, validates it, migrates it to the target version, validates the result,
    /// and returns the canonical target-version records (values in canonical field order, collection = target collection name).
    /// Normalizes Firestore layouts (one raw record may yield several). Returns [] for an invalid record; every problem goes to the log with its location.
    public func process(_ record: Record) -> [Record] {
        let context = RecordContext(record: record, options: decodingOptions)
        let documents = FirestoreLayout.documents(of: record, context: context, nested: domain == .vocabulary)
        var output: [Record] = []
        for document in documents {
            if let result = process(document) { output.append(result) }
        }
        return output
    }

    /// Cross-record checks after the last record: duplicate ids, dangling references; reports to the log.
    public func finish() {
        for reference in pendingReferences where !(knownIDs[reference.collection]?.contains(reference.id) ?? false) {
            log.report(.error(.danglingReference, reference.message, at: reference.location))
        }
        pendingReferences.removeAll()
    }

    // MARK: One document

    private func process(_ document: FirestoreLayout.Document) -> Record? {
        var diagnostics = document.diagnostics
        let collection = document.collection
        guard let modelType = sourceSchema.model(forCollection: collection) else {
            if reportedCollections.insert(collection).inserted {
                report([.error(.invalidValue,
                    "unknown collection \(collection.isEmpty ? "(none)" : collection) for domain \(domain.rawValue) v\(sourceVersion); its records are skipped",
                    at: document.context.location())])
            }
            return nil
        }
        let sourceIndex = document.context.record.location.recordIndex ?? 0
        noteTimeZoneIfNeeded(collection: collection, document: document)

        let model = modelType.init(value: document.value, at: document.context, diagnostics: &diagnostics)
        let hasErrors = report(diagnostics)
        // Identity and references are checked on every record as read, valid or not, so a record
        // with other problems still has its duplicate id and its dangling references reported
        // (validation collects every problem), and references to it do not dangle too.
        let targetCollection = targetCollectionName(for: collection)
        var isDuplicate = false
        if case .string(let id)? = document.value.objectValue?["id"], !id.isEmpty {
            knownIDs[targetCollection, default: []].insert(id)
            isDuplicate = !checkUnique(id: id, collection: targetCollection, context: document.context, pointer: nil)
        }
        collectReferences(document.value, collection: targetCollection, context: document.context)
        guard !hasErrors, !isDuplicate else { return nil }

        var value = model.value
        var currentCollection = collection
        var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? = nil
        var targetModel: any CollectionModel = model

        for stage in plan.stages {
            let from = stage.fromVersion.versionIdentifier.major
            let to = stage.toVersion.versionIdentifier.major
            guard from >= sourceVersion, to <= targetVersion else { continue }
            let newCollection = plan.collectionRenames(toVersion: to)[currentCollection] ?? currentCollection
            guard let newType = stage.toVersion.model(forCollection: newCollection) else {
                report([.error(.invalidValue, "collection \(currentCollection) has no counterpart in \(domain.rawValue) v\(to)",
                    at: document.context.location())])
                return nil
            }
            let migration = MigrationContext(options: options, timeZone: timeZone, recordContext: document.context)
            migration.sourceCollection = currentCollection
            migration.targetCollection = newCollection
            migration.recordLabel = document.label
            migration.recordIndex = sourceIndex
            let old = Record(collection: currentCollection, value: value, location: document.context.location(),
                locator: document.context.record.locator)
            var new = DatasetProcessor.lightweight(value, to: newType.recordType)
            do {
                switch stage {
                case .lightweight:
                    reportLightweightDrops(from: value, to: newType.recordType, context: migration)
                case .custom(_, _, let willMigrate, _):
                    try willMigrate?(old, &new, migration)
                }
            } catch {
                if !migration.hasErrors {
                    migration.error(.invalidValue, "\(migration.recordName(id: nil)): \(error)", at: .root)
                }
            }
            guard !report(migration.diagnostics) else { return nil }

            let plan = self.plan
            let previous = sourcePointer
            let mapped: @Sendable (JSONPointer) -> JSONPointer = { pointer in
                let back = plan.sourcePointer(for: pointer, inCollection: newCollection, toVersion: to)
                return previous?(back) ?? back
            }
            sourcePointer = mapped
            var newContext = document.context
            newContext.sourcePointer = mapped
            var newDiagnostics: [Diagnostic] = []
            let decoded = newType.init(value: new, at: newContext, diagnostics: &newDiagnostics)
            guard !report(newDiagnostics) else { return nil }
            value = decoded.value
            if case .custom(_, _, _, let didMigrate?) = stage {
                migration.diagnostics.removeAll()
                do { try didMigrate(old, &value, migration) } catch {
                    if !migration.hasErrors {
                        migration.error(.invalidValue, "\(migration.recordName(id: nil)): \(error)", at: .root)
                    }
                }
                guard !report(migration.diagnostics) else { return nil }
            }
            targetModel = decoded
            currentCollection = newCollection
        }

        if let id = targetModel.recordID, document.value.objectValue?["id"]?.stringValue?.isEmpty ?? true,
           !checkUnique(id: id, collection: currentCollection, context: document.context, pointer: sourcePointer)
        {
            return nil  // a derived id (notes without one) that collides
        }
        if sourceVersion == targetVersion, targetVersion == 2, domain == .petStory, options.media != nil {
            guard !report(checkMediaPaths(targetModel, context: document.context)) else { return nil }
        }

        var location = document.context.location()
        location.field = nil
        location.collection = currentCollection
        let index = counts[currentCollection, default: 0]
        counts[currentCollection] = index + 1
        location.recordIndex = index
        var locator = document.context.record.locator
        if let base = locator, !(document.context.path.tokens.isEmpty && sourcePointer == nil) {
            locator = MappedLocator(base: base, prefix: document.context.path, map: sourcePointer)
        }
        return Record(collection: currentCollection, value: value, location: location, locator: locator)
    }

    private func targetCollectionName(for sourceCollection: String) -> String {
        var name = sourceCollection
        for stage in plan.stages {
            let to = stage.toVersion.versionIdentifier.major
            guard stage.fromVersion.versionIdentifier.major >= sourceVersion, to <= targetVersion else { continue }
            name = plan.collectionRenames(toVersion: to)[name] ?? name
        }
        return name
    }

    // MARK: Reporting

    /// Reports diagnostics (strict mode turns lossy warnings into errors; assumption notes are
    /// reported once per run). Returns true when any is an error.
    @discardableResult
    private func report(_ diagnostics: [Diagnostic]) -> Bool {
        var hasError = false
        for var diagnostic in diagnostics {
            if diagnostic.severity == .note, diagnostic.code == .assumption {
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

    private func noteTimeZoneIfNeeded(collection: String, document: FirestoreLayout.Document) {
        guard domain == .petStory, sourceVersion == 1, targetVersion == 2, collection == "members", !timeZoneNoted else { return }
        timeZoneNoted = true
        report([.note(.assumption,
            "calendar days (birthDate, since) are taken in time zone \(options.timeZone) (--time-zone)",
            at: document.context.location())])
    }

    // MARK: Integrity

    /// Records an id; a second record with it is a `duplicate-id` error. Returns false for a duplicate.
    private func checkUnique(id: String, collection: String, context: RecordContext,
        pointer: (@Sendable (JSONPointer) -> JSONPointer)?) -> Bool
    {
        var idContext = context
        idContext.sourcePointer = pointer
        let location = idContext.location(of: "/id")
        if let first = firstSeen[collection]?[id] {
            var message = "duplicate id \"\(id)\" in \(collection): first at"
            if let line = first.line { message += " line \(line)" }
            if let field = first.field { message += (first.line == nil ? " " : " (") + field.description + (first.line == nil ? "" : ")") }
            report([.error(.duplicateID, message, at: location)])
            return false
        }
        var recordPointer = location.field
        if recordPointer?.last == "id" { recordPointer?.tokens.removeLast() }
        firstSeen[collection, default: [:]][id] = FirstSeen(line: location.line, field: recordPointer)
        return true
    }

    /// Keeps the references a record makes, as read, resolved in `finish()`: a story's
    /// `taggedMemberIds` name members (both versions), a V2 word's `wordBookID` names a word book.
    private func collectReferences(_ value: Value, collection: String, context: RecordContext) {
        guard let object = value.objectValue else { return }
        if collection == "stories", let tagged = object["taggedMemberIds"]?.arrayValue {
            for (index, member) in tagged.enumerated() {
                guard let id = member.stringValue else { continue }
                pendingReferences.append(PendingReference(collection: "members", id: id,
                    location: context.location(of: JSONPointer(tokens: ["taggedMemberIds", String(index)])),
                    message: "taggedMemberIds[\(index)] \"\(id)\" names no member of the dataset"))
            }
        }
        if collection == "words", targetVersion == 2, let bookID = object["wordBookID"]?.stringValue, !bookID.isEmpty {
            pendingReferences.append(PendingReference(collection: "wordBooks", id: bookID,
                location: context.location(of: "/wordBookID"),
                message: "wordBookID \"\(bookID)\" names no word book of the dataset"))
        }
    }

    /// With a media catalog, every V2 media path must name a file (`missing-media`). A story item of
    /// kind `unknown` without a file is the mark a lone JSON export's migration leaves for media that
    /// were not exported (SCHEMAS.md "V1 -> V2 migration"): it stays a `media-not-found` warning.
    private func checkMediaPaths(_ model: any CollectionModel, context: RecordContext) -> [Diagnostic] {
        guard let catalog = options.media else { return [] }
        var paths: [(String, JSONPointer, notExported: Bool)] = []
        if let profile = model as? PetStoryV2.Profile, let image = profile.image { paths.append((image.path, "/image/path", false)) }
        if let member = model as? PetStoryV2.FamilyMember, let image = member.image { paths.append((image.path, "/image/path", false)) }
        if let story = model as? PetStoryV2.Story {
            for (index, item) in story.media.enumerated() {
                paths.append((item.path, JSONPointer(tokens: ["media", String(index), "path"]), item.kind == .unknown))
            }
        }
        var diagnostics: [Diagnostic] = []
        for (path, field, notExported) in paths {
            var stem = path
            if let slash = stem.lastIndex(of: "/"), let dot = stem.lastIndex(of: "."), dot > slash {
                stem = String(stem[..<dot])
            }
            if stem.hasPrefix("media/") { stem.removeFirst(6) }
            if !catalog.files(withStem: stem).contains(path) {
                let owner = model.recordID.map { "\(type(of: model).recordType.name) \"\($0)\"" } ?? "record"
                let message = "\(owner): \(field.description.dropFirst()) names \(path), which is not in the bundle"
                diagnostics.append(notExported
                    ? .warning(.mediaNotFound, message + " (kind unknown: not exported)", at: context.location(of: field))
                    : .error(.missingMedia, message, at: context.location(of: field)))
            }
        }
        return diagnostics
    }

    // MARK: Lightweight mapping

    /// The lightweight copy of an old value into a new type: the members the new type has, by name.
    static func lightweight(_ value: Value, to type: RecordType) -> Value {
        guard case .object(let object) = value else { return value }
        var result = ValueObject()
        result.reserveCapacity(object.count)
        for member in object.members where type.field(named: member.key) != nil {
            result.append(member.key, member.value)
        }
        return .object(result)
    }

    private func reportLightweightDrops(from value: Value, to type: RecordType, context: MigrationContext) {
        guard case .object(let object) = value else { return }
        for member in object.members where type.field(named: member.key) == nil && !DatasetProcessor.isDefault(member.value) {
            context.warning(.lossyDrop,
                "\(context.recordName(id: object["id"]?.stringValue)): \(member.key) has no place in \(type.name); dropped",
                at: JSONPointer(tokens: [member.key]))
        }
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
