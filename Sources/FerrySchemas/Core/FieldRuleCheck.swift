import FerryCore

/// Checks a model against the field rules of its descriptor (`recordType`), walking the fields the
/// model writes (`encode(to:)`): a `FieldSink` that writes nothing and fails at the first rule
/// broken. The rules stay in the descriptors (SCHEMAS.md tables), read here as `FieldReader` reads
/// them.
///
/// `passes(_:)` is true only when `FieldReader`, reading the model's canonical `value`, would report
/// nothing and give back the model itself. It fails on:
/// - a field the descriptor does not have, a field written twice, a required field not written;
/// - a value of another type than the field's (an `Int64` for a `double` field, a `String` for an
///   `instant` field, a built `Value`, which it cannot check);
/// - a string that `FieldType.admits(_:)` refuses (`nonEmptyString` empty, a bad `url`, a value
///   outside an `enumeration`);
/// - a number that is not finite, outside the field's `range` or off its `step`, or `-0` (the
///   reader reads it as `0`, another model);
/// - an instant finer than milliseconds (the reader reads it cut, another model).
/// Base64 (`data`) fields are not re-checked: `Base64Data` is valid by construction. Checks across
/// fields (`FieldSource.check`, run by `init(from:)`) are not seen here.
///
/// The descriptor is read through a `FieldRulePlan` (its rules compiled once into plain values): a
/// hot caller keeps one plan per model type and calls `passes(_:plan:)`.
public struct FieldRuleCheck: FieldSink {
    /// True once a rule was found broken.
    public private(set) var failed = false
    /// The fields written so far, one bit per index in the descriptor's fields.
    private var written: UInt64 = 0
    /// Where the next field lookup starts: models write in canonical order.
    private var hint = 0
    /// The plan whose tables are read, for a check made from a descriptor (keeps them alive); nil
    /// for the checks `passes` makes, whose caller keeps the plan alive (no reference counted per
    /// nested model).
    private let keeper: FieldRulePlan?
    /// The compiled rules of the type checked, where its plan keeps them (one word to copy into
    /// each nested check).
    private let tables: UnsafePointer<FieldRulePlan.Tables>

    /// A check of the fields of a `type` (compiles its rules: hot callers keep a plan instead).
    public init(type: RecordType) {
        let plan = FieldRulePlan(type)
        self.init(plan.storedTables, keeper: plan)
    }

    @usableFromInline
    init(_ tables: UnsafePointer<FieldRulePlan.Tables>, keeper: FieldRulePlan?) {
        self.keeper = keeper
        self.tables = tables
        if tables.pointee.rules.count > 64 { failed = true }  // one bit per field
    }

    /// True when `model` keeps every field rule of its descriptor (see the type's documentation).
    /// Compiles the descriptor's rules on every call: hot callers use `passes(_:plan:)`.
    public static func passes<M: FieldCodable>(_ model: M) -> Bool {
        passes(model, plan: FieldRulePlan(M.recordType))
    }

    /// True when `model`'s fields keep every rule of `plan` (compiled from `M.recordType` for the
    /// check the type's documentation describes). `@inlinable`, as are the nested checks: called
    /// with a concrete model, the model's `encode(to:)` is specialized for the check (no generic
    /// metadata looked up per nested object or list at run time).
    @inlinable
    public static func passes<M: FieldCodable>(_ model: M, plan: FieldRulePlan) -> Bool {
        withExtendedLifetime(plan) { passes(model, plan.storedTables) }
    }

    /// True when `model`'s fields keep every rule of `tables` (the caller keeps their plan alive).
    @inlinable
    static func passes<M: FieldCodable>(_ model: M, _ tables: UnsafePointer<FieldRulePlan.Tables>) -> Bool {
        var check = FieldRuleCheck(tables, keeper: nil)
        model.encode(to: &check)
        check.finish()
        return !check.failed
    }

    /// Fails when a required field was not written.
    public mutating func finish() {
        if tables.pointee.requiredFields & ~written != 0 { failed = true }
    }

