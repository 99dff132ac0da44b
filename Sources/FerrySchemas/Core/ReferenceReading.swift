/// A model whose records name others (`ReferenceRule`), saying where it keeps the fields that do,
/// so that the typed lane reads those fields off a decoded model (`ReferenceReading`) rather than
/// encoding the whole model into a `ReferenceCapture` to find them.
public protocol ReferringModel: CollectionModel, FieldCodable {
    /// The top-level fields of `recordType` that can name other records (`ReferenceRule.field`),
    /// each with the stored property that holds it: a `[String]`, a `String` or a `String?`.
    static var referringFields: [(field: String, keyPath: PartialKeyPath<Self>)] { get }
}

/// How a route reads the references of its source model (`TypedRoute.references(ofConcrete:)`):
/// for each of its rules, where the model stores the rule's field and what kind it is, found once
/// per route from the model's descriptor (`RecordType`) and its `ReferringModel.referringFields`.
/// A record's references are then read off the model in place, the rest of its fields untouched:
/// the same ids, in the same order, as `ReferenceCapture` finds by encoding it (rule by rule,
/// then element by element; every string of a list, a string field only when not empty).
@usableFromInline
struct ReferenceReading: Sendable {
    /// What a rule's field holds.
    enum Kind: Sendable {
        /// `[String]`: each element names a record, empty ones too.
        case list
        /// `String`: names a record when not empty.
        case text
        /// `String?`: names a record when present and not empty.
        case optionalText
    }

    /// One rule's field: the rule's index, the field's byte offset in the model, its kind.
    struct Field: Sendable {
        let rule: Int
        let offset: Int
        let kind: Kind
    }

    /// The model type the offsets are of.
    @usableFromInline let model: ObjectIdentifier
    /// One entry per rule, in the rules' order.
    let fields: [Field]

    /// The reading of `rules` on `model`'s records; nil when the model does not say where it keeps
    /// a rule's field (not a `ReferringModel`, or a field it does not list, or whose descriptor
    /// entry or stored type is not a string or a list of strings): its references are then
    /// captured by encoding it.
    init?(rules: [ReferenceRule], model: any FieldCodableCollection.Type) {
        guard !rules.isEmpty, let referring = model as? any ReferringModel.Type else { return nil }
        self.init(rules: rules, referring)
    }

    private init?<Model: ReferringModel>(rules: [ReferenceRule], _ type: Model.Type) {
        let referring = Model.referringFields
        var fields: [Field] = []
        for (index, rule) in rules.enumerated() {
            guard let schema = Model.recordType.field(named: rule.field),
                  let keyPath = referring.first(where: { $0.field == rule.field })?.keyPath,
                  let offset = MemoryLayout<Model>.offset(of: keyPath)
            else { return nil }
            let stored = ObjectIdentifier(Swift.type(of: keyPath).valueType)
            let kind: Kind
            switch (schema.type, schema.isRequired) {
            case (.array(.string), true) where stored == ObjectIdentifier([String].self): kind = .list
            case (.string, true), (.nonEmptyString, true):
                guard stored == ObjectIdentifier(String.self) else { return nil }
                kind = .text
            case (.string, false), (.nonEmptyString, false):
                guard stored == ObjectIdentifier(String?.self) else { return nil }
                kind = .optionalText
            default:
                return nil
            }
            fields.append(Field(rule: index, offset: offset, kind: kind))
        }
        self.model = ObjectIdentifier(Model.self)
        self.fields = fields
    }

    /// The references of the model at `model` (of the type `model` names).
    @usableFromInline
    func references(in model: UnsafeRawPointer) -> [ModelReference] {
        if fields.count == 1 { return Self.references(fields[0], in: model) }
        return fields.flatMap { Self.references($0, in: model) }
    }

    private static func references(_ field: Field, in model: UnsafeRawPointer) -> [ModelReference] {
        let at = model + field.offset
        switch field.kind {
        case .list:
            let ids = at.assumingMemoryBound(to: [String].self).pointee
            // One allocation of the list's size; none for an empty list.
            return ids.indices.map { ModelReference(rule: field.rule, id: ids[$0], index: $0) }
        case .text:
            let id = at.assumingMemoryBound(to: String.self).pointee
            return id.isEmpty ? [] : [ModelReference(rule: field.rule, id: id, index: nil)]
        case .optionalText:
            guard let id = at.assumingMemoryBound(to: String?.self).pointee, !id.isEmpty else { return [] }
            return [ModelReference(rule: field.rule, id: id, index: nil)]
        }
    }
}
