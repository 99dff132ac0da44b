import FerryCore
import Foundation

/// Reads the fields of one object against its record type through a format's `RecordCursor`,
/// collecting every problem with its field pointer (DESIGN.md "Hot paths decode domain types
/// straight from `Value`"): the one reader of every model, whatever cursor it walks.
///
/// Each getter looks the field up in the `RecordType` (required or optional, range, step, enum
/// values), reports `missing-field`, `type-error`, `out-of-range` or `invalid-value`, and returns
/// a placeholder on error (the record is then invalid). `finish` reports `unknown-field`s and
/// repeated fields. The messages are made from the item's `Value` by the checks of `FieldReader`
/// (`FieldReader+Checks.swift`), so every cursor reports the same text.
///
/// Its reads are `@inlinable`: a module that reads models over a cursor of its own (`JSONLineCursor`)
/// gets the reader specialised for that cursor, each field read a direct call into the cursor,
/// not a generic call through the protocol's witness table (Docs/performance.md, "One model
/// reader"). The checked paths it calls (`FieldReader.string(_:_:at:into:)` and the others) and
/// the diagnostics it builds stay out of line: only a value with a problem reaches them.
///
/// Nested objects and list elements are read by the same reader: it swaps in the child's cursor
/// and type, reads the child's model, and swaps the parent's back. The way down from the
/// record (`steps`) is kept as keys and indexes; a `RecordContext` is made from it only when a
/// diagnostic or a check across fields asks for one, so a nested value with no problem costs no
/// context and no reader of its own.
public struct ModelReader<Cursor: RecordCursor>: FieldSource {
    /// The cursor, as the reads left it; visible to the inlined reads.
    @usableFromInline var _cursor: Cursor
    /// The context of the object the reader was started on.
    @usableFromInline let rootContext: RecordContext
    /// The members and elements entered from `rootContext` down to the object read now.
    @usableFromInline var steps = PathSteps()
    /// The type of the object read now (the started one's, or a nested object's while it is
    /// read), by pointer (`RecordType.table`: taken with no reference counted, as worker threads
    /// read records side by side).
    @usableFromInline var _table: RecordType.Table
    /// The fields of the object read now.
    @inlinable var _fields: UnsafeBufferPointer<FieldSchema> { _table.fields }
    /// `rootContext.options.scalarsAsText`, read by most fields.
    @usableFromInline let scalarsAsText: Bool
    /// The problems found so far (a nested object's included).
    public var diagnostics: [Diagnostic] = []
    /// The index in `diagnostics` of the first problem of the object read now (`isValid`).
    @usableFromInline var objectStart = 0
    /// Where the next field-schema lookup starts looking.
    @usableFromInline var fieldHint = 0

    /// The context of the object read now: the started one's, or a nested object's or list
    /// element's (made from `steps` when asked).
    public var context: RecordContext {
        steps.isEmpty ? rootContext : nestedContext()
    }

    /// The name of the record type of the object read now.
    public var typeName: String { _table.name }

    /// Starts reading the object `cursor` walks as a `model`; a non-object is a `type-error`.
    @inlinable
    public init<T: FieldCodable>(_ cursor: Cursor, model: T.Type, at context: RecordContext) {
        self._cursor = cursor
        self.rootContext = context
        self._table = T.recordType.table
        self.scalarsAsText = context.scalarsAsText
        if cursor.isObject {
            self._cursor.start(fields: _fields)
        } else {
            reportNotAnObject()
        }
    }

    /// Starts reading the object `cursor` walks as a `model`, as `init(_:model:at:)` does, in this
    /// reader's context and with its storage: a caller reading record after record in one context
    /// (a batch's lines) keeps one reader instead of making and freeing one a record. Problems of
    /// the previous read still held are dropped (`finish(into:ignoring:)` hands them over).
    @inlinable
    public mutating func restart<T: FieldCodable>(_ cursor: Cursor, model: T.Type) {
        _cursor = cursor
        _table = T.recordType.table
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
        steps.reset()
        objectStart = 0
        fieldHint = 0
        if cursor.isObject {
            _cursor.start(fields: _fields)
        } else {
            reportNotAnObject()
        }
    }

