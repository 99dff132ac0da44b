import FerryCore
import FerrySchemas
import FormatJSON
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of one JSON object, read straight from its (validated) bytes into a model: the raw
/// `FieldSource` of a JSON Lines line (issue 7's typed path).
///
/// It mirrors every rule `FieldReader` checks (required vs optional, null as absent for an
/// optional, `nonEmptyString`, `url`, `enumeration`, range, step, `-0` as `0`, integers, instants
/// to the millisecond, base64, days, nested objects and lists) but reports nothing: at anything
/// the general path would report, or anything it does not handle, it sets `failed` and the
/// record goes the general path.
///
/// Members are read in order as the model asks for its fields in canonical order: the member
/// under the cursor either is the field asked for or the field counts as absent. A member left
/// over at the end (unknown, repeated, out of canonical order, or with an escaped key) fails the
/// object in `finish()`.
struct JSONFieldSource: FieldSource {
    private let text: ValidatedJSONText
    private let type: RecordType
    /// The time zone of calendar-day rules (`DecodingOptions.timeZone`).
    let timeZone: TimeZone
    /// Where the next field-schema lookup starts looking.
    private var fieldHint = 0
    /// The offset of the next member's key (its opening quote), or of the object's closing brace.
    private(set) var cursor: Int
    /// The next member's key bytes (`keyStart ..< keyStart + keyLength`); `keyLength` is -1 at
    /// the closing brace and -2 for a key holding an escape (it never matches a field name).
    private var keyStart = 0
    private var keyLength = -1
    /// Where the next member's value starts.
    private var valueStart = 0
    /// A member to step over (a top-level `$collection`): from the offset of its key to the next
    /// member's key or the closing brace; -1 for none.
    private let skipFrom: Int
    private let skipTo: Int
    /// True once something was found that the general path would report, or that this source
    /// does not handle.
    private(set) var failed = false

    /// Starts reading the object whose opening brace is at `objectStart`.
    init(text: ValidatedJSONText, objectStart: Int, type: RecordType, timeZone: TimeZone, skipFrom: Int = -1, skipTo: Int = -1) {
        self.text = text
        self.type = type
        self.timeZone = timeZone
        self.skipFrom = skipFrom
        self.skipTo = skipTo
        cursor = text.skipWhitespace(objectStart + 1)
        loadMember()
    }

    /// True when every member was read and nothing failed; `cursor` is then at the closing brace.
    mutating func finish() -> Bool {
        !failed && keyLength == -1
    }

    // MARK: Members

    /// Reads the key of the member under the cursor.
    private mutating func loadMember() {
        if cursor == skipFrom { cursor = skipTo }
        guard cursor < text.end, text.p[cursor] == JSONSyntax.quote else {
            keyLength = -1
            return
        }
        let stop = text.stringStop(cursor + 1)
        guard stop < text.end, text.p[stop] == JSONSyntax.quote else {
            keyLength = -2
            return
        }
        keyStart = cursor + 1
        keyLength = stop - keyStart
        // Past the colon (validated: only whitespace around it).
        valueStart = text.skipWhitespace(text.skipWhitespace(stop + 1) + 1)
    }

    /// Moves past the value that ended at `i` (and its comma) to the next member.
    private mutating func advance(_ i: Int) {
        var j = text.skipWhitespace(i)
        if j < text.end, text.p[j] == JSONSyntax.comma { j = text.skipWhitespace(j + 1) }
        cursor = j
        loadMember()
    }

    /// True when the member under the cursor is named `name`.
    @inline(__always)
    private func isNext(_ name: String) -> Bool {
        guard keyLength >= 0, name.utf8.count == keyLength else { return false }
        if keyLength == 0 { return true }
        let start = text.p + keyStart
        let length = keyLength
        return name.utf8.withContiguousStorageIfAvailable { key in
            key.baseAddress.map { memcmp($0, start, length) == 0 } ?? false
        } ?? name.utf8.elementsEqual(UnsafeBufferPointer(start: start, count: length))
    }

    /// The index in `type.fields` of the field `name` (the one after the previous is tried first).
    private mutating func fieldIndex(_ name: String) -> Int? {
        let fields = type.fields
        if fieldHint < fields.count, fields[fieldHint].name == name {
            fieldHint += 1
            return fieldHint - 1
        }
        for i in fields.indices where fields[i].name == name {
            fieldHint = i + 1
            return i
        }
        return nil
    }

