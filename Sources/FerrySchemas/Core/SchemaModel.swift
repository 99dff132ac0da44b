import FerryCore

/// A typed record or nested type of a schema version, decoded straight from a `Value` and encoded
/// back in canonical field order (DESIGN.md "Hot paths decode domain types straight from `Value`").
public protocol SchemaModel: Sendable, Hashable {
    /// The type's descriptor: its name and fields in canonical order.
    static var recordType: RecordType { get }
    /// Decodes `value`, appending every problem found (with its field pointer) to `diagnostics`.
    /// On errors the model holds placeholders and must not be used; check the diagnostics.
    init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic])
    /// The canonical value: fields in canonical order, absent optionals omitted, numbers typed.
    var value: Value { get }
}

/// A top-level record type (one per collection).
public protocol CollectionModel: SchemaModel {
    /// The collection's name in its schema version (`wineTastingNotes`).
    static var collection: String { get }
    /// The record's id, when it has one.
    var recordID: String? { get }
}

extension SchemaModel {
    /// Decodes a nested value as this type (the shape `FieldReader.object` and `array` take).
    public static func decode(_ value: Value, _ context: RecordContext, _ diagnostics: inout [Diagnostic]) -> Self {
        Self(value: value, at: context, diagnostics: &diagnostics)
    }
}

/// Builds canonical objects in field order.
struct ObjectBuilder {
    var object = ValueObject()

    init(capacity: Int = 16) { object.reserveCapacity(capacity) }

    mutating func add(_ key: String, _ value: Value) { object.append(key, value) }
    mutating func add(_ key: String, _ text: String) { object.append(key, .string(text)) }
    mutating func add(_ key: String, _ number: Double) { object.append(key, .double(number)) }
    mutating func add(_ key: String, _ flag: Bool) { object.append(key, .bool(flag)) }
    mutating func add(_ key: String, _ instant: Instant) { object.append(key, .string(instant.description)) }
    mutating func add(_ key: String, _ day: CalendarDay) { object.append(key, .string(day.description)) }
    mutating func add(_ key: String, _ strings: [String]) { object.append(key, .array(strings.map { .string($0) })) }
    mutating func add<M: SchemaModel>(_ key: String, _ models: [M]) { object.append(key, .array(models.map(\.value))) }
    mutating func add<M: SchemaModel>(_ key: String, _ model: M) { object.append(key, model.value) }
    mutating func addOptional(_ key: String, _ text: String?) { if let text { object.append(key, .string(text)) } }
    mutating func addOptional(_ key: String, _ number: Double?) { if let number { object.append(key, .double(number)) } }
    mutating func addOptional(_ key: String, _ data: Base64Data?) { if let data { object.append(key, .string(data.base64)) } }
    mutating func addOptional<M: SchemaModel>(_ key: String, _ model: M?) { if let model { object.append(key, model.value) } }

    var value: Value { .object(object) }
}
