import FerryCore

/// How the typed path (issue 7) takes the records of one source collection: the source model a
/// raw source decodes, the typed migration stages, and the target collection. Built once per
/// collection by `RecordPreparer.typedRoute(for:)`; shared by the worker threads.
public final class TypedRoute: Sendable {
    public let sourceCollection: String
    /// The collection the records have after every stage.
    public let targetCollection: String
    /// The model a raw source decodes for this collection.
    public let sourceModel: any FieldCodableCollection.Type
    /// The model of the records after every stage (`sourceModel` when no stage runs).
    public let targetModel: any FieldCodableCollection.Type
    /// The domain whose migration plan the stages come from.
    public let domain: Domain
    private let stages: [Stage]
    /// The steps of the newer versions' migration, run on the record only for their checks
    /// (validation of an older version, `ProcessingOptions.checksMigration`): the record is taken
    /// only when each migrates it plainly; empty when no check runs.
    private let checkStages: [Stage]
    /// Maps a pointer of the migrated record back to the source record, as the general path's
    /// result does (nil when no stage ran).
    let sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?
    /// The fields of the target collection that name other records
    /// (`DomainDefinition.references(collection:version:)` at the target version, as the general
    /// path checks them); empty for most collections.
    public let referenceRules: [ReferenceRule]
    /// Where the source model keeps the rules' fields, read off each record's model in place
    /// (nil: the model is encoded to find them, `ReferenceCapture`).
    @usableFromInline let referenceReading: ReferenceReading?
    /// The media files a record of the source collection names (`DomainDefinition.mediaPaths(of:)`)
    /// when a bundle's catalog is there to look them up in, nil otherwise: a record that names any
    /// goes the general path, which looks each up (`missing-media`).
    private let mediaPaths: (@Sendable (any CollectionModel) -> [DomainMediaPath])?

    /// One stage's step for the route's collection, with the rules of its new model compiled.
    struct Stage: Sendable {
        let step: any CollectionMigration
        let rules: FieldRulePlan
        let environment: MigrationEnvironment
    }