    /// The field's index in `type.fields` and where its value starts; nil when it is absent or
    /// null (a null is stepped over), and then `failed` for a required field. Nil and `failed`
    /// too when the type has no such field (the general path reads it as a required string: not
    /// handled here).
    private mutating func locate(_ name: String) -> (index: Int, value: Int)? {
        guard !failed else { return nil }
        guard let index = fieldIndex(name) else {
            failed = true
            return nil
        }
        guard isNext(name) else {
            if type.fields[index].isRequired { failed = true }
            return nil
        }
        let value = valueStart
        if text.p[value] == UInt8(ascii: "n") {
            advance(value + 4)
            if type.fields[index].isRequired { failed = true }
            return nil
        }
        return (index, value)
    }

    /// Gives up on the record.
    @inline(__always)
    private mutating func fail() { failed = true }

    // MARK: Strings

    mutating func string(_ name: String) -> String {
        optionalString(name) ?? ""
    }

    mutating func optionalString(_ name: String) -> String? {
        guard let (index, value) = locate(name) else { return nil }
        guard text.p[value] == JSONSyntax.quote else {
            fail()
            return nil
        }
        let (string, end) = text.string(value)
        advance(end)
        guard Self.fits(string, type.fields[index].type) else {
            fail()
            return nil
        }
        return string
    }

    /// True when `string` passes the checks of `FieldReader.string(_:_:at:into:)` for `type`.
    @inline(__always)
    private static func fits(_ string: String, _ type: FieldType) -> Bool {
        switch type {
        case .string: return true
        case .nonEmptyString: return !string.isEmpty
        case .url: return string.isEmpty || FieldReader.isAbsoluteHTTPURL(string)
        case .enumeration(let cases): return cases.contains(string)
        default: return true
        }
    }

    mutating func stringArray(_ name: String) -> [String] {
        list(name) { source, i in
            // A null or any other non-string element is a type error in the general path.
            guard source.text.p[i] == JSONSyntax.quote else { return nil }
            return source.text.string(i)
        }
    }

    // MARK: Numbers and Booleans

    mutating func double(_ name: String) -> Double {
        optionalDouble(name) ?? 0
    }

    mutating func optionalDouble(_ name: String) -> Double? {
        guard let (index, value) = locate(name) else { return nil }
        guard let (number, end) = numberText(at: value) else { return nil }
        advance(end)
        guard let d = FieldReader.double(numberText: number), d.isFinite else {
            fail()
            return nil
        }
        if let range = type.fields[index].range, !range.contains(d) {
            fail()
            return nil
        }
        if let step = type.fields[index].step, (d / step).rounded() != d / step {
            fail()
            return nil
        }
        return d == 0 ? 0 : d  // -0 is 0
    }

    /// The text of the number at `value` and the offset past it; nil (failed) for a non-number.
    private mutating func numberText(at value: Int) -> (UnsafeBufferPointer<UInt8>, Int)? {
        let first = text.p[value]
        guard first == JSONSyntax.minus || JSONSyntax.isDigit(first) else {
            fail()
            return nil
        }
        let end = text.numberEnd(value)
        return (UnsafeBufferPointer(start: text.p + value, count: end - value), end)
    }

    mutating func integer(_ name: String) -> Int64 {
        guard let (_, value) = locate(name) else { return 0 }
        guard let (number, end) = numberText(at: value) else { return 0 }
        advance(end)
        // What the general path reads from `.number(text)`: `Value.int64Value`.
        guard let integer = Self.plainInteger(number) ?? Value.number(String(decoding: number, as: UTF8.self)).int64Value
        else {
            fail()
            return 0
        }
        return integer
    }

