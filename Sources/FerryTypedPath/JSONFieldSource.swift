import FerryCore
import FerrySchemas
import FormatJSON
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of one JSON object, read straight from its bytes into a model: the raw
/// `FieldSource` of a JSON Lines line (issue 7's typed path).
///
/// Every byte it reads is checked against `JSONParser`'s grammar (`JSONLineValidator`: strings,
/// numbers, literals, separators, nesting) as it reads it; anything the parser would refuse fails
/// the object.
///
/// It mirrors every rule `FieldReader` checks (required vs optional, null as absent for an
/// optional, `nonEmptyString`, `url`, `enumeration`, range, step, `-0` as `0`, integers, instants
/// to the millisecond, base64, days, nested objects and lists) but reports nothing: at anything
/// the general path would report, or anything it does not handle, it sets `failed` and the
/// record goes the general path.
///
/// Members are read in order as the model asks for its fields in canonical order: the member
/// under the cursor either is the field asked for or the field counts as absent. A member left
/// over at the end (unknown, repeated, out of canonical order, with an escaped key, or not
/// well-formed) fails the object in `finish()`.
struct JSONFieldSource: FieldSource {
    let json: JSONLineValidator
    /// The nesting level of the object (1: the line's top-level object).
    let level: Int
    /// The fields of the object's record type, where its descriptor keeps them (valid while the
    /// decode runs: nested objects' sources copy two words, no reference counted).
    private let fields: UnsafeBufferPointer<FieldSchema>
    /// Where the time zone of calendar-day rules stands (`DecodingOptions.timeZone`) while the
    /// decode runs.
    let timeZoneStorage: UnsafePointer<TimeZone>
    /// Where short strings without escapes are made (nil: each is made anew); it outlives the
    /// decode (unmanaged: no reference counted per string).
    let strings: Unmanaged<ShortStringCache>?
    /// Where the next field-schema lookup starts looking.
    private var fieldHint = 0
    /// The offset of the next member's key (its opening quote), or of the object's closing brace.
    private(set) var cursor: Int
    /// What is at the cursor.
    private var next = Next.refused

    private enum Next {
        /// A member: its key's opening quote; the rest of the key is checked only as it is
        /// compared with the field asked for (a member never read fails the object).
        case member
        /// The closing brace.
        case closed
        /// Anything the parser would refuse there.
        case refused
    }
    /// True once something was found that the general path would report, or that this source
    /// does not handle.
    private(set) var failed = false

    /// Starts reading an object at nesting `level` whose members go on as `members` says (what
    /// follows its opening brace, `JSONLineValidator.firstItem`; nil: not well-formed), of the
    /// record type whose fields are `fields`. The pointers must stay valid while the source is
    /// read (`read(_:timeZone:_:accept:)` keeps them so).
    init(validator: JSONLineValidator, members: JSONLineValidator.Next?, level: Int, fields: UnsafeBufferPointer<FieldSchema>,
        timeZone: UnsafePointer<TimeZone>, strings: Unmanaged<ShortStringCache>?)
    {
        json = validator
        self.level = level
        self.fields = fields
        self.timeZoneStorage = timeZone
        self.strings = strings
        cursor = 0
        guard validator.allowsContainer(atLevel: level) else {
            failed = true  // too deep
            return
        }
        load(members)
    }

    /// Reads a `T` with a source made by `make` from `T`'s fields and `timeZone`, with the
    /// pointers the source needs valid for the read; nil when `accept` refuses the source after it.
    @inline(__always)
    static func read<T: FieldCodable>(
        _ type: T.Type, timeZone: UnsafePointer<TimeZone>,
        _ make: (UnsafeBufferPointer<FieldSchema>, UnsafePointer<TimeZone>) -> JSONFieldSource,
        accept: (inout JSONFieldSource) -> Bool
    ) -> T? {
        // The table, not `fields`: no reference counted per object read.
        var source = make(T.recordType.table.fields, timeZone)
        let model = T(from: &source)
        // Returned by its last use (moved), not copied by a conditional expression.
        guard accept(&source) else { return nil }
        return model
    }

    /// The time zone of calendar-day rules (`DecodingOptions.timeZone`).
    var timeZone: TimeZone { timeZoneStorage.pointee }

    /// True when every member was read and nothing failed; `cursor` is then at the closing brace.
    mutating func finish() -> Bool {
        !failed && next == .closed
    }

    // MARK: Members

    /// Moves to the next member or the closing brace.
    @inline(__always)
    private mutating func load(_ item: JSONLineValidator.Next?) {
        switch item {
        case .item(let key):
            cursor = key
            next = json.p[key] == JSONSyntax.quote ? .member : .refused
        case .closed(let end):
            cursor = end - 1
            next = .closed
        case nil:
            next = .refused
        }
    }

