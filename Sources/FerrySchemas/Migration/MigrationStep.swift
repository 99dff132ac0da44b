/// One collection's step of a custom migration stage, written once on models: the new version's
/// model for a record of the old one (`Old` -> `New`). Every route runs it (the general path, the
/// typed lane, one thread or `--jobs`): the old model comes from whatever reader read the record,
/// the new model is checked against `New`'s rules and written by whatever writer is asked.
///
/// - The collection rename follows from the types (`Old.collection` -> `New.collection`).
/// - `pointerRenames` map a field of the new record back to the old one, so that a rule the new
///   model breaks is reported where the input holds the value (`/alcoholByVolume` -> `/alcohol`).
/// - The body reports what it finds through the context (`error`, `warning` with `lossy-drop` or
///   `lossy-change`, `note`), at fields of the OLD record; under `--lenient` (`isLenient`) it maps
///   what it would refuse. After reporting an error it throws `MigrationAbandoned` (or returns a
///   model, which is dropped: a record with an error is not migrated).
///
/// ```swift
/// let step = MigrationStep(ReadingLogV1.Entry.self, to: ReadingLogV2.Entry.self,
///                          pointerRenames: [PointerRename("/title", "/book")]) { old, context in
///     ReadingLogV2.Entry(id: old.id, title: old.book, ...)
/// }
/// ```
public struct MigrationStep<Old: FieldCodableCollection, New: FieldCodableCollection>: CollectionMigration {
    /// The per-record body: the new model of `old`; problems go to `context`; throws to abandon.
    public typealias Body = @Sendable (_ old: Old, _ context: inout MigrationContext) throws -> New

    /// The body, as declared.
    public let body: Body
    /// Fields of the new record -> fields of the old one, for diagnostics (first match wins).
    public let pointerRenames: [PointerRename]
    /// `body` on models where the caller keeps them (`migrateUnchecked(_:into:in:)`): runs it on
    /// the `Old` at the first pointer (left as it was), and when the body returns a model with the
    /// old record's id, initializes the `New` at the second; false, the second left uninitialized,
    /// otherwise. Made in `init`, which the plans call with their concrete models, so that it is
    /// specialized for them: the models are moved, not copied and destroyed by generic code
    /// through their value witnesses.
    private let bodyInPlace: @Sendable (UnsafeMutableRawPointer, UnsafeMutableRawPointer, inout MigrationContext) -> Bool

    /// A step from `Old` to `New` whose per-record work is `body`.
    public init(_ old: Old.Type, to new: New.Type, pointerRenames: [PointerRename] = [], _ body: @escaping Body) {
        self.body = body
        self.pointerRenames = pointerRenames
        self.bodyInPlace = { old, new, context in
            // Moved out for the call and back after it (`consume`: not copied).
            let slot = old.assumingMemoryBound(to: Old.self)
            let model = slot.move()
            let made: New
            do {
                made = try body(model, &context)
            } catch {
                slot.initialize(to: consume model)
                return false
            }
            let keepsID = made.recordID == model.recordID
            slot.initialize(to: consume model)
            guard keepsID else { return false }
            // Moved in: binding it out of an optional copied every field, then freed the optional.
            new.assumingMemoryBound(to: New.self).initialize(to: consume made)
            return true
        }
    }

    /// Runs the step on one record.
    @inlinable
    public func migrate(_ old: Old, _ context: inout MigrationContext) throws -> New {
        try body(old, &context)
    }

    /// The new model when the record migrates plainly: the step reports nothing, keeps the
    /// record's id (a derived id is checked for uniqueness by the path that reports), and the new
    /// model keeps every rule of `rules` (compiled from `New.recordType`) and, for a model that
    /// checks across fields (`FieldCodable.checksAcrossFields`), passes those checks and its nested
    /// models' (`MigrationEnvironment.passesPlainly`; `scalarsAsText`, the record came from a text
    /// format such as CSV, changes nothing). Nil otherwise: the record then goes the path that
    /// reports (`RecordPreparer.prepare`), which runs this same step.
    @inlinable
    public func migratePlainly(_ old: Old, in environment: MigrationEnvironment, rules: FieldRulePlan,
        scalarsAsText: Bool = false) -> New?
    {
        var context = MigrationContext(environment)
        guard let new = try? body(old, &context), context.problems.isEmpty, new.recordID == old.recordID else { return nil }
        return environment.checkedPlainly(new, rules: rules, scalarsAsText: scalarsAsText)
    }

    /// The first half of `migratePlainly` on a boxed model: the step's new model of `old` when the
    /// step reports nothing and keeps the record's id, NOT yet checked against the new model's
    /// rules (`checkedPlainly`); nil when `old` is not `Old` or otherwise.
    public func migrateUnchecked(boxed old: any CollectionModel, in environment: MigrationEnvironment)
        -> (any FieldCodableCollection)?
    {
        guard let old = old as? Old else { return nil }
        var context = MigrationContext(environment)
        guard let new = try? body(old, &context), context.problems.isEmpty, new.recordID == old.recordID else { return nil }
        return new
    }

