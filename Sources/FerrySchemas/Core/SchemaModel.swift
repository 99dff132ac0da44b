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
///
/// Collects the members in an array of its own and wraps it once at the end: appending here is
/// specialized and inlined, where `ValueObject`'s own `append` is a call into another module per
/// member (issue 7).
struct ObjectBuilder: FieldSink {
    var members: [ValueObject.Member] = []

    init(capacity: Int = 16) { members.reserveCapacity(capacity) }

    mutating func add(_ key: String, _ value: Value) { members.append((key: key, value: value)) }
    mutating func add(_ key: String, _ text: String) { add(key, .string(text)) }
    mutating func add(_ key: String, _ number: Double) { add(key, .double(number)) }
    mutating func add(_ key: String, _ flag: Bool) { add(key, .bool(flag)) }
    mutating func add(_ key: String, _ integer: Int64) { add(key, .integer(integer)) }
    mutating func add(_ key: String, _ instant: Instant) { add(key, .string(instant.description)) }
    mutating func add(_ key: String, _ day: CalendarDay) { add(key, .string(day.description)) }
    mutating func add(_ key: String, _ strings: [String]) { add(key, .array(strings.map { .string($0) })) }
    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) { add(key, .array(models.map(\.value))) }
    mutating func add<M: FieldCodable>(_ key: String, _ model: M) { add(key, model.value) }

    var value: Value { .object(ValueObject(members)) }
}