    /// `rootContext` followed by `steps` (out of line: diagnostics and checks ask for it).
    @usableFromInline
    func nestedContext() -> RecordContext {
        var result = rootContext
        for step in steps.all {
            switch step {
            case .key(let k): result = result.appending(steps.keys[k])
            case .field(let field): result = result.appending(field.pointee.name)
            case .index(let index): result = result.appending(index)
            }
        }
        return result
    }

    /// Reports that the value read is not an object (out of line: the rare case).
    @usableFromInline
    mutating func reportNotAnObject() {
        diagnostics.append(
            .error(.typeError, "\(context.displayName): expected an object (\(typeName)), found \(_cursor.wholeValue.shortDescription)",
                at: context.location()))
    }

    /// True when no error was found so far in the object read now (a nested object's own
    /// problems and those of the objects inside it, not its parent's).
    @inlinable
    public var isValid: Bool {
        objectStart == diagnostics.count || !diagnostics[objectStart...].contains { $0.severity == .error }
    }

    /// The time zone of calendar-day rules (`context.options.timeZone`).
    @inlinable
    public var timeZone: TimeZone { rootContext.options.timeZone }

    /// Reports unknown and repeated members (typed input has no room for extra fields) and hands
    /// the diagnostics over. `ignoring` lists members the caller handled itself.
    @inlinable
    public mutating func finish(into output: inout [Diagnostic], ignoring: Set<String> = []) {
        if let keys = _cursor.irregularKeys(fields: _fields) { reportIrregular(keys, ignoring: ignoring) }
        if !diagnostics.isEmpty {
            output.append(contentsOf: diagnostics)
            diagnostics.removeAll()
        }
    }

    /// Reports the members of `keys` (the object's, in input order) that are not fields of the
    /// type, and the fields that appear twice, each where that occurrence stands.
    @usableFromInline
    mutating func reportIrregular(_ keys: [String], ignoring: Set<String>) {
        let context = context
        var seen: [String: Int] = [:]
        for key in keys {
            if ignoring.contains(key) { continue }
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            if key == "$collection" {
                // One names a JSON Lines record's collection (a document's element may carry one
                // too): passed over. A second names another, and the record cannot be in both.
                if occurrence > 0 {
                    diagnostics.append(
                        .error(.invalidValue, "\(quoted: key) appears twice in \(typeName); a record belongs to one collection",
                            at: context.location(ofMember: key, occurrence: occurrence)))
                }
                continue
            }
            if !_fields.contains(where: { $0.name == key }) {
                diagnostics.append(
                    .error(.unknownField, "unknown field \(quoted: key) in \(typeName)",
                        at: context.location(ofMember: key, occurrence: occurrence)))
            } else if occurrence > 0 {
                diagnostics.append(
                    .error(.invalidValue, "field \(quoted: key) appears twice in \(typeName)",
                        at: context.location(ofMember: key, occurrence: occurrence)))
            }
        }
    }

    // MARK: Field lookup

    /// The index in `_fields` of the field `name`, or nil when the type has none (then the
    /// field reads as a required plain string). Fields are usually asked for in canonical order:
    /// the one after the previous is tried first.
    @inlinable @inline(__always)
    mutating func fieldIndex(_ name: String) -> Int? {
        let count = _fields.count
        if fieldHint < count, _fields[fieldHint].name == name {
            fieldHint += 1
            return fieldHint - 1
        }
        for i in 0..<count where _fields[i].name == name {
            fieldHint = i + 1
            return i
        }
        return nil
    }

    /// The schema of the field at `index` (a plain string field when the type has none). Copies
    /// the schema: only the checked paths (problems, rare types) ask for it.
    @usableFromInline
    func schema(at index: Int?, _ name: String) -> FieldSchema {
        guard let index else { return FieldSchema(name, .string) }
        return _fields[index]
    }