    /// `migrateUnchecked(boxed:in:)` without a box: runs the step on the `Old` at `old` (left as it
    /// was: the caller still owns it), and, when the step reports nothing
    /// and keeps the record's id, initializes the `New` at `new` (the caller then owns it) and
    /// returns true; false leaves `new` uninitialized. `old` must point to an initialized `Old` and
    /// `new` to room for a `New` (`sourceModel`, `targetModel`): callers are codecs made per model
    /// type, matched to the step's types once, when the route is planned, so that each model is
    /// made, checked, written and freed by code specialized for it, with no existential box and
    /// no cast per record.
    public func migrateUnchecked(_ old: UnsafeMutableRawPointer, into new: UnsafeMutableRawPointer,
        in environment: MigrationEnvironment) -> Bool
    {
        // The environment is borrowed for the call.
        var context = MigrationContext(unretained: environment)
        guard bodyInPlace(old, new, &context) else { return false }
        guard context.problems.isEmpty else {
            new.assumingMemoryBound(to: New.self).deinitialize(count: 1)
            return false
        }
        return true
    }

    public var sourceModel: any FieldCodableCollection.Type { Old.self }
    public var targetModel: any FieldCodableCollection.Type { New.self }

    public func migrate(boxed old: any CollectionModel, _ context: inout MigrationContext) throws -> any FieldCodableCollection {
        guard let old = old as? Old else { throw StepTypeMismatch(expected: Old.collection, found: type(of: old)) }
        return try body(old, &context)
    }

    public func migratePlainly(boxed old: any CollectionModel, in environment: MigrationEnvironment, rules: FieldRulePlan,
        scalarsAsText: Bool) -> (any FieldCodableCollection)?
    {
        guard let old = old as? Old else { return nil }
        return migratePlainly(old, in: environment, rules: rules, scalarsAsText: scalarsAsText)
    }

    @inlinable
    public func accept<Visitor: MigrationStepVisitor>(_ visitor: inout Visitor) { visitor.visit(self) }
}

/// A `MigrationStep` with its model types erased, as a stage lists its steps.
public protocol CollectionMigration: Sendable {
    /// The model the step reads (`Old`); its `collection` is the step's source collection.
    var sourceModel: any FieldCodableCollection.Type { get }
    /// The model the step makes (`New`); its `collection` is the step's target collection.
    var targetModel: any FieldCodableCollection.Type { get }
    /// Fields of the new record -> fields of the old one, for diagnostics.
    var pointerRenames: [PointerRename] { get }
    /// `MigrationStep.migrate(_:_:)` on a boxed model; throws when `old` is not the step's `Old`.
    func migrate(boxed old: any CollectionModel, _ context: inout MigrationContext) throws -> any FieldCodableCollection
    /// `MigrationStep.migratePlainly(_:in:rules:scalarsAsText:)` on a boxed model (nil when `old`
    /// is not `Old`).
    func migratePlainly(boxed old: any CollectionModel, in environment: MigrationEnvironment, rules: FieldRulePlan,
        scalarsAsText: Bool) -> (any FieldCodableCollection)?
    /// `MigrationStep.migrateUnchecked(boxed:in:)`: the new model before its rules are checked.
    func migrateUnchecked(boxed old: any CollectionModel, in environment: MigrationEnvironment)
        -> (any FieldCodableCollection)?
    /// `MigrationStep.migrateUnchecked(_:into:in:)`: the same on models where the caller keeps them
    /// (`old` an initialized `sourceModel`, left as it was; `new` room for a `targetModel`); true
    /// when `new` was initialized.
    func migrateUnchecked(_ old: UnsafeMutableRawPointer, into new: UnsafeMutableRawPointer, in environment: MigrationEnvironment)
        -> Bool
    /// Hands the step to `visitor` with its concrete model types (so that what the visitor builds
    /// for the pair is specialized for it: no box and no cast per record).
    func accept<Visitor: MigrationStepVisitor>(_ visitor: inout Visitor)
}

/// Something handed a migration step with its CONCRETE (old, new) model types
/// (`CollectionMigration.accept(_:)`); the twin of `CollectionModelVisitor` for steps.
public protocol MigrationStepVisitor {
    mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(_ step: MigrationStep<Old, New>)
}

/// Thrown when a step is handed a model of another type than its `Old` (a plan listing a step
/// under the wrong collection).
struct StepTypeMismatch: Error, CustomStringConvertible {
    let expected: String
    let found: Any.Type
    var description: String { "the migration step of \(expected) was handed a \(found)" }
}

extension MigrationEnvironment {
    /// The second half of `MigrationStep.migratePlainly` in this environment: `new` when it keeps
    /// every rule of `rules` (compiled from `Model.recordType`) and, for a model that checks across
    /// fields, passes those checks and its nested models' (`passesPlainly`); nil otherwise.
    /// `scalarsAsText` (the record came from a text format such as CSV) changes nothing: a model
    /// that passes reads back from its value as itself in either reading. Generic over the new
    /// model alone, so that a caller that knows it (a codec made per model type) runs the check
    /// specialized for it.
    @inlinable
    public func checkedPlainly<Model: FieldCodableCollection>(_ new: Model, rules: FieldRulePlan, scalarsAsText: Bool)
        -> Model?
    {
        passesPlainly(new, rules: rules) ? new : nil
    }

    /// True when `new` keeps every rule of `rules` (`FieldRuleCheck`) and passes the checks across
    /// fields of its own and its nested models in this environment's time zone
    /// (`AcrossFieldsCheck`): then the path that reports, reading the model back from its value,
    /// would report nothing and read the model itself. No `Value` is built.
    @inlinable
    public func passesPlainly<Model: FieldCodable>(_ new: Model, rules: FieldRulePlan) -> Bool {
        // The time zone is read (and retained) only for a model with checks across fields.
        FieldRuleCheck.passes(new, plan: rules) && (!Model.checksAcrossFields || AcrossFieldsCheck.passes(new, in: timeZone))
    }
}
