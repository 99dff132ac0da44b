/// A typed migration stage between two concrete models (issue 7's typed path): the new version's
/// model for `old`, or nil when the record must take the general stage. The same contract as
/// `TypedRecordMigration`, without the existential box: `old` is a model the general path's
/// decode accepted without any diagnostic, and the model returned is exactly the one the general
/// stage would produce, valid in the new version (`FieldRuleCheck`) and of the context's target
/// collection.
public typealias TypedPairMigration<Old: FieldCodableCollection, New: FieldCodableCollection> =
    @Sendable (_ old: Old, _ context: TypedMigrationContext) -> New?

/// Something a migration plan hands each of its typed stages to as a CONCRETE (Old, New) pair of
/// models (`SchemaMigrationPlan.forEachTypedPair(toVersion:_:)`): a generic `visit` called with
/// types known at compile time lets the visitor build code specialized for the pair (decode `Old`,
/// migrate, render `New`), with no existential box and no dynamic cast per record. The twin of
/// `CollectionModelVisitor` for stages.
public protocol TypedMigrationPairVisitor {
    /// Called once per pair of the stage, with the stage's per-record step for it.
    mutating func visit<Old: FieldCodableCollection, New: FieldCodableCollection>(
        _ migrate: @escaping TypedPairMigration<Old, New>)
}

extension Domain {
    /// Visits the typed pairs of the stage of the domain's plan that ends at `version` (none when
    /// the plan has no typed stage there, or the domain is not registered), as its definition
    /// hands them (`DomainDefinition.forEachTypedPair`). `@inlinable`, and a built-in definition
    /// called by its concrete type, so that a caller's visitor is specialized for each pair.
    @inlinable
    public func forEachTypedPair<Visitor: TypedMigrationPairVisitor>(toVersion version: Int, _ visitor: inout Visitor) {
        guard let definition else { return }
        switch ObjectIdentifier(definition) {
        case ObjectIdentifier(NotesDomain.self): NotesDomain.forEachTypedPair(toVersion: version, &visitor)
        case ObjectIdentifier(PetStoryDomain.self): PetStoryDomain.forEachTypedPair(toVersion: version, &visitor)
        case ObjectIdentifier(VocabularyDomain.self): VocabularyDomain.forEachTypedPair(toVersion: version, &visitor)
        default: definition.forEachTypedPair(toVersion: version, &visitor)
        }
    }
}
