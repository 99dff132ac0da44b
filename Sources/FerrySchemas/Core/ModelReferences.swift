import FerryCore

/// A reference a record the typed path took makes (`ReferenceRule`): the id it names and where
/// in the record it stands. Made on the worker thread that read the record; the calling thread
/// only looks the id up (`DatasetProcessor.commit(typed:record:)`) and builds the field's
/// pointer and message for the rare id not read yet.
public struct ModelReference: Sendable, Equatable {
    /// The rule's index in its route's `TypedRoute.referenceRules`.
    public let rule: Int
    /// The id named: any string element of a list field, a non-empty string field.
    public let id: String
    /// The element's index for a list field; nil for a string field.
    public let index: Int?
    /// `id` as the id table looks it up, built on the worker thread.
    let key: IDTable.Key

    @usableFromInline
    init(rule: Int, id: String, index: Int?) {
        self.rule = rule
        self.id = id
        self.index = index
        self.key = IDTable.Key(id)
    }

    public static func == (a: ModelReference, b: ModelReference) -> Bool {
        a.rule == b.rule && a.id == b.id && a.index == b.index
    }
}

/// Collects the references of one model as its `encode(to:)` writes its top-level fields: the
/// same ids, in the same order, that `RecordPreparer` reads from the record's value (the rules'
/// order, then the elements' order). A route whose model says where it keeps the rules' fields
/// reads them in place instead (`ReferenceReading`); this is the way for any other model. Nested models are not visited: a rule's field is at the top
/// level of the record (`ReferenceRule.field`). Inlinable: called with a concrete model
/// (`TypedRoute.references(of:)`), the model's `encode(to:)` is specialized for this sink and the
/// fields of types that name no record cost nothing.
@usableFromInline
struct ReferenceCapture: FieldSink {
    @usableFromInline let rules: [ReferenceRule]
    @usableFromInline var found: [ModelReference] = []

    @inlinable
    init(rules: [ReferenceRule]) { self.rules = rules }

    /// The references `model` makes under `rules`, in the rules' order.
    @inlinable
    static func references<Model: FieldCodable>(of model: Model, rules: [ReferenceRule]) -> [ModelReference] {
        var capture = ReferenceCapture(rules: rules)
        model.encode(to: &capture)
        guard rules.count > 1 else { return capture.found }
        // Fields come in the model's order; the value path goes rule by rule.
        return rules.indices.flatMap { rule in capture.found.filter { $0.rule == rule } }
    }

    /// The index of the rule of field `key`: lengths compared first (most fields a model writes
    /// are no rule's, and differ in length), then the bytes.
    @inlinable
    func rule(named key: String) -> Int? {
        let count = key.utf8.count
        for index in rules.indices {
            let field = rules[index].field
            if field.utf8.count == count, field == key { return index }
        }
        return nil
    }

    @inlinable
    mutating func add(_ key: String, _ text: String) {
        guard !text.isEmpty, let rule = rule(named: key) else { return }
        found.append(ModelReference(rule: rule, id: text, index: nil))
    }

    @inlinable
    mutating func add(_ key: String, _ strings: [String]) {
        guard let rule = rule(named: key) else { return }
        for (index, id) in strings.enumerated() { found.append(ModelReference(rule: rule, id: id, index: index)) }
    }

    @inlinable
    mutating func add(_ key: String, _ value: Value) {
        guard let rule = rule(named: key) else { return }
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let id = item.stringValue { found.append(ModelReference(rule: rule, id: id, index: index)) }
            }
        default:
            if let id = value.stringValue, !id.isEmpty { found.append(ModelReference(rule: rule, id: id, index: nil)) }
        }
    }

    // Fields of other types name no record.
    @inlinable
    mutating func add(_ key: String, _ number: Double) {}
    @inlinable
    mutating func add(_ key: String, _ flag: Bool) {}
    @inlinable
    mutating func add(_ key: String, _ integer: Int64) {}
    @inlinable
    mutating func add(_ key: String, _ instant: Instant) {}
    @inlinable
    mutating func add(_ key: String, _ day: CalendarDay) {}
    @inlinable
    mutating func add<M: FieldCodable>(_ key: String, _ model: M) {}
    @inlinable
    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {}
}