    /// The index of a field in `type.fields` (nil when the type has none) and its item; nil item
    /// when absent or null (a `missing-field` error for a required field, unless
    /// `quietWhenMissing`). The field's context is built by the caller when needed
    /// (`context.appending(name)`): only errors and nested values need it.
    @inlinable @inline(__always)
    mutating func locate(_ name: String, quietWhenMissing: Bool = false) -> (Int?, Cursor.Item?) {
        let index = fieldIndex(name)
        return (index, item(of: name, at: index, quietWhenMissing: quietWhenMissing))
    }

    /// The item of the field `name` found at `index` of `_fields` (see `locate`).
    @inlinable @inline(__always)
    mutating func item(of name: String, at index: Int?, quietWhenMissing: Bool) -> Cursor.Item? {
        guard _cursor.isObject else { return nil }
        let item = _cursor.member(name, field: index)
        guard let item, !_cursor.isNull(item) else {
            let isRequired = index.map { _fields[$0].isRequired } ?? true
            if isRequired && !quietWhenMissing { reportMissing(name, isNull: item != nil) }
            return nil
        }
        return item
    }

    /// Reports a required string of a text format (CSV, XML) that is absent, unless the format
    /// holds a place for it: an empty CSV cell is `""`, but a CSV with no column for it and an XML
    /// record with no element for it lack the field, as a JSON record without it does (SCHEMAS.md
    /// "Formats"). A null (a list's) stays quiet, as before.
    /// True when the field is read as `""` (an empty cell, or an optional with a default), which
    /// the caller checks as it checks a `""` written out.
    @usableFromInline @discardableResult
    mutating func reportMissingUnlessEmptyCell(_ name: String, at index: Int?) -> Bool {
        // An optional with a default (vocabulary V1's strings) is "" when absent, in any format.
        guard _cursor.isObject, let index, _fields[index].isRequired else { return false }
        if let item = _cursor.member(name, field: index), _cursor.isNull(item) { return false }
        if _cursor.hasPlace(name, field: index) ?? context.hasPlace(ofMember: name) { return true }
        reportMissing(name, isNull: false)
        return false
    }

    /// Reports a required field that is absent or null.
    @usableFromInline
    mutating func reportMissing(_ name: String, isNull: Bool) {
        let fieldContext = context.appending(name)
        let what = isNull ? "is null" : "is missing"
        diagnostics.append(.error(.missingField, "\(fieldContext.displayName) \(what) (required in \(typeName))",
            at: fieldContext.location()))
    }

    // MARK: Strings

    /// A required string field (or `""` when an optional-with-default field is absent, as vocabulary
    /// V1 strings are). Checks `nonEmptyString`, `url` and `enumeration` types.
    @inlinable
    public mutating func string(_ name: String) -> String {
        let index = fieldIndex(name)
        // The type's admission, not the type: an enumeration's cases copied out of it would count
        // a reference every record (`TextAdmission`).
        let admission = index.map { _table.admissions[$0] } ?? .any
        // Every string type: an unquoted empty cell is "" (SCHEMAS.md "Formats: CSV"), so a
        // `nonEmptyString` or `enumeration` field breaks the same rule as a quoted "" or `<x/>`.
        let quiet = scalarsAsText && index != nil && admission.isText
        guard let item = item(of: name, at: index, quietWhenMissing: quiet) else {
            if quiet, reportMissingUnlessEmptyCell(name, at: index), !admission.admits(""), let index {
                _ = FieldReader.string(.string(""), _fields[index].type, at: context.appending(name), into: &diagnostics)
            }
            return ""
        }
        return checkedString(item, admission, index, name) ?? ""
    }

    /// An optional string field.
    @inlinable
    public mutating func optionalString(_ name: String) -> String? {
        let (index, item) = locate(name)
        guard let item else { return nil }
        return checkedString(item, index.map { _table.admissions[$0] } ?? .any, index, name)
    }