    /// The rule of the field `key`, marked written; nil (failed) when the type has no such field
    /// or it was written already. The usual field (the one after the previous, not written yet)
    /// is found inline; any other goes `lookUp(_:)`.
    @inline(__always)
    private mutating func field(_ key: String) -> UnsafePointer<FieldRulePlan.Rule>? {
        let tables = self.tables.pointee
        if !failed, hint < tables.names.count, hint < 64, tables.names[hint] == key,
           written & (1 << UInt64(hint)) == 0, let rules = tables.rules.baseAddress
        {
            written |= 1 << UInt64(hint)
            hint += 1
            return rules + (hint - 1)  // names and rules have the same count
        }
        return lookUp(key)
    }

    /// `field(_:)` for a field out of order, unknown, or written already (or a failed check). The
    /// field after the usual one is tried first: models write in canonical order, and an optional
    /// field left unwritten (an absent `imageData`) skips one. Past it, `firstIndex(of:)` with
    /// names compared only when their lengths agree: two different strings compared in full cost
    /// tens of instructions each (a story without `songId` and `location` compared seven).
    @inline(never)
    private mutating func lookUp(_ key: String) -> UnsafePointer<FieldRulePlan.Rule>? {
        guard !failed else { return nil }
        let names = tables.pointee.names
        let next = hint + 1
        let length = key.utf8.count
        let index = next < names.count && names[next] == key
            ? next : names.indices.first { names[$0].utf8.count == length && names[$0] == key }
        guard let index, index < 64, written & (1 << UInt64(index)) == 0 else {
            failed = true
            return nil
        }
        written |= 1 << UInt64(index)
        hint = index + 1
        return tables.pointee.rules.baseAddress.map { $0 + index }
    }

    /// Fails unless `holds`.
    @usableFromInline @inline(__always)
    mutating func require(_ holds: Bool) {
        if !holds { failed = true }
    }

    @inline(__always)
    public mutating func add(_ key: String, _ text: String) {
        guard let rule = field(key) else { return }
        require(rule.pointee.kind == .text && tables.pointee.admits(text, rule.pointee.text))
    }

    @inline(__always)
    public mutating func add(_ key: String, _ number: Double) {
        guard let rule = field(key) else { return }
        // Finite, in range, on step, not -0 (the reader reads -0 as 0: another model).
        require(rule.pointee.kind == .double && number.isFinite && !(number == 0 && number.sign == .minus)
            && FieldSchema.isInRange(number, rule.pointee.range) && FieldSchema.isOnStep(number, rule.pointee.step))
    }

    @inline(__always)
    public mutating func add(_ key: String, _ flag: Bool) {
        guard let rule = field(key) else { return }
        require(rule.pointee.kind == .bool)
    }

    public mutating func add(_ key: String, _ integer: Int64) {
        guard let rule = field(key) else { return }
        require(rule.pointee.kind == .integer && FieldSchema.isInRange(Double(integer), rule.pointee.range))
    }

    @inline(__always)
    public mutating func add(_ key: String, _ instant: Instant) {
        guard let rule = field(key) else { return }
        require(rule.pointee.kind == .instant && !instant.truncatedToMilliseconds().lostPrecision)
    }

    public mutating func add(_ key: String, _ day: CalendarDay) {
        guard let rule = field(key) else { return }
        require(rule.pointee.kind == .day)
    }

    public mutating func add(_ key: String, _ strings: [String]) {
        guard let rule = field(key) else { return }
        guard rule.pointee.kind == .array else { return require(false) }
        let textRule = rule.pointee.text
        if textRule == .all { return }
        // Read in place: no element copied (and counted) on the way.
        let admitted = strings.withUnsafeBufferPointer { texts in
            texts.allSatisfy { tables.pointee.admits($0, textRule) }
        }
        require(admitted)
    }

    @inlinable
    public mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        guard let nested = nestedTables(key, list: false) else { return }
        require(Self.passes(model, nested))
    }

    @inlinable
    public mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard let nested = nestedTables(key, list: true) else { return }
        // Read in place: no element copied (and counted) on the way.
        var passed = true
        models.withUnsafeBufferPointer { elements in
            for element in elements where !Self.passes(element, nested) {
                passed = false
                break
            }
        }
        require(passed)
    }

    /// The tables of the object field `key` (`list`: of the list of objects `key`), marked
    /// written; nil when the type has no such field or it was written already (failed), or it is
    /// of another kind (failed).
    @usableFromInline
    mutating func nestedTables(_ key: String, list: Bool) -> UnsafePointer<FieldRulePlan.Tables>? {
        guard let rule = field(key) else { return nil }
        guard rule.pointee.kind == (list ? .array : .object), let nested = tables.pointee.nestedTables(rule.pointee) else {
            require(false)
            return nil
        }
        return nested
    }

    /// A built value cannot be checked here: the check fails.
    public mutating func add(_ key: String, _ value: Value) {
        guard field(key) != nil else { return }
        require(false)
    }
}