    init(sourceCollection: String, targetCollection: String, sourceModel: any FieldCodableCollection.Type,
        targetModel: any FieldCodableCollection.Type, domain: Domain, stages: [Stage],
        sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)?, referenceRules: [ReferenceRule] = [],
        checkStages: [Stage] = [], mediaPaths: (@Sendable (any CollectionModel) -> [DomainMediaPath])? = nil)
    {
        self.mediaPaths = mediaPaths
        self.referenceRules = referenceRules
        self.referenceReading = ReferenceReading(rules: referenceRules, model: sourceModel)
        self.checkStages = checkStages
        self.sourceCollection = sourceCollection
        self.targetCollection = targetCollection
        self.sourceModel = sourceModel
        self.targetModel = targetModel
        self.domain = domain
        self.stages = stages
        self.sourcePointer = sourcePointer
    }

    /// True when a stage runs (the source model is not the target's).
    public var migrates: Bool { !stages.isEmpty }

    /// True when each record's model must be asked whether it names a media file
    /// (`namesMedia(_:)`): the lane then reads each record as its model.
    public var checksMedia: Bool { mediaPaths != nil }

    /// True when `model` (a record of the source collection, as read) names a media file that the
    /// bundle's catalog must be asked about; always false without a catalog.
    public func namesMedia(_ model: any CollectionModel) -> Bool {
        guard let mediaPaths else { return false }
        return !mediaPaths(model).isEmpty
    }

    /// True when the newer versions' migration runs on each record for its checks
    /// (`passesChecks(_:scalarsAsText:)`): the lane then reads each record as its model.
    public var checks: Bool { !checkStages.isEmpty }

    /// True when the records name other records: the lane then reads each record as its
    /// model and hands the model to `references(of:)`.
    public var hasReferences: Bool { !referenceRules.isEmpty }

    /// The references `model` (a record of the source collection, as read) makes under
    /// `referenceRules`: the ids the general path reads from the record's value, in its order.
    /// Empty without rules.
    public func references(of model: any FieldCodableCollection) -> [ModelReference] {
        // Not specialized per model: a specialization reached through the schema's existential
        // metatype is not, and its cast back to the model costs more than the generic calls (the
        // fields are read in place, `referenceReading`, whatever the model's type).
        referenceRules.isEmpty ? [] : references(ofConcrete: model)
    }

    /// `references(of:)` for a model of a concrete type (the lane's codecs made per model type):
    /// the rules' fields read in place (`referenceReading`) when the model is the route's source
    /// model and says where it keeps them, else the model encoded into a `ReferenceCapture`,
    /// specialized where called. Named apart: an overload of `references(of:)` would lose to the
    /// existential one, which boxes the model.
    @inlinable
    public func references<Model: FieldCodable>(ofConcrete model: Model) -> [ModelReference] {
        guard !referenceRules.isEmpty else { return [] }
        // Only the rules' fields are read, where the model keeps them.
        if let reading = referenceReading, reading.model == ObjectIdentifier(Model.self) {
            return withUnsafePointer(to: model) { reading.references(in: UnsafeRawPointer($0)) }
        }
        return ReferenceCapture.references(of: model, rules: referenceRules)
    }

    /// `references(of:)` as found by encoding the whole model (`ReferenceCapture`), whatever
    /// `referenceReading` says: what reading the fields in place must give.
    func referencesByEncoding(of model: any FieldCodableCollection) -> [ModelReference] {
        referenceRules.isEmpty ? [] : ReferenceCapture.references(of: model, rules: referenceRules)
    }

    /// When exactly one stage runs: its step, what the step's records share, and the rules of its
    /// new model, so that a caller can run the step specialized for its models
    /// (`CollectionMigration.accept(_:)`, then `MigrationStep.migratePlainly`); nil for no stage
    /// or several (`migrate(_:)` runs those).
    public var singleStage: (step: any CollectionMigration, environment: MigrationEnvironment, rules: FieldRulePlan)? {
        guard stages.count == 1, let stage = stages.first else { return nil }
        return (stage.step, stage.environment, stage.rules)
    }

    /// When exactly one check stage runs (`checks`): its step, what the step's records share, and
    /// the rules of its new model, so that a caller can run the check specialized for its models
    /// (`CollectionMigration.migrateUnchecked(_:into:in:)`, then
    /// `MigrationEnvironment.passesPlainly`); nil for none or several (`passesChecks` runs those).
    public var singleCheckStage: (step: any CollectionMigration, environment: MigrationEnvironment, rules: FieldRulePlan)? {
        guard checkStages.count == 1, let stage = checkStages.first else { return nil }
        return (stage.step, stage.environment, stage.rules)
    }

    /// The record after every stage's step when each migrates it plainly
    /// (`MigrationStep.migratePlainly`; `scalarsAsText`: the record came from a text format such
    /// as CSV); nil otherwise (the record then takes the general path,
    /// which runs the same steps and reports what they report).
    public func migrate(_ model: any CollectionModel, scalarsAsText: Bool = false) -> (any CollectionModel)? {
        Self.migratePlainly(model, through: stages, scalarsAsText: scalarsAsText)
    }

    /// True when every check stage's step migrates `model` (a record of the source collection, as
    /// read; `scalarsAsText`: from a text format such as CSV) plainly, reporting nothing
    /// (`MigrationStep.migratePlainly`): what the general path would report of the checks is then
    /// nothing. False sends the record to the general path, which runs the same checks and keeps
    /// their errors. True when no check runs.
    public func passesChecks(_ model: any CollectionModel, scalarsAsText: Bool = false) -> Bool {
        Self.migratePlainly(model, through: checkStages, scalarsAsText: scalarsAsText) != nil
    }

    /// `model` after each of `stages` migrates it plainly; nil at the first that does not.
    private static func migratePlainly(_ model: any CollectionModel, through stages: [Stage], scalarsAsText: Bool)
        -> (any CollectionModel)?
    {
        var current = model
        for stage in stages {
            guard let next = stage.step.migratePlainly(boxed: current, in: stage.environment, rules: stage.rules,
                scalarsAsText: scalarsAsText)
            else { return nil }
            current = next
        }
        return current
    }
}

/// A top-level model the typed path can read and write.
public typealias FieldCodableCollection = CollectionModel & FieldCodable

/// What the typed path made of one record, for `DatasetProcessor.commit(typed:record:)`. A value:
/// a batch keeps its records' preparations in one array (`TypedLaneBatch`), with no object
/// allocated and counted per record.
public struct TypedPreparation: Sendable {
    /// The record's route. Not counted: the lane holds the routes for the whole run, and a counted
    /// reference here would be counted up and down by the worker and the calling thread for every
    /// record (one shared cache line bouncing between the cores); `borrowingRoute(_:)` uses it
    /// without a count.
    public var route: TypedRoute { routeReference.takeUnretainedValue() }
    private let routeReference: Unmanaged<TypedRoute>
    /// The record's own id (non-empty), nil when it has none.
    public let id: String?
    /// `id` as the id table looks it up, built here (on the worker thread that prepares the
    /// record) so that the order-bound commit only probes the table.
    let idKey: IDTable.Key?
    /// Where the output line (or, for a CSV writer, the leaf stream) rendered ahead lies in the
    /// buffer of the batch the record came in (byte offsets; `TypedLaneBatch`), when the output is
    /// rendered (nil: nothing is written, or the record carries its value).
    public let rendered: Range<Int>?
    /// The record's canonical value after every stage (the target model's `value`), for a writer
    /// that takes values rather than rendered lines (CSV, JSON documents, XML); nil otherwise.
    public let value: Value?
    /// The line of the record's id, known without asking its locator: the line a JSON Lines
    /// record stands on (`FieldLocating.singleLine`), the line of a JSON document element's `id`
    /// (found where the element was taken); 0: not known (the commit asks the locator).
    public private(set) var singleLine: Int
    /// The references the record makes (`TypedRoute.references(of:)`), checked on commit.
    public let references: [ModelReference]