    /// Moves past the value that ended at `i` (and its comma) to the next member.
    @inline(__always)
    mutating func advance(_ i: Int) {
        load(json.afterItem(i, close: JSONSyntax.closeBrace))
    }

    /// Where the value of the member under the cursor starts when its key is `"name"` (and a
    /// colon follows); nil otherwise. The key needs no other check: a field name is plain ASCII
    /// (no quote, backslash or control character), so the bytes that match it are a well-formed
    /// JSON string; a key holding an escape never matches.
    @inline(__always)
    private func valueIfNext(_ name: String) -> Int? {
        guard next == .member else { return nil }
        let length = name.utf8.count
        let close = cursor + 1 + length
        guard close < json.end, json.p[close] == JSONSyntax.quote else { return nil }
        let start = json.p + cursor + 1
        let same = name.utf8.withContiguousStorageIfAvailable { key in
            key.baseAddress.map { Self.sameBytes($0, start, length) } ?? (length == 0)
        } ?? name.utf8.elementsEqual(UnsafeBufferPointer(start: start, count: length))
        return same ? json.memberValue(afterKey: close + 1) : nil
    }

    /// True when the `length` bytes at `a` and at `b` are the same: compared as two overlapping
    /// words or half-words (a field name is short), by `memcmp` beyond 16 bytes.
    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        let (x, y) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        if length >= 8 {
            guard length <= 16 else { return memcmp(a, b, length) == 0 }
            return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                && x.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                    == y.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        }
        if length >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
        }
        var i = 0
        while i < length {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// The index in `fields` of the field `name`: the one after the previous, inline (models ask
    /// for their fields in canonical order), else `searchFieldIndex(_:)`.
    @inline(__always)
    private mutating func fieldIndex(_ name: String) -> Int? {
        if fieldHint < fields.count, fields[fieldHint].name == name {
            fieldHint += 1
            return fieldHint - 1
        }
        return searchFieldIndex(name)
    }

    /// The index in `fields` of the field `name`, searched from the start.
    @inline(never)
    private mutating func searchFieldIndex(_ name: String) -> Int? {
        for i in fields.indices where fields[i].name == name {
            fieldHint = i + 1
            return i
        }
        return nil
    }

    /// The field's index in `fields` and where its value starts; nil when it is absent or
    /// null (a null is stepped over), and then `failed` for a required field. Nil and `failed`
    /// too when the type has no such field (the general path reads it as a required string: not
    /// handled here). Inline: every field read starts here.
    @inline(__always)
    mutating func locate(_ name: String) -> (index: Int, value: Int)? {
        guard !failed else { return nil }
        guard let index = fieldIndex(name) else {
            failed = true
            return nil
        }
        guard let value = valueIfNext(name) else {
            if fields[index].isRequired { failed = true }
            return nil
        }
        if json.p[value] == UInt8(ascii: "n") {
            guard let end = json.literal(value) else {
                failed = true
                return nil
            }
            advance(end)
            if fields[index].isRequired { failed = true }
            return nil
        }
        return (index, value)
    }

    /// Gives up on the record.
    @inline(__always)
    mutating func fail() { failed = true }

    // MARK: Strings

    mutating func string(_ name: String) -> String {
        optionalString(name) ?? ""
    }

    mutating func optionalString(_ name: String) -> String? {
        guard let (index, value) = locate(name) else { return nil }
        guard let (string, end) = readString(value) else {
            fail()
            return nil
        }
        advance(end)
        guard Self.fits(string, fields[index].type) else {
            fail()
            return nil
        }
        return string
    }

    /// The string at `value` (checked and unescaped) and the offset past it; nil for a non-string
    /// or one the parser would refuse.
    @inline(__always)
    func readString(_ value: Int) -> (text: String, end: Int)? {
        guard json.p[value] == JSONSyntax.quote, let (end, escaped) = json.string(value) else { return nil }
        // A short string with no escape, and 16 bytes of the line from its start: from the cache.
        let length = end - value - 2
        if !escaped, length <= 15, value + 17 <= json.end, let strings {
            let p = json.p
            return (strings._withUnsafeGuaranteedRef { $0.string(p, start: value + 1, length: length) }, end)
        }
        return (ValidatedJSONText(p: json.p, end: end - 1).text(from: value + 1, escaped: escaped), end)
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
            source.readString(i)
        }
    }

    // MARK: Numbers and Booleans

    mutating func double(_ name: String) -> Double {
        optionalDouble(name) ?? 0
    }

    mutating func optionalDouble(_ name: String) -> Double? {
        guard let (index, value) = locate(name) else { return nil }
        guard let (plain, end) = json.decimal(value) else {
            fail()
            return nil
        }
        advance(end)
        // A decimal of up to 19 digits without an exponent is read as its digits were checked;
        // any other number as `FieldReader` reads its text.
        let number = UnsafeBufferPointer(start: json.p + value, count: end - value)
        guard let d = plain ?? FieldReader.double(numberText: number), d.isFinite else {
            fail()
            return nil
        }
        if let range = fields[index].range, !range.contains(d) {
            fail()
            return nil
        }
        if let step = fields[index].step, (d / step).rounded() != d / step {
            fail()
            return nil
        }
        return d == 0 ? 0 : d  // -0 is 0
    }

    /// The text of the number at `value` and the offset past it; nil (failed) for a non-number or
    /// one the parser would refuse.
    mutating func numberText(at value: Int) -> (UnsafeBufferPointer<UInt8>, Int)? {
        guard let end = json.number(value) else {
            fail()
            return nil
        }
        return (UnsafeBufferPointer(start: json.p + value, count: end - value), end)
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
    static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
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
        let first = json.p[value]
        guard first == UInt8(ascii: "t") || first == UInt8(ascii: "f"), let end = json.literal(value) else {
            fail()
            return false
        }
        advance(end)
        return first == UInt8(ascii: "t")
    }

    // MARK: Dates and data

    mutating func instant(_ name: String) -> Instant {
        guard let (_, value) = locate(name) else { return Self.epoch }
        // Not a string: a numeric date, read with a date strategy and noted by the general path.
        guard json.p[value] == JSONSyntax.quote, let (end, escaped) = json.string(value) else {
            fail()
            return Self.epoch
        }
        advance(end)
        guard let instant = instant(of: JSONStringSpan(start: value + 1, end: end - 1, escaped: escaped)) else {
            fail()
            return Self.epoch
        }
        return instant
    }

    /// The instant the checked string `span` holds, as `Instant.parse` reads it; nil for text that
    /// is not an RFC 3339 instant, or one finer than a millisecond (a `lossy-precision` warning in
    /// the general path).
    func instant(of span: JSONStringSpan) -> Instant? {
        let parsed: Result<Instant, Instant.ParseError>
        if span.escaped {
            parsed = Instant.parse(text(span))
        } else {
            parsed = Instant.parse(bytes: UnsafeRawBufferPointer(start: json.p + span.start, count: span.count))
        }
        guard case .success(let instant) = parsed, instant.nanoseconds % 1_000_000 == 0 else { return nil }
        return instant
    }

    /// The placeholder of a failed instant (never used: the model is dropped).
    static var epoch: Instant { Instant.epoch }

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
        guard let (string, end) = readString(value) else {
            fail()
            return nil
        }
        advance(end)
        return string
    }

    // MARK: Nested values

    mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
        guard let (_, value) = locate(name) else { return nil }
        var end = value
        guard let model = nested(T.self, at: value, level: level + 1, end: &end) else {
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
            guard let model = source.nested(T.self, at: i, level: source.level + 2, end: &end) else { return nil }
            return (model, end)
        }
    }

    /// The elements of the list field `name`, each read by `element` from the offset of its first
    /// byte (the element and the offset past it; nil fails the list); [] when absent or null.
    private mutating func list<Element>(_ name: String, _ element: (Self, Int) -> (Element, end: Int)?) -> [Element] {
        var result: [Element] = []
        let read = forEachElement(name) { source, i in
            guard let (item, end) = element(source, i) else { return nil }
            if result.isEmpty { result.reserveCapacity(4) }  // one allocation for the usual few elements
            result.append(item)
            return end
        }
        return read ? result : []
    }

    /// The model of the object at `start` (nil unless its opening brace is there), nested at
    /// `level` (`end` set past its closing brace); nil when it fails. (No tuple holding a `T`:
    /// unspecialized, its type metadata would be looked up at every call.)
    private func nested<T: FieldCodable>(_ type: T.Type, at start: Int, level: Int, end: inout Int) -> T? {
        guard json.p[start] == JSONSyntax.openBrace else { return nil }
        let (json, strings) = (self.json, self.strings)
        var close = start
        let model = Self.read(T.self, timeZone: timeZoneStorage) { fields, timeZone in
            JSONFieldSource(
                validator: json, members: json.firstItem(afterOpen: start, close: JSONSyntax.closeBrace), level: level,
                fields: fields, timeZone: timeZone, strings: strings)
        } accept: { source in
            close = source.cursor
            return source.finish()
        }
        if model != nil { end = close + 1 }
        return model
    }

    var isValid: Bool { !failed }

    mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if problem != nil { fail() }
    }
}