/// The rules of a `RecordType` compiled for `FieldRuleCheck` into tables of plain values, read in
/// place (no `FieldSchema` or `FieldType` copied, nothing reference-counted per field): built once
/// per model type by a hot caller, and shared (immutable).
public final class FieldRulePlan: @unchecked Sendable {
    // @unchecked: the tables are written once, in `init`, and only read after.

    /// The descriptor the plan was compiled from.
    public let type: RecordType
    /// The tables of `type`: pointers into the storage this plan (and `nestedPlans`) own.
    let tables: Tables
    /// `tables`, stored where a check can point to them (`FieldRuleCheck` copies one word).
    @usableFromInline
    let storedTables: UnsafePointer<Tables>
    /// The plans of the nested object types, owners of `tables.nested`.
    private let nestedPlans: [FieldRulePlan]

    /// Compiles the rules of `type` and of its nested object types.
    public init(_ type: RecordType) {
        var rules: [Rule] = []
        var nestedPlans: [FieldRulePlan] = []
        var textTypes: [FieldType] = []
        var required: UInt64 = 0
        for (index, field) in type.fields.enumerated() {
            if field.isRequired && index < 64 { required |= 1 << UInt64(index) }
            rules.append(Rule(field, nested: &nestedPlans, textTypes: &textTypes))
        }
        self.type = type
        self.nestedPlans = nestedPlans
        let typeStorage = UnsafeMutablePointer<RecordType>.allocate(capacity: 1)
        typeStorage.initialize(to: type)
        tables = Tables(
            type: UnsafePointer(typeStorage), names: Self.store(type.fields.map(\.name)), rules: Self.store(rules), requiredFields: required,
            textTypes: Self.store(textTypes), enumerations: Self.store(textTypes.map(Self.storedCases)),
            nested: Self.store(nestedPlans.map(\.tables)))
        let stored = UnsafeMutablePointer<Tables>.allocate(capacity: 1)
        stored.initialize(to: tables)
        storedTables = UnsafePointer(stored)
    }

    deinit {
        UnsafeMutablePointer(mutating: storedTables).deinitialize(count: 1).deallocate()
        UnsafeMutablePointer(mutating: tables.type).deinitialize(count: 1).deallocate()
        Self.free(tables.names)
        Self.free(tables.rules)
        Self.free(tables.textTypes)
        for cases in tables.enumerations { Self.free(cases) }
        Self.free(tables.enumerations)
        Self.free(tables.nested)
    }

    /// The cases of an enumeration type in storage of their own (empty for any other type).
    private static func storedCases(_ type: FieldType) -> UnsafeBufferPointer<String> {
        guard case .enumeration(let cases) = type else { return UnsafeBufferPointer(start: nil, count: 0) }
        return store(cases)
    }

    /// A copy of `elements` in storage of its own (freed by `free`).
    private static func store<T>(_ elements: [T]) -> UnsafeBufferPointer<T> {
        let storage = UnsafeMutableBufferPointer<T>.allocate(capacity: elements.count)
        _ = storage.initialize(from: elements)
        return UnsafeBufferPointer(storage)
    }

    private static func free<T>(_ elements: UnsafeBufferPointer<T>) {
        let storage = UnsafeMutableBufferPointer(mutating: elements)
        storage.deinitialize()
        storage.deallocate()
    }