    /// The text of a string item that fits the type of field `index` (nil: a plain string), whose
    /// `admission` is given, else nil (reported).
    @inlinable @inline(__always)
    mutating func checkedString(_ item: Cursor.Item, _ admission: TextAdmission, _ index: Int?, _ name: String) -> String? {
        if let text = _cursor.text(of: item), admission.admits(text) { return text }
        return FieldReader.string(_cursor.value(of: item), index.map { _fields[$0].type } ?? .string, at: context.appending(name),
                                  into: &diagnostics)
    }

    /// A list of strings.
    @inlinable
    public mutating func stringArray(_ name: String) -> [String] {
        guard let item = listItem(locate(name, quietWhenMissing: scalarsAsText).1) else { return [] }
        let cursor = _cursor
        var result: [String] = []
        let count = cursor.elementCountHint(of: item)
        if count > 0 { result.reserveCapacity(count) }
        // Elements that are not strings, reported after the walk: the walk's closure then does
        // not capture the reader (which would copy it), only the list and this array.
        var others: [(Value, Int)] = []
        let isList = cursor.forEachElement(of: item) { element, index in
            if index == 0, count == 0 { result.reserveCapacity(4) }
            if let text = cursor.text(of: element) {
                result.append(text)
            } else {
                others.append((cursor.value(of: element), index))
            }
        }
        // Only a string passes the checked path, and a string has a text: each of these is reported.
        for (value, index) in others { _ = checkedElementString(value, name, index) }
        if !isList { reportTypeError(name, expected: "a list", found: cursor.value(of: item)) }
        return result
    }

    /// The checked path of a list element that is not a plain string (out of line).
    @usableFromInline
    mutating func checkedElementString(_ value: Value, _ name: String, _ index: Int) -> String? {
        FieldReader.string(value, .string, at: context.appending(name).appending(index), into: &diagnostics)
    }

    // MARK: Numbers and Booleans

    /// A required number field (with its range and step).
    @inlinable
    public mutating func double(_ name: String) -> Double {
        optionalDouble(name) ?? 0
    }

    /// An optional number field.
    @inlinable
    public mutating func optionalDouble(_ name: String) -> Double? {
        let (index, item) = locate(name)
        guard let item else { return nil }
        let range = index.flatMap { _fields[$0].range }
        let step = index.flatMap { _fields[$0].step }
        if let number = _cursor.plainDouble(item, range: range, step: step, scalarsAsText: scalarsAsText) {
            return number
        }
        return FieldReader.double(_cursor.value(of: item), schema(at: index, name), at: context.appending(name), into: &diagnostics)
    }

    /// A required integer field: `1.0` is accepted; a fraction or a value beyond Int64 is a
    /// `type-error`, one outside the field's range `out-of-range`.
    @inlinable
    public mutating func integer(_ name: String) -> Int64 {
        optionalInteger(name) ?? 0
    }

    /// An optional integer field, read as `integer(_:)` reads one; nil when absent or null.
    @inlinable
    public mutating func optionalInteger(_ name: String) -> Int64? {
        let (index, item) = locate(name)
        guard let item else { return nil }
        let range = index.flatMap { _fields[$0].range }
        if let integer = _cursor.plainInteger(item), FieldSchema.isInRange(Double(integer), range) { return integer }
        return FieldReader.integer(_cursor.value(of: item), range: range, at: context.appending(name), into: &diagnostics)
    }

    /// A required Boolean field.
    @inlinable
    public mutating func bool(_ name: String) -> Bool {
        let (_, item) = locate(name)
        guard let item else { return false }
        if let flag = _cursor.plainBool(item) { return flag }
        if scalarsAsText, let text = _cursor.text(of: item), text == "true" || text == "false" {
            return text == "true"
        }
        reportTypeError(name, expected: "a Boolean", found: _cursor.value(of: item))
        return false
    }

    /// Reports a field holding a value of another kind than `expected` ("a Boolean", "a list"):
    /// out of line, the rare case.
    @usableFromInline
    mutating func reportTypeError(_ name: String, expected: String, found value: Value) {
        let fieldContext = context.appending(name)
        diagnostics.append(.error(.typeError,
            "\(fieldContext.displayName): expected \(expected), found \(value.shortDescription)",
            at: fieldContext.location()))
    }

    // MARK: Nested values