    /// `-?[0-9]+` that fits in Int64 (what `Int64(text)` accepts of JSON number text), else nil.
    private static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = bytes.first == JSONSyntax.minus
        if negative { i = 1 }
        guard i < bytes.count, bytes.count - i <= 18 else { return nil }  // 18 digits cannot overflow
        var magnitude: Int64 = 0
        while i < bytes.count {
            guard JSONSyntax.isDigit(bytes[i]) else { return nil }
            magnitude = magnitude * 10 + Int64(bytes[i] - JSONSyntax.zero)
            i += 1
        }
        return negative ? -magnitude : magnitude
    }

    mutating func bool(_ name: String) -> Bool {
        guard let (_, value) = locate(name) else { return false }
        switch text.p[value] {
        case UInt8(ascii: "t"):
            advance(value + 4)
            return true
        case UInt8(ascii: "f"):
            advance(value + 5)
            return false
        default:
            fail()
            return false
        }
    }

    // MARK: Dates and data

    mutating func instant(_ name: String) -> Instant {
        guard let (_, value) = locate(name) else { return Self.epoch }
        guard text.p[value] == JSONSyntax.quote else {
            fail()  // a numeric date: read with a date strategy and noted by the general path
            return Self.epoch
        }
        let stop = text.stringStop(value + 1)
        let parsed: Result<Instant, Instant.ParseError>
        let end: Int
        if stop < text.end, text.p[stop] == JSONSyntax.quote {
            parsed = Instant.parse(bytes: UnsafeRawBufferPointer(start: text.p + value + 1, count: stop - value - 1))
            end = stop + 1
        } else {
            let (string, stringEnd) = text.string(value)
            parsed = Instant.parse(string)
            end = stringEnd
        }
        advance(end)
        // Digits finer than a millisecond are a `lossy-precision` warning in the general path.
        guard case .success(let instant) = parsed, instant.nanoseconds % 1_000_000 == 0 else {
            fail()
            return Self.epoch
        }
        return instant
    }

    /// The placeholder of a failed instant (never used: the model is dropped).
    private static var epoch: Instant { Instant.epoch }

    mutating func day(_ name: String) -> CalendarDay {
        let placeholder = CalendarDay(instant: Self.epoch, in: .gmt)
        guard let text = stringValue(name), let day = CalendarDay(text) else {
            fail()
            return placeholder
        }
        return day
    }

    mutating func data(_ name: String) -> Base64Data? {
        guard !failed, let text = stringValue(name) else { return nil }
        guard let data = Base64Data(base64: text) else {
            fail()
            return nil
        }
        return data
    }

    /// The string value of the field `name`; nil when absent or null (failed when required) or
    /// not a string (failed).
    private mutating func stringValue(_ name: String) -> String? {
        guard let (_, value) = locate(name) else { return nil }
        guard text.p[value] == JSONSyntax.quote else {
            fail()
            return nil
        }
        let (string, end) = text.string(value)
        advance(end)
        return string
    }

    /// Not handled (V1 pet-story dates: instants or days, maybe numeric).
    mutating func instantOrDay(_ name: String) -> InstantOrDay {
        fail()
        return .instant(Self.epoch)
    }

    /// Not handled (vocabulary V1 Timestamp objects).
    mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
        fail()
        return nil
    }

    // MARK: Nested values

    mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
        guard let (_, value) = locate(name) else { return nil }
        var end = value
        guard text.p[value] == JSONSyntax.openBrace, let model = nested(T.self, at: value, end: &end) else {
            fail()
            return nil
        }
        advance(end)
        return model
    }

    mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] {
        list(name) { source, i in
            // A null or any other non-object element is a type error in the general path.
            var end = i
            guard source.text.p[i] == JSONSyntax.openBrace, let model = source.nested(T.self, at: i, end: &end) else { return nil }
            return (model, end)
        }
    }

    /// The elements of the list field `name`, each read by `element` from the offset of its first
    /// byte (the element and the offset past it; nil fails the list); [] when absent or null.
    private mutating func list<Element>(_ name: String, _ element: (Self, Int) -> (Element, end: Int)?) -> [Element] {
        guard let (_, value) = locate(name) else { return [] }
        guard text.p[value] == JSONSyntax.openBracket else {
            fail()
            return []
        }
        var result: [Element] = []
        var i = text.skipWhitespace(value + 1)
        if i < text.end, text.p[i] == JSONSyntax.closeBracket {
            advance(i + 1)
            return result
        }
        result.reserveCapacity(4)  // one allocation for the usual few elements
        while i < text.end {
            guard let (item, end) = element(self, i) else { break }
            result.append(item)
            i = text.skipWhitespace(end)
            guard i < text.end, text.p[i] == JSONSyntax.comma else {
                advance(i + 1)  // the closing bracket
                return result
            }
            i = text.skipWhitespace(i + 1)
        }
        fail()
        return []
    }

    /// The model of the object whose opening brace is at `start` (`end` set past its closing
    /// brace); nil when it fails. (No tuple holding a `T`: unspecialized, its type metadata
    /// would be looked up at every call.)
    private func nested<T: FieldCodable>(_ type: T.Type, at start: Int, end: inout Int) -> T? {
        var source = JSONFieldSource(text: text, objectStart: start, type: T.recordType, timeZone: timeZone)
        let model = T(from: &source)
        guard source.finish() else { return nil }
        end = source.cursor + 1
        return model
    }

    var isValid: Bool { !failed }

    mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if problem != nil { fail() }
    }
}