    /// The compiled rules of one record type: plain pointers into a plan's storage, valid while
    /// the plan lives (copied into each check without reference counting).
    @usableFromInline
    struct Tables {
        /// The descriptor.
        let type: UnsafePointer<RecordType>
        /// The field names in canonical order.
        let names: UnsafeBufferPointer<String>
        /// The rules of each field, by index in `names` (same count).
        let rules: UnsafeBufferPointer<Rule>
        /// One bit per required field (fields past 64 are not represented: the check fails).
        let requiredFields: UInt64
        /// The string types whose `FieldType.admits(_:)` must be asked (`TextRule.ask` indexes it).
        let textTypes: UnsafeBufferPointer<FieldType>
        /// The cases of each enumeration of `textTypes` (same count; empty for other types),
        /// compared in place: taking them out of the `FieldType` retained its array once a record,
        /// a count every worker thread wrote.
        let enumerations: UnsafeBufferPointer<UnsafeBufferPointer<String>>
        /// The tables of nested object types (`Rule.nested` indexes it).
        let nested: UnsafeBufferPointer<Tables>

        /// True when a string fits a field (or an array's element) with text rule `rule`.
        @inline(__always)
        func admits(_ text: String, _ rule: TextRule) -> Bool {
            switch rule {
            case .all: return true
            case .nonEmpty: return !text.isEmpty
            case .ask(let index): return asks(text, index)
            case .none: return false
            }
        }

        /// True when `textTypes[index]` admits `text` (`FieldType.admits(_:)`).
        @inline(never)
        func asks(_ text: String, _ index: Int) -> Bool {
            guard index < textTypes.count else { return false }
            let cases = enumerations[index]
            guard cases.isEmpty else { return cases.contains(text) }
            return textTypes[index].admits(text)
        }

        /// The tables of the object type of a field (or of its array's elements), where the
        /// nested plan's storage holds them; nil for none.
        @inline(__always)
        func nestedTables(_ rule: Rule) -> UnsafePointer<Tables>? {
            guard rule.nested >= 0, rule.nested < nested.count, let base = nested.baseAddress else { return nil }
            return base + rule.nested
        }
    }

    /// How a string is admitted by a field type, as the reader reads it.
    enum TextRule: Equatable {
        /// Every string (`string`; `data`: `Base64Data` is valid by construction).
        case all
        /// Every string but the empty one (`nonEmptyString`: what `FieldType.admits(_:)` admits
        /// for it, checked inline).
        case nonEmpty
        /// The strings `FieldType.admits(_:)` admits for `textTypes[index]` (`url`, `enumeration`).
        case ask(Int)
        /// No string: the field holds another type.
        case none

        init(_ type: FieldType, textTypes: inout [FieldType]) {
            switch type {
            case .string, .data: self = .all
            case .nonEmptyString: self = .nonEmpty
            case .url, .enumeration:
                self = .ask(textTypes.count)
                textTypes.append(type)
            default: self = .none
            }
        }
    }

    /// The kind of value a field holds.
    enum Kind: UInt8 {
        case text, double, bool, integer, instant, day, object, array
        /// A type no model value is checked against here (`timestamp`, `instantOrDay`).
        case other
    }

    /// One field's rules (plain values).
    struct Rule {
        var kind: Kind
        /// For `text`: the field's strings; for `array`: each element's.
        var text: TextRule
        /// For `double`: the field's `range` and `step`; for `integer`: its `range`.
        var range: ClosedRange<Double>?
        var step: Double?
        /// For `object`, and `array` of objects: the index of the object type's tables in
        /// `Tables.nested`; -1 for none.
        var nested: Int

        init(_ field: FieldSchema, nested: inout [FieldRulePlan], textTypes: inout [FieldType]) {
            range = field.range
            step = field.step
            self.nested = -1
            text = .none
            switch field.type {
            case .string, .nonEmptyString, .url, .enumeration, .data:
                kind = .text
                text = TextRule(field.type, textTypes: &textTypes)
            case .double: kind = .double
            case .bool: kind = .bool
            case .integer: kind = .integer
            case .instant: kind = .instant
            case .day: kind = .day
            case .object(let type):
                kind = .object
                self.nested = nested.count
                nested.append(FieldRulePlan(type))
            case .array(let element):
                kind = .array
                text = TextRule(element, textTypes: &textTypes)
                if case .object(let type) = element {
                    self.nested = nested.count
                    nested.append(FieldRulePlan(type))
                }
            case .timestamp, .instantOrDay: kind = .other
            }
        }
    }
}