    public init(route: borrowing TypedRoute, id: String?, rendered: Range<Int>?, value: Value? = nil, singleLine: Int = 0,
        references: [ModelReference] = [])
    {
        self.routeReference = Unmanaged.passUnretained(route)
        self.references = references
        self.id = id
        self.idKey = id.map(IDTable.Key.init)
        self.rendered = rendered
        self.value = value
        self.singleLine = singleLine
    }

    /// `body`'s result on the record's route, borrowed (no reference counted).
    @inline(__always)
    public func borrowingRoute<R>(_ body: (TypedRoute) -> R) -> R {
        routeReference._withUnsafeGuaranteedRef(body)
    }

    /// `borrowingRoute(_:)` of the preparation at `preparation`, read in place: a method called on
    /// `pointee` copies the whole preparation first (its id and references counted).
    public static func borrowingRoute<R>(at preparation: UnsafePointer<TypedPreparation>, _ body: (TypedRoute) -> R) -> R {
        preparation.pointee.routeReference._withUnsafeGuaranteedRef(body)
    }

    /// The same preparation with its id's line (`singleLine`) set to `line`.
    public func onLine(_ line: Int) -> TypedPreparation {
        var copy = self
        copy.singleLine = line
        return copy
    }
}

extension RecordPreparer {
    /// The collections of the source version.
    public var sourceCollections: [String] { sourceSchema.models.map { $0.collection } }

    /// The typed route for records of `collection`, or nil when its records must go the general
    /// path: an unknown collection, a stage with no step for it (lightweight), records that may
    /// need the media catalog of a bundle (`DomainDefinition.usesMediaCatalog(collection:version:)`
    /// at any version the record passes through, run or checked) unless no stage runs or is
    /// checked: then the route asks each record whether it names media (`namesMedia(_:)`). Validation of an older version runs the newer versions' steps on each
    /// record for their checks (`ProcessingOptions.checksMigration`: the route's `checks`), each of
    /// which must have a step for the collection. Records that make references
    /// carry them (`TypedPreparation.references`). In a domain with Firestore layouts
    /// (`DomainDefinition.hasFirestoreLayouts`) a route serves the flat records of a collection
    /// named as the model's: a Firestore document (a collection path, a document id, a
    /// `__collections__` or `subCollection` member, which no model reads) is not taken by the lane
    /// and goes the general path, which splits it.
    public func typedRoute(for collection: String) -> TypedRoute? {
        guard sourceModels[collection] != nil, let model = sourceSchema.codableModel(forCollection: collection)
        else { return nil }
        let hasCatalog = options.media != nil
        // Media are checked on the general path only (`checkMediaPaths`, the migration's look-ups).
        func needsCatalog(_ collection: String, _ version: Int) -> Bool {
            hasCatalog && definition.usesMediaCatalog(collection: collection, version: version)
        }
        // A record no stage runs on (its version is the target's) is looked up in the catalog only
        // for the media files it names: the lane takes those that name none. A stage looks files
        // up whatever the record holds.
        var mediaPaths: (@Sendable (any CollectionModel) -> [DomainMediaPath])? = nil
        if needsCatalog(collection, sourceVersion) {
            guard stages.isEmpty, checkStages.isEmpty else { return nil }
            let definition = self.definition
            mediaPaths = { definition.mediaPaths(of: $0) }
        }
        var typedStages: [TypedRoute.Stage] = []
        var current = collection
        var currentModel = model
        var sourcePointer: (@Sendable (JSONPointer) -> JSONPointer)? = nil
        for stage in stages {
            guard let step = stage.steps[current] else { return nil }
            typedStages.append(TypedRoute.Stage(step: step.migration, rules: step.rules, environment: step.environment))
            // The same mapping the general path builds for its result (RecordPreparer.migrate).
            let renames = step.migration.pointerRenames
            let previous = sourcePointer
            sourcePointer = { pointer in
                let back = PointerRename.apply(renames, to: pointer)
                return previous?(back) ?? back
            }
            current = step.migration.targetModel.collection
            currentModel = step.migration.targetModel
            if needsCatalog(current, stage.toMajor) { return nil }
        }
        // The checks run on the record as read (as `prepare` runs them), which is the record of
        // the target version only when no stage runs.
        guard checkStages.isEmpty || stages.isEmpty else { return nil }
        var typedChecks: [TypedRoute.Stage] = []
        var checked = collection
        for stage in checkStages {
            guard let step = stage.steps[checked] else { return nil }
            typedChecks.append(TypedRoute.Stage(step: step.migration, rules: step.rules, environment: step.environment))
            checked = step.migration.targetModel.collection
            if needsCatalog(checked, stage.toMajor) { return nil }
        }
        return TypedRoute(sourceCollection: collection, targetCollection: current, sourceModel: model,
            targetModel: currentModel, domain: domain, stages: typedStages, sourcePointer: sourcePointer,
            referenceRules: referenceRules[current]?.rules ?? [], checkStages: typedChecks, mediaPaths: mediaPaths)
    }
}
