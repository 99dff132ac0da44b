/// Something that is handed each collection model type of a schema version with its CONCRETE type
/// (issue 7's typed path): a generic `visit` called with a type known at compile time lets the
/// compiler specialize what the visitor builds for that model (decoders, renderers), where a loop
/// over `VersionedSchema.models` (existential metatypes) can only call unspecialized generic code.
public protocol CollectionModelVisitor {
    /// Called once per model type, in the schema's canonical collection order.
    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type)
}

/// Collects the model types as existential metatypes (`VersionedSchema.models`).
@usableFromInline
struct CollectionModelList: CollectionModelVisitor {
    @usableFromInline var models: [any CollectionModel.Type] = []

    @usableFromInline init() {}

    @usableFromInline
    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) { models.append(type) }
}

/// Finds the model type of one collection as a `FieldCodableCollection` (the visit hands it so:
/// no dynamic cast of an existential metatype, whose first conformance look-ups scan the
/// program's conformance records).
struct CodableModelFinder: CollectionModelVisitor {
    let collection: String
    var found: (any FieldCodableCollection.Type)? = nil

    mutating func visit<Model: FieldCodableCollection>(_ type: Model.Type) {
        if found == nil, Model.collection == collection { found = type }
    }
}

extension VersionedSchema {
    /// The model type of a collection, as the typed path reads and writes it; nil when this
    /// version has no such collection.
    public static func codableModel(forCollection name: String) -> (any FieldCodableCollection.Type)? {
        var finder = CodableModelFinder(collection: name)
        forEachModel(&finder)
        return finder.found
    }
}

extension Domain {
    /// Visits every collection model type of every schema version of the domain (oldest first),
    /// as its definition lists them (`DomainDefinition.forEachModel`); nothing for a domain that
    /// is not registered. `@inlinable`: a built-in definition is called by its concrete type, so
    /// that a caller's visitor is specialized for each of its models (the typed path's codecs); the
    /// same function as through the registry, only specialized.
    @inlinable
    public func forEachModel<Visitor: CollectionModelVisitor>(_ visitor: inout Visitor) {
        guard let definition else { return }
        switch ObjectIdentifier(definition) {
        case ObjectIdentifier(NotesDomain.self): NotesDomain.forEachModel(&visitor)
        case ObjectIdentifier(PetStoryDomain.self): PetStoryDomain.forEachModel(&visitor)
        case ObjectIdentifier(VocabularyDomain.self): VocabularyDomain.forEachModel(&visitor)
        default: definition.forEachModel(&visitor)
        }
    }
}
