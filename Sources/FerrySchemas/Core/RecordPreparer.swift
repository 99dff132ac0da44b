import FerryCore
import Foundation

/// The per-record half of `DatasetProcessor`: decodes a raw record, validates it, migrates it and
/// validates the result, without touching anything that spans records. It holds only immutable
/// state, so one preparer can run on several threads at once (`--jobs`, issue 7); the processor's
/// `commit(_:)` then does the cross-record checks (unique ids, references, record indexes) and
/// the reporting, in input order.
public struct RecordPreparer: @unchecked Sendable {
    // @unchecked: every stored property is immutable; the metatypes and the migration closures
    // (`@Sendable`) are safe to share.
    let domain: Domain
    let sourceVersion: Int
    let targetVersion: Int
    let options: ProcessingOptions
    let timeZone: TimeZone
    let plan: any SchemaMigrationPlan.Type
    let sourceSchema: any VersionedSchema.Type
    /// The options records are read with (`scalarsAsText` for CSV and XML, the date strategy).
    public let decodingOptions: DecodingOptions
    /// The stages between the two versions, with their collection renames.
    let stages: [Stage]
    /// Source collection -> its model type (nil entries: unknown collections are looked up).
    let sourceModels: CollectionMap<any CollectionModel.Type>

    struct Stage {
        let stage: MigrationStage
        let toMajor: Int
        let toVersion: any VersionedSchema.Type
        let renames: CollectionMap<String>
        /// Target collection -> its model type in the new version.
        let models: CollectionMap<any CollectionModel.Type>
    }

    init(domain: Domain, sourceVersion: Int, targetVersion: Int, options: ProcessingOptions, timeZone: TimeZone,
        plan: any SchemaMigrationPlan.Type, sourceSchema: any VersionedSchema.Type, decodingOptions: DecodingOptions)
    {
        self.domain = domain
        self.sourceVersion = sourceVersion
        self.targetVersion = targetVersion
        self.options = options
        self.timeZone = timeZone
        self.plan = plan
        self.sourceSchema = sourceSchema
        self.decodingOptions = decodingOptions
        var stages: [Stage] = []
        for stage in plan.stages {
            let from = stage.fromVersion.versionIdentifier.major
            let to = stage.toVersion.versionIdentifier.major
            guard from >= sourceVersion, to <= targetVersion else { continue }
            var models = CollectionMap<any CollectionModel.Type>()
            for model in stage.toVersion.models { models[model.collection] = model }
            stages.append(Stage(stage: stage, toMajor: to, toVersion: stage.toVersion,
                renames: CollectionMap(plan.collectionRenames(toVersion: to)), models: models))
        }
        self.stages = stages
        var sourceModels = CollectionMap<any CollectionModel.Type>()
        for model in sourceSchema.models { sourceModels[model.collection] = model }
        self.sourceModels = sourceModels
    }

    /// Decodes, validates and migrates one raw record (the documents of a Firestore layout each
    /// on their own). Safe to call from any thread.
    public func prepare(_ record: Record) -> PreparedRecord {
        let context = RecordContext(record: record, options: decodingOptions)
        let documents = FirestoreLayout.documents(of: record, context: context, nested: domain == .vocabulary)
        if documents.count == 1 { return PreparedRecord(documents: [prepare(documents[0])]) }
        return PreparedRecord(documents: documents.map { prepare($0) })
    }

    /// The target collection of a source collection, after every stage's renames.
    func targetCollectionName(for sourceCollection: String) -> String {
        var name = sourceCollection
        for stage in stages { name = stage.renames[name] ?? name }
        return name
    }

    /// True when `report` would count an error among `diagnostics` (`--strict` makes lossy
    /// warnings errors).
    func hasErrors(_ diagnostics: [Diagnostic]) -> Bool {
        for diagnostic in diagnostics {
            if diagnostic.severity == .error { return true }
            if options.mode == .strict, diagnostic.severity == .warning, diagnostic.code.rawValue.hasPrefix("lossy-") {
                return true
            }
        }
        return false
    }

