import FerryCore
import Foundation

/// Where a model's fields come from, in the model's own words (`title`, `rating`): written once per
/// model in `FieldCodable.init(from:)`, read by every source (issue 7: the typed path).
///
/// `ModelReader` implements it over every format's `RecordCursor` (`FieldReader` over a parsed
/// `Value`, `CSVCursor` over a CSV row's cells, `JSONLineCursor` over a JSON Lines line's bytes):
/// it reports every problem with its field pointer and returns placeholders on error. The typed
/// lane keeps a model only when the reader reported nothing; any other record goes the general
/// path, so problems are always reported by the reader over the record's `Value`, exactly once.
///
/// Each getter is asked for fields in canonical order (SCHEMAS.md tables) and checks what the
/// field's `FieldSchema` says (required, range, step, enumeration values).
public protocol FieldSource {
    /// A required string (`nonEmptyString`, `url` and `enumeration` types checked).
    mutating func string(_ name: String) -> String
    /// An optional string: nil when absent or null.
    mutating func optionalString(_ name: String) -> String?
    /// A required finite number, within the field's range and step; `-0` reads as `0`.
    mutating func double(_ name: String) -> Double
    /// An optional number.
    mutating func optionalDouble(_ name: String) -> Double?
    /// A required integer (Int64); `1.0` is accepted.
    mutating func integer(_ name: String) -> Int64
    /// An optional integer (Int64), within the field's range; nil when absent or null.
    mutating func optionalInteger(_ name: String) -> Int64?
    /// A required Boolean.
    mutating func bool(_ name: String) -> Bool
    /// A required RFC 3339 instant (or numeric date), cut to milliseconds.
    mutating func instant(_ name: String) -> Instant
    /// A required calendar day `YYYY-MM-DD`.
    mutating func day(_ name: String) -> CalendarDay
    /// A required instant or day (V1 pet-story `since`, `birthDate`).
    mutating func instantOrDay(_ name: String) -> InstantOrDay
    /// An optional base64 field (RFC 4648 section 4).
    mutating func data(_ name: String) -> Base64Data?
    /// A required Firestore Timestamp (vocabulary V1); nil on error.
    mutating func timestamp(_ name: String) -> FirestoreTimestamp?
    /// A required list of strings.
    mutating func stringArray(_ name: String) -> [String]
    /// A nested object of type `T`; nil when absent, null or invalid.
    mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T?
    /// A required list of `T`s (elements that fail are dropped: the record is then invalid).
    mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T]
    /// True when no error was found so far (a model's checks across fields run only then).
    var isValid: Bool { get }
    /// The time zone of calendar-day rules (`--time-zone`, UTC by default; SCHEMAS.md pet-story
    /// V2: a `birthDate` after the day of `createdAt` there is an error).
    var timeZone: TimeZone { get }
    /// A check beyond one field's type (`lastUpdatedAt` not before `createdAt`, a media path):
    /// `problem` is nil when it passes, else it makes the diagnostic from the record's context.
    /// `FieldReader` reports it; a raw source gives up on the record.
    mutating func check(_ problem: ((RecordContext) -> Diagnostic)?)
}

/// Where a model writes its fields, in canonical order: `ObjectBuilder` (a canonical `Value`) or a
/// writer of output bytes (the typed path). Absent optionals are not written.
public protocol FieldSink {
    mutating func add(_ key: String, _ text: String)
    mutating func add(_ key: String, _ number: Double)
    mutating func add(_ key: String, _ flag: Bool)
    mutating func add(_ key: String, _ integer: Int64)
    /// Written as RFC 3339 in UTC (`Instant.description`).
    mutating func add(_ key: String, _ instant: Instant)
    /// Written as `YYYY-MM-DD`.
    mutating func add(_ key: String, _ day: CalendarDay)
    mutating func add(_ key: String, _ strings: [String])
    mutating func add<M: FieldCodable>(_ key: String, _ model: M)
    mutating func add<M: FieldCodable>(_ key: String, _ models: [M])
    /// A value built by the caller (a Firestore Timestamp object, an instant-or-day).
    mutating func add(_ key: String, _ value: Value)
}

extension FieldSink {
    /// An instant or a day (V1 pet-story `since`, `birthDate`), written as the one it is: RFC 3339
    /// in UTC or `YYYY-MM-DD` (`InstantOrDay.text`).
    @inlinable
    public mutating func add(_ key: String, _ date: InstantOrDay) {
        switch date {
        case .instant(let instant): add(key, instant)
        case .day(let day): add(key, day)
        }
    }
    @inlinable
    public mutating func addOptional(_ key: String, _ text: String?) { if let text { add(key, text) } }
    @inlinable
    public mutating func addOptional(_ key: String, _ number: Double?) { if let number { add(key, number) } }
    @inlinable
    public mutating func addOptional(_ key: String, _ integer: Int64?) { if let integer { add(key, integer) } }
    @inlinable
    public mutating func addOptional(_ key: String, _ data: Base64Data?) { if let data { add(key, data.base64) } }
    @inlinable
    public mutating func addOptional<M: FieldCodable>(_ key: String, _ model: M?) { if let model { add(key, model) } }
}

/// A model whose fields are read from any `FieldSource` and written to any `FieldSink`: the one
/// place its field list is spelled out. `init(value:at:diagnostics:)` and `value` follow from it.
public protocol FieldCodable: SchemaModel {
    /// Reads the fields in canonical order. On a failed source the model holds placeholders and
    /// must not be used.
    init<Source: FieldSource>(from source: inout Source)
    /// Writes the fields in canonical order, absent optionals left out.
    func encode<Sink: FieldSink>(to sink: inout Sink)
    /// True when `init(from:)` (or a nested model's) runs a check across fields
    /// (`FieldSource.check`): a rule check of a built model (`FieldRuleCheck`) does not see those,
    /// so a migrated model of this type is also walked by `AcrossFieldsCheck`. False by default.
    static var checksAcrossFields: Bool { get }
    /// The model's own check across fields, the one its `init(from:)` hands its source
    /// (`FieldSource.check`) once its fields are read: nil when it passes, else the diagnostic
    /// made from the record's context. `timeZone` is the time zone of calendar-day rules
    /// (`FieldSource.timeZone`). Nested models' checks are their own. Nil by default.
    func problemAcrossFields(in timeZone: TimeZone) -> ((RecordContext) -> Diagnostic)?
}

extension FieldCodable {
    public static var checksAcrossFields: Bool { false }
    @inlinable
    public func problemAcrossFields(in timeZone: TimeZone) -> ((RecordContext) -> Diagnostic)? { nil }

    /// The general path: reads `value` with a `FieldReader`, reporting every problem.
    public init(value: Value, at context: RecordContext, diagnostics: inout [Diagnostic]) {
        var reader = FieldReader(value, model: Self.self, at: context)
        self.init(from: &reader)
        reader.finish(into: &diagnostics)
    }

    /// The canonical value: fields in canonical order, absent optionals omitted, numbers typed.
    public var value: Value {
        var builder = ObjectBuilder(capacity: Self.recordType.fields.count)
        encode(to: &builder)
        return builder.value
    }
}