    /// The item of a list field as `locate` found it (asked quiet when missing for text formats);
    /// nil when absent or null (a `missing-field` error when required, reported by `locate`) or
    /// when it reads as an empty list.
    /// From text formats (CSV, XML) an absent list is an empty one: a CSV file has no cells to
    /// write for `[]`, so reading it back must not call the list missing. There an empty text
    /// (`<smells/>`, `<smells></smells>`, an empty cell) is an empty list too: text formats have
    /// no other way to spell one without a type marker. So is a text of XML white space only
    /// (`<smells>` and `</smells>` on two lines): an element holding items holds no text of its
    /// own (XML 1.0 section 2.10).
    @inlinable
    mutating func listItem(_ item: Cursor.Item?) -> Cursor.Item? {
        guard let item else { return nil }
        if scalarsAsText, let text = _cursor.text(of: item),
           text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
        {
            return nil
        }
        return item
    }


    /// Reports `problem` made for this reader's context, if any.
    @inlinable
    public mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if let problem { diagnostics.append(problem(context)) }
    }

    /// A nested object of type `T`, read by this reader over the member's cursor.
    @inlinable
    public mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
        let (index, item) = locate(name)
        guard let item else { return nil }
        steps.append(step(name, at: index))
        defer { steps.removeLast() }
        return readNested(T.self, at: item)
    }

    /// A list of `T`s, each read by this reader over the element's cursor.
    @inlinable
    public mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] {
        let (field, listItem) = locate(name, quietWhenMissing: scalarsAsText)
        guard let item = self.listItem(listItem) else { return [] }
        let cursor = _cursor
        var result: [T] = []
        let count = cursor.elementCountHint(of: item)
        if count > 0 { result.reserveCapacity(count) }
        steps.append(step(name, at: field))
        let isList = cursor.forEachElement(of: item) { element, index in
            // A cursor that cannot tell the count: room for the usual few, allocated once.
            if index == 0, count == 0 { result.reserveCapacity(4) }
            steps.append(.index(index))
            result.append(readNested(T.self, at: element))
            steps.removeLast()
        }
        steps.removeLast()
        if !isList { reportTypeError(name, expected: "a list", found: cursor.value(of: item)) }
        return result
    }

    /// The step to the member `name`, whose field is at `index` of `_fields` (nil: the type has none).
    @inlinable @inline(__always)
    mutating func step(_ name: String, at index: Int?) -> PathStep {
        guard let index, let fields = _fields.baseAddress else {
            steps.keys.append(name)
            return .key(steps.keys.count - 1)
        }
        return .field(fields + index)
    }

    /// Reads a `T` from the object at `item` (a member or element of the object read now, whose
    /// step the caller has pushed): the child's cursor, type and field hint are swapped in for
    /// the read and the parent's swapped back after, as a reader of its own would have them.
    @inlinable
    mutating func readNested<T: FieldCodable>(_ model: T.Type, at item: Cursor.Item) -> T {
        var cursor = _cursor.cursor(at: item)
        let parentTable = _table
        _table = T.recordType.table
        swap(&_cursor, &cursor)
        let parentHint = fieldHint
        let parentStart = objectStart
        fieldHint = 0
        objectStart = diagnostics.count
        if _cursor.isObject {
            _cursor.start(fields: _fields)
        } else {
            reportNotAnObject()
        }
        let model = T(from: &self)
        if let keys = _cursor.irregularKeys(fields: _fields) { reportIrregular(keys, ignoring: []) }
        swap(&_cursor, &cursor)
        _table = parentTable
        fieldHint = parentHint
        objectStart = parentStart
        return model
    }

    /// Reads a `T` from `cursor`, appending its problems to `diagnostics`.
    @inlinable
    public static func read<T: FieldCodable>(_ type: T.Type, _ cursor: Cursor, at context: RecordContext,
        into diagnostics: inout [Diagnostic]) -> T
    {
        var reader = ModelReader(cursor, model: T.self, at: context)
        let model = T(from: &reader)
        reader.finish(into: &diagnostics)
        return model
    }
}