    private func prepare(_ document: FirestoreLayout.Document) -> PreparedDocument {
        var diagnostics = document.diagnostics
        let collection = document.collection
        var prepared = PreparedDocument(collection: collection, context: document.context)
        guard let modelType = sourceModels[collection] else {
            prepared.isUnknownCollection = true
            return prepared
        }
        let sourceIndex = document.context.record.location.recordIndex ?? 0

        let model = modelType.init(value: document.value, at: document.context, diagnostics: &diagnostics)
        prepared.decodeDiagnostics = diagnostics
        let targetCollection = targetCollectionName(for: collection)
        prepared.targetCollection = targetCollection
        if case .string(let id)? = document.value.objectValue?["id"], !id.isEmpty {
            prepared.id = id
        }
        prepared.references = references(document.value, collection: targetCollection, context: document.context)
        guard !hasErrors(diagnostics) else { return prepared }

        // The canonical value feeds the stages and the output; with neither, it is not built.
        var value = stages.isEmpty && !options.needsOutputValues ? Value.null : model.value
        var currentCollection = collection
        var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? = nil
        var targetModel: any CollectionModel = model

        for stage in stages {
            let to = stage.toMajor
            let newCollection = stage.renames[currentCollection] ?? currentCollection
            guard let newType = stage.models[newCollection] else {
                prepared.stageDiagnostics.append([.error(.invalidValue,
                    "collection \(currentCollection) has no counterpart in \(domain.rawValue) v\(to)",
                    at: document.context.location())])
                return prepared
            }
            let migration = MigrationContext(options: options, timeZone: timeZone, recordContext: document.context)
            migration.sourceCollection = currentCollection
            migration.targetCollection = newCollection
            migration.recordIndex = sourceIndex
            let old = Record(collection: currentCollection, value: value, location: document.context.location(),
                locator: document.context.record.locator)
            var new = DatasetProcessor.lightweight(value, to: newType.recordType)
            do {
                switch stage.stage {
                case .lightweight:
                    reportLightweightDrops(from: value, to: newType.recordType, context: migration)
                case .custom(_, _, let willMigrate, _):
                    try willMigrate?(old, &new, migration)
                }
            } catch {
                if !migration.hasErrors {
                    migration.error(.invalidValue, "\(error)", at: .root)
                }
            }
            if !migration.diagnostics.isEmpty {
                prepared.stageDiagnostics.append(migration.diagnostics)
                if hasErrors(migration.diagnostics) { return prepared }
            }

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
            if !newDiagnostics.isEmpty {
                prepared.stageDiagnostics.append(newDiagnostics)
                if hasErrors(newDiagnostics) { return prepared }
            }
            value = decoded.value
            if case .custom(_, _, _, let didMigrate?) = stage.stage {
                migration.diagnostics.removeAll()
                do { try didMigrate(old, &value, migration) } catch {
                    if !migration.hasErrors {
                        migration.error(.invalidValue, "\(error)", at: .root)
                    }
                }
                if !migration.diagnostics.isEmpty {
                    prepared.stageDiagnostics.append(migration.diagnostics)
                    if hasErrors(migration.diagnostics) { return prepared }
                }
            }
            targetModel = decoded
            currentCollection = newCollection
        }

        var result = PreparedDocument.Result(value: value, collection: currentCollection, sourcePointer: sourcePointer)
        if let id = targetModel.recordID, document.value.objectValue?["id"]?.stringValue?.isEmpty ?? true {
            result.derivedID = id
        }
        if sourceVersion == targetVersion, domain == .petStory, options.media != nil {
            result.mediaDiagnostics = checkMediaPaths(targetModel, context: document.context)
        }
        prepared.result = result
        return prepared
    }

    /// The references a record makes, as read, resolved when the processor finishes: a story's
    /// `taggedMemberIds` name members (both versions), a V2 word's `wordBookID` names a word book.
    private func references(_ value: Value, collection: String, context: RecordContext) -> [PendingReference] {
        guard collection == "stories" || collection == "words", let object = value.objectValue else { return [] }
        var references: [PendingReference] = []
        if collection == "stories", let tagged = object["taggedMemberIds"]?.arrayValue {
            for (index, member) in tagged.enumerated() {
                guard let id = member.stringValue else { continue }
                references.append(PendingReference(collection: "members", id: id,
                    location: context.location(of: JSONPointer(tokens: ["taggedMemberIds", String(index)])),
                    message: "taggedMemberIds[\(index)] \(quoted: id) names no member of the dataset"))
            }
        }
        if collection == "words", targetVersion == 2, let bookID = object["wordBookID"]?.stringValue, !bookID.isEmpty {
            references.append(PendingReference(collection: "wordBooks", id: bookID,
                location: context.location(of: "/wordBookID"),
                message: "wordBookID \(quoted: bookID) names no word book of the dataset"))
        }
        return references
    }

