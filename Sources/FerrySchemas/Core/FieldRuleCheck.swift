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
public struct FieldRuleCheck: FieldSink {
    /// The descriptor checked against.
    public let type: RecordType
    /// True once a rule was found broken.
    public private(set) var failed = false
    /// The fields written so far, one bit per index in `type.fields`.
    private var written: UInt64 = 0
    /// Where the next field lookup starts: models write in canonical order.
    private var hint = 0

    /// A check of the fields of a `type`.
    public init(type: RecordType) {
        self.type = type
        if type.fields.count > 64 { failed = true }  // one bit per field
    }

    /// True when `model` keeps every field rule of its descriptor (see the type's documentation).
    public static func passes<M: FieldCodable>(_ model: M) -> Bool {
        passes(model, as: M.recordType)
    }

    /// True when `model`'s fields keep every rule of `type`.
    static func passes<M: FieldCodable>(_ model: M, as type: RecordType) -> Bool {
        var check = FieldRuleCheck(type: type)
        model.encode(to: &check)
        check.finish()
        return !check.failed
    }

    /// Fails when a required field was not written.
    public mutating func finish() {
        guard !failed else { return }
        let fields = type.fields
        for index in fields.indices where fields[index].isRequired && written & (1 << UInt64(index)) == 0 {
            failed = true
            return
        }
    }

    /// The index of the field `key`, marked written; nil (failed) when the type has no such field
    /// or it was written already.
    private mutating func field(_ key: String) -> Int? {
        guard !failed else { return nil }
        let count = type.fields.count
        var found: Int?
        if hint < count, type.fields[hint].name == key {
            found = hint
        } else {
            for index in 0..<count where type.fields[index].name == key {
                found = index
                break
            }
        }
        guard let index = found, written & (1 << UInt64(index)) == 0 else {
            failed = true
            return nil
        }
        written |= 1 << UInt64(index)
        hint = index + 1
        return index
    }

    /// Fails unless `rule` holds.
    @inline(__always)
    private mutating func require(_ rule: Bool) {
        if !rule { failed = true }
    }

    /// True when a string fits a field of type `fieldType` as the reader reads it.
    private static func admits(_ text: String, as fieldType: FieldType) -> Bool {
        switch fieldType {
        case .string, .nonEmptyString, .url, .enumeration: return fieldType.admits(text)
        case .data: return true  // `Base64Data`, valid by construction
        default: return false
        }
    }

    /// True when a number fits the field as the reader reads it (finite, in range, on step, not -0).
    private static func admits(_ number: Double, as schema: FieldSchema) -> Bool {
        guard case .double = schema.type, number.isFinite, !(number == 0 && number.sign == .minus) else { return false }
        return FieldSchema.isInRange(number, schema.range) && FieldSchema.isOnStep(number, schema.step)
    }

    public mutating func add(_ key: String, _ text: String) {
        guard let index = field(key) else { return }
        require(Self.admits(text, as: type.fields[index].type))
    }

    public mutating func add(_ key: String, _ number: Double) {
        guard let index = field(key) else { return }
        require(Self.admits(number, as: type.fields[index]))
    }

    public mutating func add(_ key: String, _ flag: Bool) {
        guard let index = field(key) else { return }
        require(type.fields[index].type == .bool)
    }

    public mutating func add(_ key: String, _ integer: Int64) {
        guard let index = field(key) else { return }
        require(type.fields[index].type == .integer)
    }

    public mutating func add(_ key: String, _ instant: Instant) {
        guard let index = field(key) else { return }
        require(type.fields[index].type == .instant && !instant.truncatedToMilliseconds().lostPrecision)
    }

    public mutating func add(_ key: String, _ day: CalendarDay) {
        guard let index = field(key) else { return }
        require(type.fields[index].type == .day)
    }

    public mutating func add(_ key: String, _ strings: [String]) {
        guard let index = field(key) else { return }
        guard case .array(let element) = type.fields[index].type else { return require(false) }
        for text in strings where !Self.admits(text, as: element) { return require(false) }
    }

    public mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        guard let index = field(key) else { return }
        guard case .object(let nested) = type.fields[index].type else { return require(false) }
        require(Self.passes(model, as: nested))
    }

    public mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard let index = field(key) else { return }
        guard case .array(.object(let nested)) = type.fields[index].type else { return require(false) }
        for model in models where !Self.passes(model, as: nested) { return require(false) }
    }

    /// A built value cannot be checked here: the check fails.
    public mutating func add(_ key: String, _ value: Value) {
        guard field(key) != nil else { return }
        require(false)
    }
}
