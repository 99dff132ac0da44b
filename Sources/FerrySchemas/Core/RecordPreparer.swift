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
    /// What the domain is (Firestore layouts, media).
    let definition: any DomainDefinition.Type
    /// The fields of each collection (at the target version) that name other records, read once;
    /// in objects, which the general path's records borrow (`references(_:collection:context:)`).
    let referenceRules: CollectionMap<ReferenceRuleList>
    /// `definition.hasFirestoreLayouts`, read once.
    public let hasFirestoreLayouts: Bool
    let sourceVersion: Int
    let targetVersion: Int
    let options: ProcessingOptions
    let sourceSchema: any VersionedSchema.Type
    /// The options records are read with (`scalarsAsText` for CSV and XML, the date strategy).
    public let decodingOptions: DecodingOptions
    /// The stages between the two versions, with their collection renames.
    let stages: [Stage]
    /// The stages from the target version to the latest, run only for their checks when
    /// `options.checksMigration` is set (empty otherwise): the migration's errors are the data's.
    let checkStages: [Stage]
    /// Source collection -> its model type (nil entries: unknown collections are looked up).
    let sourceModels: CollectionMap<any CollectionModel.Type>

    struct Stage {
        let toMajor: Int
        /// Source collection -> its name in the new version.
        let renames: CollectionMap<String>
        /// Target collection -> its model type in the new version.
        let models: CollectionMap<any CollectionModel.Type>
        /// Source collection -> the step that migrates its records (none: lightweight).
        let steps: CollectionMap<Step>

        /// The stage as records go through it with `options`.
        init(_ stage: MigrationStage, options: ProcessingOptions, timeZone: TimeZone) {
            toMajor = stage.toVersion.versionIdentifier.major
            var models = CollectionMap<any CollectionModel.Type>()
            for model in stage.toVersion.models { models[model.collection] = model }
            self.models = models
            renames = CollectionMap(stage.collectionRenames)
            var steps = CollectionMap<Step>()
            for step in stage.steps {
                let environment = MigrationEnvironment(options: options, timeZone: timeZone,
                    sourceCollection: step.sourceModel.collection, targetCollection: step.targetModel.collection)
                steps[step.sourceModel.collection] = Step(migration: step, rules: FieldRulePlan(step.targetModel.recordType),
                                                          environment: environment)
            }
            self.steps = steps
        }
    }

    /// A stage's step for one collection, with the rules of its new model compiled and what its
    /// records share. A class: the records borrow it (`CollectionMap.unretained`), as every
    /// thread of `--jobs` would otherwise count its three references per record.
    final class Step: Sendable {
        let migration: any CollectionMigration
        let rules: FieldRulePlan
        let environment: MigrationEnvironment

        init(migration: any CollectionMigration, rules: FieldRulePlan, environment: MigrationEnvironment) {
            self.migration = migration
            self.rules = rules
            self.environment = environment
        }
    }

    init(domain: Domain, definition: any DomainDefinition.Type, sourceVersion: Int, targetVersion: Int, options: ProcessingOptions, timeZone: TimeZone,
        plan: any SchemaMigrationPlan.Type, sourceSchema: any VersionedSchema.Type, decodingOptions: DecodingOptions)
    {
        self.domain = domain
        self.definition = definition
        self.hasFirestoreLayouts = definition.hasFirestoreLayouts
        var referenceRules: [String: [ReferenceRule]] = [:]
        for collection in DatasetSchema.schema(for: domain, version: targetVersion)?.collectionNames ?? [] {
            let rules = definition.references(collection: collection, version: targetVersion)
            if !rules.isEmpty { referenceRules[collection] = rules }
        }
        self.referenceRules = CollectionMap(referenceRules.mapValues(ReferenceRuleList.init))
        self.sourceVersion = sourceVersion
        self.targetVersion = targetVersion
        self.options = options
        self.sourceSchema = sourceSchema
        self.decodingOptions = decodingOptions
        var stages: [Stage] = []
        var checkStages: [Stage] = []
        // The checks of an older version's migration report its errors only, in the normal mode.
        var checkOptions = options
        checkOptions.mode = .normal
        for stage in plan.stages {
            let from = stage.fromVersion.versionIdentifier.major
            let to = stage.toVersion.versionIdentifier.major
            if from >= sourceVersion, to <= targetVersion {
                stages.append(Stage(stage, options: options, timeZone: timeZone))
            } else if options.checksMigration, from >= targetVersion {
                checkStages.append(Stage(stage, options: checkOptions, timeZone: timeZone))
            }
        }
        self.stages = stages
        self.checkStages = checkStages
        var sourceModels = CollectionMap<any CollectionModel.Type>()
        for model in sourceSchema.models { sourceModels[model.collection] = model }
        self.sourceModels = sourceModels
    }

    /// Decodes, validates and migrates one raw record (the documents of a Firestore layout each
    /// on their own). Safe to call from any thread.
    public func prepare(_ record: consuming Record) -> PreparedRecord {
        // The context keeps the record; the layout reads it there (no second copy).
        var context = RecordContext(record: record, options: decodingOptions)
        if options.namesDocumentsBySource, let source = context.record.locator as? DocumentSourceLocator {
            context = context.naming(source)
        }
        let documents = FirestoreLayout.documents(of: context.record, context: context, nested: hasFirestoreLayouts)
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
        hasErrors(diagnostics, mode: options.mode)
    }

    func hasErrors(_ diagnostics: [Diagnostic], mode: ProcessingMode) -> Bool {
        for diagnostic in diagnostics {
            if diagnostic.severity == .error { return true }
            if mode == .strict, diagnostic.severity == .warning, diagnostic.code.rawValue.hasPrefix("lossy-") {
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

        let targetCollection = targetCollectionName(for: collection)
        prepared.targetCollection = targetCollection
        if case .string(let id)? = document.value.objectValue?["id"], !id.isEmpty {
            prepared.id = id
            // Found here, on the preparing thread, not by the commit, which runs in order for all.
            if DatasetProcessor.isPlain(document.context) {
                prepared.idLine = .some(DatasetProcessor.idLine(of: document.context.record))
            } else {
                prepared.idLocation = DatasetProcessor.idLocation(document.context, nil)
            }
        }
        prepared.references = references(document.value, collection: targetCollection, context: document.context)
        guard options.checksRecords else {
            prepared.result = PreparedDocument.Result(value: .null, collection: targetCollection)
            return prepared
        }
        let model = modelType.init(value: document.value, at: document.context, diagnostics: &diagnostics)
        prepared.decodeDiagnostics = diagnostics
        guard !hasErrors(diagnostics) else {
            if !checkStages.isEmpty {
                // Validation collects every problem: what the migration would reject in the fields
                // that were read fine is reported beside the record's own errors.
                prepared.decodeDiagnostics += migrationErrors(document, model: model, through: checkStages, mode: .normal,
                    besides: diagnostics)
            } else if !stages.isEmpty {
                // So does a migration: the record is not written, but what its stages reject in
                // the other fields is said as validation says it (in the run's mode: `--lenient`
                // maps what it can, so those are warnings, and only errors are said here).
                prepared.decodeDiagnostics += migrationErrors(document, model: model, through: stages, mode: options.mode,
                    besides: diagnostics)
            }
            return prepared
        }

        if !checkStages.isEmpty {
            // Validation of an older version: what the migration would reject is an error of the
            // data now (its warnings are the migration's business, so only errors are kept).
            var checks: [[Diagnostic]] = []
            _ = migrate(document, model: model, through: checkStages, mode: .normal, diagnostics: &checks)
            let errors = checks.joined().filter { $0.severity == .error }
            if !errors.isEmpty {
                prepared.stageDiagnostics.append(errors)
                return prepared
            }
        }
        guard let migrated = migrate(document, model: model, through: stages, mode: options.mode,
            diagnostics: &prepared.stageDiagnostics)
        else { return prepared }
        let (targetModel, currentCollection, sourcePointer) = migrated
        // The canonical value feeds the output; with no stage and no output, it is not built.
        let value = stages.isEmpty && !options.needsOutputValues ? Value.null : targetModel.value

        var result = PreparedDocument.Result(value: value, collection: currentCollection, sourcePointer: sourcePointer)
        if let id = targetModel.recordID, document.value.objectValue?["id"]?.stringValue?.isEmpty ?? true {
            result.derivedID = id
        }
        if sourceVersion == targetVersion, options.media != nil {
            result.mediaDiagnostics = checkMediaPaths(targetModel, context: document.context)
        }
        prepared.result = result
        return prepared
    }

    /// The errors `stages` (a validation's `checkStages`, a migration's own) find in a record that
    /// has errors of its own (`decodeErrors`), left out where they could stem from those: an error about a field
    /// that had one (or holds or lies inside one), a check across fields that compared such a
    /// field (`Diagnostic.comparedFields`), and any about the record as a whole. The model read
    /// with errors holds stand-ins in the bad fields, so only checks of the other fields alone
    /// say something about the data.
    private func migrationErrors(_ document: FirestoreLayout.Document, model: any CollectionModel, through stages: [Stage],
        mode: ProcessingMode, besides decodeErrors: [Diagnostic]) -> [Diagnostic]
    {
        var checks: [[Diagnostic]] = []
        _ = migrate(document, model: model, through: stages, mode: mode, diagnostics: &checks)
        let record = document.context.location().field?.tokens ?? []
        let bad = decodeErrors.filter { $0.severity == .error }.map { $0.location.field?.tokens ?? record }
        func related(_ a: [String], _ b: [String]) -> Bool {
            a.count <= b.count ? b.starts(with: a) : a.starts(with: b)
        }
        return checks.joined().filter { check in
            guard check.severity == .error, let field = check.location.field?.tokens, field.count > record.count else { return false }
            let compared = check.comparedFields.map(\.tokens)
            return !bad.contains { badField in related(badField, field) || compared.contains { related(badField, $0) } }
        }
    }

    /// Runs `stages` on a decoded record: each stage's step (or, for a collection without one, the
    /// lightweight mapping) makes the new model, whose rules are then checked. Each stage's
    /// problems are appended to `diagnostics`; nil after the first stage with an error (`mode`
    /// decides whether lossy warnings are). Returns the model, collection and pointer map after
    /// the stages.
    private func migrate(_ document: FirestoreLayout.Document, model: any CollectionModel, through stages: [Stage],
        mode: ProcessingMode, diagnostics: inout [[Diagnostic]])
        -> (any CollectionModel, String, (@Sendable (JSONPointer) -> JSONPointer)?)?
    {
        var current: any CollectionModel = model
        var currentCollection = document.collection
        let sourceIndex = document.context.record.location.recordIndex ?? 0
        var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? = nil

        for stage in stages {
            let newCollection = stage.renames[currentCollection] ?? currentCollection
            guard let newType = stage.models[newCollection] else {
                diagnostics.append([.error(.invalidValue,
                    "collection \(currentCollection) has no counterpart in \(domain.rawValue) v\(stage.toMajor)",
                    at: document.context.location())])
                return nil
            }
            // The step borrowed from the stage, which keeps it: its migration, rules and
            // environment are shared by every record, and counting them per record moved their
            // cache lines between the threads of `--jobs`.
            let step = stage.steps.unretained(currentCollection)
            // The step's new model, checked below; or, without a step, the lightweight value.
            var built: (any FieldCodableCollection)? = nil
            var lightweight = Value.null
            var problems: [Diagnostic] = []
            if let step {
                step._withUnsafeGuaranteedRef { step in
                    var context = MigrationContext(unretained: step.environment)
                    context.recordIndex = sourceIndex
                    do { built = try step.migration.migrate(boxed: current, &context) } catch {
                        if !context.hasErrors { context.error(.invalidValue, "\(error)", at: .root) }
                    }
                    problems = context.diagnostics(in: document.context)
                }
            } else {
                let old = current.value
                lightweight = DatasetProcessor.lightweight(old, to: newType.recordType)
                problems = lightweightDrops(from: old, to: newType.recordType, context: document.context)
            }
            if !problems.isEmpty {
                diagnostics.append(problems)
                if hasErrors(problems, mode: mode) { return nil }
            }

            // Read apart from the migration's borrow above: kept in a `var` there, the renames
            // were counted twice a record (once more for the closure's capture).
            let renames = step?._withUnsafeGuaranteedRef { $0.migration.pointerRenames } ?? []
            let previous = sourcePointer
            let mapped: @Sendable (JSONPointer) -> JSONPointer = { pointer in
                let back = PointerRename.apply(renames, to: pointer)
                return previous?(back) ?? back
            }
            sourcePointer = mapped
            if let built, let step, step._withUnsafeGuaranteedRef({ $0.environment.passesPlainly(built, rules: $0.rules) }) {
                current = built
            } else {
                // A rule broken (or a lightweight value): the new record is read in full, which
                // reports every problem where the old record holds the value.
                var newContext = document.context
                newContext.sourcePointer = mapped
                var newDiagnostics: [Diagnostic] = []
                let decoded = newType.init(value: built?.value ?? lightweight, at: newContext, diagnostics: &newDiagnostics)
                if !newDiagnostics.isEmpty {
                    diagnostics.append(newDiagnostics)
                    if hasErrors(newDiagnostics, mode: mode) { return nil }
                }
                current = decoded
            }
            currentCollection = newCollection
        }
        return (current, currentCollection, sourcePointer)
    }

    /// The references a record makes, as read, resolved when the processor finishes: the fields
    /// its domain declares (`DomainDefinition.references(collection:version:)`).
    func references(_ value: Value, collection: String, context: RecordContext) -> [PendingReference] {
        // Most domains declare none: no hash of the collection name per record then.
        guard !referenceRules.isEmpty, let list = referenceRules.unretained(collection), let object = value.objectValue
        else { return [] }
        var references: [PendingReference] = []
        // The rules borrowed, not counted: every record of the collection reads them, on every
        // thread of `--jobs`.
        list._withUnsafeGuaranteedRef { list in
            for k in list.rules.indices {
                let rule = list.rules[k]
                switch object[rule.field] {
                case .array(let items)?:
                    for (index, item) in items.enumerated() {
                        guard let id = item.stringValue else { continue }
                        references.append(PendingReference(rule: rule, id: id, index: index, context: context))
                    }
                case let item?:
                    guard let id = item.stringValue, !id.isEmpty else { continue }
                    references.append(PendingReference(rule: rule, id: id, index: nil, context: context))
                case nil:
                    continue
                }
            }
        }
        return references
    }

    /// The reference rules of one collection, in an object that records borrow.
    final class ReferenceRuleList: Sendable {
        let rules: [ReferenceRule]

        init(_ rules: [ReferenceRule]) { self.rules = rules }
    }

    /// With a media catalog, every V2 media path must name a file (`missing-media`). A story item of
    /// kind `unknown` without a file is the mark a lone JSON export's migration leaves for media that
    /// were not exported (SCHEMAS.md "V1 -> V2 migration"): it stays a `media-not-found` warning.
    private func checkMediaPaths(_ model: any CollectionModel, context: RecordContext) -> [Diagnostic] {
        guard let catalog = options.media else { return [] }
        var diagnostics: [Diagnostic] = []
        for media in definition.mediaPaths(of: model) {
            let (path, field, notExported) = (media.path, media.field, media.mayBeMissing)
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

    /// The `lossy-drop` warnings of a lightweight stage: each member of the old value the new
    /// type has no field for, unless it holds its type's default.
    private func lightweightDrops(from value: Value, to type: RecordType, context: RecordContext) -> [Diagnostic] {
        guard case .object(let object) = value else { return [] }
        var drops: [Diagnostic] = []
        for member in object.members where type.field(named: member.key) == nil && !DatasetProcessor.isDefault(member.value) {
            drops.append(.warning(.lossyDrop, "\(member.key) has no place in \(type.name); dropped",
                at: context.location(of: JSONPointer(tokens: [member.key]))))
        }
        return drops
    }
}

/// A reference a record makes. The processor drops it on commit when the id it names was read
/// before (ids are never unread), and otherwise locates it then and resolves it when it finishes:
/// the usual reference (a word's book, read before its words) is never located, and its label
/// and pointer are never built, a pointer, a message and a scan of the record saved per record.
struct PendingReference: Sendable {
    /// The rule of the referring field.
    var rule: ReferenceRule
    var id: String
    /// The element's index in a list field; nil for a string field.
    var index: Int?
    /// The referring record, which locates `field` (relative to it) when asked.
    var context: RecordContext

    /// The collection whose ids `id` must be among.
    var collection: String { rule.collection }

    /// The referring field as the message names it (`taggedMemberIds[1]`, `wordBookID`).
    var label: String { index.map { "\(rule.field)[\($0)]" } ?? rule.field }

    /// The referring field, relative to the record.
    var field: JSONPointer { JSONPointer(tokens: index.map { [rule.field, String($0)] } ?? [rule.field]) }

    /// The position of the referring field.
    var location: SourceLocation { context.location(of: field) }
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
    /// The line of `id` in a plain record (`DatasetProcessor.isPlain`), as `DatasetProcessor.idLine(of:)`
    /// finds it; nil when not looked up (the record is not plain, or has no id).
    var idLine: Int?? = nil
    /// Where the `/id` of a record that is not plain stands (`DatasetProcessor.idLocation`), found
    /// likewise; nil when not looked up.
    var idLocation: SourceLocation?
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