    /// With a media catalog, every V2 media path must name a file (`missing-media`), and every V1
    /// story media id one file (`checkMediaIDs`). A story item of
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
        if let story = model as? PetStoryV1.Story { diagnostics += checkMediaIDs(of: story, catalog: catalog, context: context) }
        for (path, field, notExported) in paths {
            var stem = path
            if let slash = stem.lastIndex(of: "/"), let dot = stem.lastIndex(of: "."), dot > slash {
                stem = String(stem[..<dot])
            }
            if stem.hasPrefix("media/") { stem.removeFirst(6) }
            if !catalog.files(withStem: stem).contains(path) {
                let message = "\(field.description.dropFirst()) names \(quoted: path), which is not in the bundle"
                var location = context.location(of: field)
                if let id = model.recordID { location.recordID = id }
                diagnostics.append(notExported
                    ? .warning(.mediaNotFound, message + " (kind unknown: not exported)", at: location)
                    : .error(.missingMedia, message, at: location))
            }
        }
        return diagnostics
    }

    /// A V1 story's media ids, checked as the migration finds their files
    /// (`PetStoryMigrationPlan`): no file is `missing-media`, several are `invalid-value`, with the
    /// migration's messages, so that validating a V1 folder or bundle finds what migrating it would.
    private func checkMediaIDs(of story: PetStoryV1.Story, catalog: any MediaCatalog, context: RecordContext) -> [Diagnostic] {
        // No story media at all: a bundle of a lone JSON export, whose media were never exported.
        guard catalog.holdsStoryMedia else { return [] }
        var diagnostics: [Diagnostic] = []
        for (index, mediaID) in story.mediaContentIds.enumerated() {
            let stem = "Stories/\(story.id)/\(mediaID)"
            let files = catalog.files(withStem: stem).sorted()
            guard files.count != 1 else { continue }
            var location = context.location(of: JSONPointer(tokens: ["mediaContentIds", String(index)]))
            location.recordID = story.id
            diagnostics.append(files.isEmpty
                ? .error(.missingMedia, "no file for media \(quoted: mediaID) (\(DiagnosticText.quoted(stem + ".*")))", at: location)
                : .error(.invalidValue,
                    "\(files.count) files for media \(quoted: mediaID): \(files.map(DiagnosticText.quoted).joined(separator: ", "))", at: location))
        }
        return diagnostics
    }

    private func reportLightweightDrops(from value: Value, to type: RecordType, context: MigrationContext) {
        guard case .object(let object) = value else { return }
        for member in object.members where type.field(named: member.key) == nil && !DatasetProcessor.isDefault(member.value) {
            context.warning(.lossyDrop,
                "\(member.key) has no place in \(type.name); dropped",
                at: JSONPointer(tokens: [member.key]))
        }
    }
}

/// A reference a record makes, resolved when the processor finishes.
struct PendingReference: Sendable {
    var collection: String
    var id: String
    var location: SourceLocation
    var message: String
}

/// What `RecordPreparer.prepare(_:)` found for one raw record, for `DatasetProcessor.commit(_:)`.
public struct PreparedRecord: Sendable {
    let documents: [PreparedDocument]
}

/// One document of a prepared record: its decode problems, its id and references, and the
/// problems and result of each migration stage up to the first that failed.
struct PreparedDocument: Sendable {
    struct Result: Sendable {
        var value: Value
        var collection: String
        var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?
        /// The id a stage derived (notes without one), checked for uniqueness on commit.
        var derivedID: String?
        var mediaDiagnostics: [Diagnostic] = []
    }

    var collection: String
    var context: RecordContext
    var isUnknownCollection = false
    var decodeDiagnostics: [Diagnostic] = []
    var targetCollection = ""
    /// The record's own non-empty string id.
    var id: String?
    var references: [PendingReference] = []
    /// Each stage's problems in the order found; the last batch with an error ends the record.
    var stageDiagnostics: [[Diagnostic]] = []
    /// The migrated record, nil when the decode or a stage failed.
    var result: Result?

    init(collection: String, context: RecordContext) {
        self.collection = collection
        self.context = context
    }
}
