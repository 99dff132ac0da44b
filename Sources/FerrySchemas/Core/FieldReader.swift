import FerryCore
import Foundation

/// Reads the fields of one object value against its record type, collecting every problem with its
/// field pointer (DESIGN.md "Hot paths decode domain types straight from `Value`").
///
/// Each getter looks the field up in the `RecordType` (required or optional, range, step, enum
/// values), reports `missing-field`, `type-error`, `out-of-range` or `invalid-value`, and returns
/// a placeholder on error (the record is then invalid). `finish` reports `unknown-field`s.
public struct FieldReader: FieldSource {
    /// The object's members; nil when the value was not an object (already reported).
    public var object: ValueObject? { isObject ? ValueObject(members) : nil }
    /// The members of the object (empty when the value was not one). Held as the array itself so
    /// that a lookup reaches a member without going through an optional `ValueObject` copy.
    private let members: [ValueObject.Member]
    private let isObject: Bool
    public let context: RecordContext
    public let type: RecordType
    /// The problems found so far.
    public var diagnostics: [Diagnostic] = []

    /// True when a member is not a field of `type` or a field appears twice: lookups then take the
    /// first member of a name, and `finish` walks the members to report them. False (the usual
    /// case) lets lookups start where the previous one ended, as members come in field order.
    private var isIrregular = false
    /// When regular: the fields present, one bit per index in `type.fields` (an absent optional
    /// field is then known absent without a scan). All ones when irregular.
    private var presentFields: UInt64 = ~0
    /// Where the next member lookup starts looking.
    private var memberHint = 0
    /// Where the next field-schema lookup starts looking.
    private var fieldHint = 0

    /// Starts reading `value` as a `type`; a non-object is a `type-error`.
    public init(_ value: Value, type: RecordType, at context: RecordContext) {
        self.context = context
        self.type = type
        if case .object(let object) = value {
            self.members = object.members
            self.isObject = true
            if let present = FieldReader.presentFields(object, type) {
                self.presentFields = present
            } else {
                self.isIrregular = true
            }
        } else {
            self.members = []
            self.isObject = false
            diagnostics.append(
                .error(.typeError, "\(context.displayName): expected an object (\(type.name)), found \(value.shortDescription)",
                    at: context.location()))
        }
    }

    /// The fields present as members, one bit per index in `type.fields`, when every member is a
    /// field of `type` and no field appears twice; nil otherwise (irregular).
    private static func presentFields(_ object: ValueObject, _ type: RecordType) -> UInt64? {
        let fields = type.fields
        guard fields.count <= 64 else { return nil }
        var seen: UInt64 = 0
        var hint = 0
        let members = object.members
        // By index, comparing keys in place: iterating the members would copy each one.
        for m in members.indices {
            var found = -1
            if hint < fields.count, fields[hint].name == members[m].key {
                found = hint
            } else {
                for i in fields.indices where fields[i].name == members[m].key {
                    found = i
                    break
                }
            }
            guard found >= 0 else { return nil }
            let bit: UInt64 = 1 << UInt64(found)
            if seen & bit != 0 { return nil }
            seen |= bit
            hint = found + 1
        }
        return seen
    }

    /// True when no error was found so far.
    public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }

    /// The time zone of calendar-day rules (`context.options.timeZone`).
    public var timeZone: TimeZone { context.options.timeZone }

    /// Reports unknown and repeated members (typed input has no room for extra fields) and hands
    /// the diagnostics over. `ignoring` lists members the caller handled itself.
    public mutating func finish(into output: inout [Diagnostic], ignoring: Set<String> = []) {
        if isObject, isIrregular {
            var seen: Set<String> = []
            for member in members {
                if member.key == "$collection" || ignoring.contains(member.key) { continue }
                if type.field(named: member.key) == nil {
                    diagnostics.append(
                        .error(.unknownField, "unknown field \(quoted: member.key) in \(type.name)",
                            at: context.location(of: JSONPointer(tokens: [member.key]))))
                } else if !seen.insert(member.key).inserted {
                    diagnostics.append(
                        .error(.invalidValue, "field \(quoted: member.key) appears twice in \(type.name)",
                            at: context.location(of: JSONPointer(tokens: [member.key]))))
                }
            }
        }
        if !diagnostics.isEmpty {
            output.append(contentsOf: diagnostics)
            diagnostics.removeAll()
        }
    }

    // MARK: Field lookup

    /// The index in `type.fields` of the field `name`, or nil when the type has none (then the
    /// field reads as a required plain string). Fields are usually asked for in canonical order:
    /// the one after the previous is tried first.
    private mutating func fieldIndex(_ name: String) -> Int? {
        let count = type.fields.count
        if fieldHint < count, type.fields[fieldHint].name == name {
            fieldHint += 1
            return fieldHint - 1
        }
        for i in 0..<count where type.fields[i].name == name {
            fieldHint = i + 1
            return i
        }
        return nil
    }

    /// The schema of the field at `index` (a plain string field when the type has none). Copies
    /// the schema: only the checked paths (problems, rare types) ask for it.
    private func schema(at index: Int?, _ name: String) -> FieldSchema {
        guard let index else { return FieldSchema(name, .string) }
        return type.fields[index]
    }

    /// The first member named `name`.
    private mutating func memberValue(_ name: String) -> Value? {
        if !isIrregular {
            if memberHint < members.count, members[memberHint].key == name {
                memberHint += 1
                return members[memberHint - 1].value
            }
            // No name appears twice: look on from the hint, then from the start, so that one
            // member out of place (a field a migration added at the end) costs one scan, not one
            // scan for every field after it.
            for i in memberHint..<max(memberHint, members.count) where members[i].key == name {
                memberHint = i + 1
                return members[i].value
            }
            for i in 0..<min(memberHint, members.count) where members[i].key == name {
                memberHint = i + 1
                return members[i].value
            }
            return nil
        }
        for i in members.indices where members[i].key == name { return members[i].value }
        return nil
    }

    /// The index of a field in `type.fields` (nil when the type has none) and its value; nil value
    /// when absent or null (a `missing-field` error for a required field, unless
    /// `quietWhenMissing`). The field's context is built by the caller when needed
    /// (`context.appending(name)`): only errors and nested values need it.
    private mutating func locate(_ name: String, quietWhenMissing: Bool = false) -> (Int?, Value?) {
        let index = fieldIndex(name)
        return (index, value(of: name, at: index, quietWhenMissing: quietWhenMissing))
    }

    /// The value of the field `name` found at `index` of `type.fields` (see `locate`).
    private mutating func value(of name: String, at index: Int?, quietWhenMissing: Bool) -> Value? {
        guard isObject else { return nil }
        var value: Value? = nil
        if let index, index < 64, presentFields & (1 << UInt64(index)) == 0 {
            // Known absent (regular objects only: `presentFields` is all ones otherwise).
        } else {
            value = memberValue(name)
        }
        guard let value, !value.isNull else {
            let isRequired = index.map { type.fields[$0].isRequired } ?? true
            if isRequired && !quietWhenMissing { reportMissing(name, isNull: value != nil) }
            return nil
        }
        return value
    }

    /// Reports a required field that is absent or null.
    private mutating func reportMissing(_ name: String, isNull: Bool) {
        let fieldContext = context.appending(name)
        let what = isNull ? "is null" : "is missing"
        diagnostics.append(.error(.missingField, "\(fieldContext.displayName) \(what) (required in \(type.name))",
            at: fieldContext.location()))
    }

    /// The schema of a field and its value; nil value when absent or null (a `missing-field` error
    /// for a required field, unless `quietWhenMissing`).
    mutating func lookup(_ name: String, quietWhenMissing: Bool = false) -> (FieldSchema, Value?) {
        let (index, value) = locate(name, quietWhenMissing: quietWhenMissing)
        return (schema(at: index, name), value)
    }

    /// The schema of a field, its value and its context; nil value when absent or null (a
    /// `missing-field` error for a required field, unless `quietWhenMissing`).
    mutating func member(_ name: String, quietWhenMissing: Bool = false) -> (FieldSchema, Value?, RecordContext) {
        let (schema, value) = lookup(name, quietWhenMissing: quietWhenMissing)
        return (schema, value, context.appending(name))
    }

    /// True when the member is present and not null.
    public func has(_ name: String) -> Bool {
        guard let value = object?[name] else { return false }
        return value != .null
    }

    /// The raw value of a member (present and not null), for fields decoded by the caller.
    public func raw(_ name: String) -> Value? {
        guard let value = object?[name], value != .null else { return nil }
        return value
    }

    // MARK: Strings

    /// A required string field (or `""` when an optional-with-default field is absent, as vocabulary
    /// V1 strings are). Checks `nonEmptyString`, `url` and `enumeration` types.
    public mutating func string(_ name: String) -> String {
        let index = fieldIndex(name)
        let fieldType = index.map { type.fields[$0].type } ?? .string
        let quiet = context.options.scalarsAsText && index != nil && FieldReader.isStringType(fieldType)
        guard let value = value(of: name, at: index, quietWhenMissing: quiet) else { return "" }
        if let text = FieldReader.plainString(value, fieldType) { return text }
        return FieldReader.string(value, fieldType, at: context.appending(name), into: &diagnostics) ?? ""
    }

    /// An optional string field.
    public mutating func optionalString(_ name: String) -> String? {
        let (index, value) = locate(name)
        guard let value else { return nil }
        let fieldType = index.map { type.fields[$0].type } ?? .string
        if let text = FieldReader.plainString(value, fieldType) { return text }
        return FieldReader.string(value, fieldType, at: context.appending(name), into: &diagnostics)
    }

    /// The text of a string that fits a plain or non-empty string type without any check that
    /// could fail; nil sends the caller to the checked path (`string(_:_:at:into:)`).
    @inline(__always)
    static func plainString(_ value: Value, _ type: FieldType) -> String? {
        guard case .string(let text) = value else { return nil }
        switch type {
        case .string: return text
        case .nonEmptyString: return text.isEmpty ? nil : text
        default: return nil
        }
    }

    /// A list of strings.
    public mutating func stringArray(_ name: String) -> [String] {
        array(name) { value, context, diagnostics in
            FieldReader.string(value, .string, at: context, into: &diagnostics)
        }
    }

    static func isStringType(_ type: FieldType?) -> Bool {
        switch type {
        case .string?, .url?: return true
        default: return false
        }
    }

    /// Checks a string value against a string-like type; nil (reported) when it does not fit.
    public static func string(_ value: Value, _ type: FieldType, at context: RecordContext,
        into diagnostics: inout [Diagnostic]) -> String?
    {
        guard case .string(let text) = value else {
            diagnostics.append(.error(.typeError, "\(context.displayName): expected a string, found \(value.shortDescription)",
                at: context.location()))
            return nil
        }
        guard !type.admits(text) else { return text }
        switch type {
        case .url:
            diagnostics.append(.error(.invalidValue,
                "\(context.displayName) \(value.shortDescription) is not an absolute http(s) URL (or \"\")", at: context.location()))
        case .enumeration(let cases):
            diagnostics.append(.error(.invalidValue,
                "\(context.displayName) \(value.shortDescription) is not one of \(cases.joined(separator: ", "))",
                at: context.location()))
        default:
            diagnostics.append(.error(.invalidValue, "\(context.displayName) must not be empty", at: context.location()))
        }
        return nil
    }

    /// `http://host...` or `https://host...` (case-insensitive scheme, non-empty host, no spaces).
    public static func isAbsoluteHTTPURL(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let lower = bytes.prefix(8).map { $0 | 0x20 }
        let prefix: Int
        if lower.starts(with: Array("https://".utf8)) {
            prefix = 8
        } else if lower.starts(with: Array("http://".utf8)) {
            prefix = 7
        } else {
            return false
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7f }) else { return false }
        let host = bytes[prefix...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let hostOnly = host.split(separator: UInt8(ascii: "@")).last ?? []
        return !hostOnly.isEmpty && hostOnly.first != UInt8(ascii: ":")
    }

    // MARK: Numbers and Booleans

    /// A required number field (with its range and step).
    public mutating func double(_ name: String) -> Double {
        optionalDouble(name) ?? 0
    }

    /// An optional number field.
    public mutating func optionalDouble(_ name: String) -> Double? {
        let (index, value) = locate(name)
        guard let value else { return nil }
        let range = index.flatMap { type.fields[$0].range }
        let step = index.flatMap { type.fields[$0].step }
        if let number = FieldReader.plainDouble(value, range: range, step: step, scalarsAsText: context.options.scalarsAsText) {
            return number
        }
        return FieldReader.double(value, schema(at: index, name), at: context.appending(name), into: &diagnostics)
    }

    /// A number that passes every check of `double(_:_:at:into:)` (finite, in range, on its
    /// step), or nil to send the caller to the checked path, which reports the problem.
    @inline(__always)
    static func plainDouble(_ value: Value, _ schema: FieldSchema, scalarsAsText: Bool = false) -> Double? {
        plainDouble(value, range: schema.range, step: schema.step, scalarsAsText: scalarsAsText)
    }

    /// `plainDouble(_:_:scalarsAsText:)` given the field's range and step. With `scalarsAsText`
    /// (CSV, XML) a string of plain decimal text counts as the number it spells, as the checked
    /// path reads it.
    @inline(__always)
    static func plainDouble(_ value: Value, range: ClosedRange<Double>?, step: Double?, scalarsAsText: Bool) -> Double? {
        let number: Double
        switch value {
        case .number(let text):
            guard let d = DecimalText.fastDouble(text) ?? Double(text) else { return nil }
            number = d
        case .double(let d): number = d
        case .integer(let i): number = Double(i)
        case .string(let text) where scalarsAsText:
            // Only the fast grammar: other decimal text (exponents, many digits) takes the checked path.
            guard let d = DecimalText.fastDouble(text) else { return nil }
            number = d
        default: return nil
        }
        guard number.isFinite, FieldSchema.isInRange(number, range), FieldSchema.isOnStep(number, step) else { return nil }
        return number == 0 ? 0 : number
    }

    /// Reads a finite number and checks the field's range and step.
    public static func double(_ value: Value, _ schema: FieldSchema, at context: RecordContext,
        into diagnostics: inout [Diagnostic]) -> Double?
    {
        var value = value
        if context.options.scalarsAsText, case .string(let text) = value, DecimalText(text) != nil {
            value = .number(text)
        }
        guard value.isNumber else {
            diagnostics.append(.error(.typeError, "\(context.displayName): expected a number, found \(value.shortDescription)",
                at: context.location()))
            return nil
        }
        guard let number = value.doubleValue, number.isFinite else {
            diagnostics.append(.error(.invalidValue, "\(context.displayName) \(value.shortDescription) is not a finite number",
                at: context.location()))
            return nil
        }
        if let range = schema.range, !FieldSchema.isInRange(number, range) {
            diagnostics.append(.error(.outOfRange,
                "\(context.displayName) \(FieldReader.numberText(number)) is out of range \(FieldReader.rangeText(range))",
                at: context.location()))
            return nil
        }
        if let step = schema.step, !FieldSchema.isOnStep(number, step) {
            diagnostics.append(.error(.invalidValue,
                "\(context.displayName) \(FieldReader.numberText(number)) is not a multiple of \(FieldReader.numberText(step))",
                at: context.location()))
            return nil
        }
        return number == 0 ? 0 : number  // -0 is 0
    }

    /// A required integer field: `1.0` is accepted; a fraction or a value beyond Int64 is a `type-error`.
    public mutating func integer(_ name: String) -> Int64 {
        let (_, value) = locate(name)
        guard let value else { return 0 }
        if case .integer(let i) = value { return i }
        return FieldReader.integer(value, at: context.appending(name), into: &diagnostics) ?? 0
    }

    /// Reads an integer (never rounded).
    public static func integer(_ value: Value, at context: RecordContext, into diagnostics: inout [Diagnostic]) -> Int64? {
        var value = value
        if context.options.scalarsAsText, case .string(let text) = value, DecimalText(text) != nil {
            value = .number(text)
        }
        guard value.isNumber else {
            diagnostics.append(.error(.typeError, "\(context.displayName): expected an integer, found \(value.shortDescription)",
                at: context.location()))
            return nil
        }
        guard let integer = value.int64Value else {
            diagnostics.append(.error(.typeError,
                "\(context.displayName): expected an integer (Int64), found \(value.shortDescription)", at: context.location()))
            return nil
        }
        return integer
    }

    /// A required Boolean field.
    public mutating func bool(_ name: String) -> Bool {
        let (_, value) = locate(name)
        guard let value else { return false }
        if case .bool(let flag) = value { return flag }
        if context.options.scalarsAsText, case .string(let text) = value, text == "true" || text == "false" {
            return text == "true"
        }
        let fieldContext = context.appending(name)
        diagnostics.append(.error(.typeError, "\(fieldContext.displayName): expected a Boolean, found \(value.shortDescription)",
            at: fieldContext.location()))
        return false
    }

    // MARK: Dates and data

    /// A required instant field, cut to milliseconds (`lossy-precision` warning when finer).
    public mutating func instant(_ name: String) -> Instant {
        optionalInstant(name) ?? Instant.epoch
    }

    /// An optional instant field.
    public mutating func optionalInstant(_ name: String) -> Instant? {
        let (_, value) = locate(name)
        guard let value else { return nil }
        // An RFC 3339 string to the millisecond (never decimal text, so CSV's numeric dates do not apply).
        if case .string(let text) = value, case .success(let instant) = Instant.parse(text), instant.nanoseconds % 1_000_000 == 0 {
            return instant
        }
        let fieldContext = context.appending(name)
        guard let instant = FieldReader.instant(value, at: fieldContext, into: &diagnostics) else { return nil }
        return FieldReader.cutToMilliseconds(instant, at: fieldContext, into: &diagnostics)
    }

    /// Cuts an instant to milliseconds, with a `lossy-precision` warning when that drops digits.
    public static func cutToMilliseconds(_ instant: Instant, at context: RecordContext,
        into diagnostics: inout [Diagnostic]) -> Instant
    {
        let (cut, lost) = instant.truncatedToMilliseconds()
        if lost {
            diagnostics.append(.warning(.lossyPrecision,
                "\(context.displayName) has precision finer than milliseconds (\(instant.seconds)s + \(instant.nanoseconds)ns); cut to \(cut)",
                at: context.location()))
        }
        return cut
    }

    /// Reads an instant: an RFC 3339 string, or a number read with the date strategy (with an
    /// `assumption` note naming it). Sub-millisecond digits are kept (the caller cuts them).
    public static func instant(_ value: Value, at context: RecordContext, into diagnostics: inout [Diagnostic]) -> Instant? {
        instant(value, at: context, strategy: context.options.dateStrategy, assumption: nil, into: &diagnostics)
    }

    /// `instant(_:at:into:)` with numbers read by `strategy`, and `assumption` reported for a
    /// number instead of the note naming the strategy (nil: that note).
    static func instant(_ value: Value, at context: RecordContext, strategy: DateStrategy, assumption: Diagnostic?,
        into diagnostics: inout [Diagnostic]) -> Instant?
    {
        var numberText: String?
        switch value {
        case .string(let text):
            if context.options.scalarsAsText, DecimalText(text) != nil {
                numberText = text
            } else {
                switch Instant.parse(text) {
                case .success(let instant): return instant
                case .failure(let error):
                    diagnostics.append(.error(.invalidValue, "\(context.displayName) \(value.shortDescription) \(error)",
                        at: context.location()))
                    return nil
                }
            }
        case .number(let text): numberText = text
        case .integer(let i): numberText = String(i)
        case .double(let d): numberText = d.isFinite ? d.description : nil
        default: break
        }
        guard let numberText else {
            diagnostics.append(.error(.typeError,
                "\(context.displayName): expected an RFC 3339 instant, found \(value.shortDescription)", at: context.location()))
            return nil
        }
        guard strategy != .iso8601 else {
            diagnostics.append(.error(.typeError,
                "\(context.displayName): expected an RFC 3339 string (--date-strategy iso8601), found number \(numberText)",
                at: context.location()))
            return nil
        }
        guard let instant = Instant.fromNumber(numberText, strategy: strategy) else {
            diagnostics.append(.error(.outOfRange,
                "\(context.displayName) \(numberText) is not a date in the years 0001...9999 as \(strategy.unitDescription)",
                at: context.location()))
            return nil
        }
        diagnostics.append(assumption ?? .note(.assumption, strategy.assumptionMessage, at: context.location()))
        return instant
    }

    /// A required calendar-day field (`YYYY-MM-DD`).
    public mutating func day(_ name: String) -> CalendarDay {
        let (_, value, fieldContext) = member(name)
        guard let value else { return CalendarDay.placeholder }
        guard case .string(let text) = value else {
            diagnostics.append(.error(.typeError, "\(fieldContext.displayName): expected a day YYYY-MM-DD, found \(value.shortDescription)",
                at: fieldContext.location()))
            return CalendarDay.placeholder
        }
        guard let day = CalendarDay(text) else {
            diagnostics.append(.error(.invalidValue, "\(fieldContext.displayName) \(value.shortDescription) is not a day YYYY-MM-DD",
                at: fieldContext.location()))
            return CalendarDay.placeholder
        }
        return day
    }

    /// A required field holding an instant or a day (V1 pet-story `since`, `birthDate`).
    public mutating func instantOrDay(_ name: String) -> InstantOrDay {
        let (_, value, fieldContext) = member(name)
        guard let value else { return .day(CalendarDay.placeholder) }
        if case .string(let text) = value, let day = CalendarDay(text) { return .day(day) }
        guard let instant = FieldReader.instant(value, at: fieldContext, into: &diagnostics) else {
            return .day(CalendarDay.placeholder)
        }
        return .instant(FieldReader.cutToMilliseconds(instant, at: fieldContext, into: &diagnostics))
    }

    /// An optional base64 field.
    public mutating func data(_ name: String) -> Base64Data? {
        let (_, value) = locate(name)
        guard let value else { return nil }
        let fieldContext = context.appending(name)
        guard case .string(let text) = value else {
            diagnostics.append(.error(.typeError, "\(fieldContext.displayName): expected base64 text, found \(value.shortDescription)",
                at: fieldContext.location()))
            return nil
        }
        guard let data = Base64Data(base64: text) else {
            diagnostics.append(.error(.invalidValue,
                "\(fieldContext.displayName) is not standard base64 with padding (RFC 4648 section 4)", at: fieldContext.location()))
            return nil
        }
        return data
    }

    /// A required Firestore Timestamp field.
    public mutating func timestamp(_ name: String) -> FirestoreTimestamp? {
        let (_, value, fieldContext) = member(name)
        guard let value else { return nil }
        if value == .string("") {
            diagnostics.append(.error(.missingField, "\(fieldContext.displayName) is empty (required in \(type.name))",
                at: fieldContext.location()))
            return nil
        }
        if value.isNumber || (context.options.scalarsAsText && value.stringValue.map { DecimalText($0) != nil } == true) {
            // A bare number here comes from an export tool, which writes Unix time, not from
            // `JSONEncoder`: seconds since 1970 unless the user names a strategy, and said loudly.
            let strategy = context.options.explicitDateStrategy ?? .secondsSince1970
            guard let instant = FieldReader.instant(value, at: fieldContext, strategy: strategy,
                assumption: context.options.explicitDateStrategy == nil ? .warning(
                    .assumption, "a number in a Firestore Timestamp field is read as \(strategy.unitDescription) (--date-strategy \(strategy.rawValue)); give --date-strategy to read it otherwise",
                    at: fieldContext.location()) : nil,
                into: &diagnostics)
            else { return nil }
            return FirestoreTimestamp(instant: instant)
        }
        switch FirestoreTimestamp.read(value, scalarsAsText: context.options.scalarsAsText) {
        case .success(let timestamp): return timestamp
        case .failure(let error):
            switch error {
            case .wrongShape:
                diagnostics.append(.error(.typeError,
                    "\(fieldContext.displayName): expected a Timestamp {\"_seconds\": S, \"_nanoseconds\": N} or an RFC 3339 string, found \(value.shortDescription)",
                    at: fieldContext.location()))
            case .notInteger(let pointer):
                let memberContext = JSONPointer(tokens: fieldContext.path.tokens + pointer.tokens)
                var c = fieldContext
                c.path = memberContext
                diagnostics.append(.error(.typeError, "\(c.displayName): expected an integer", at: c.location()))
            case .outOfRange(let pointer):
                var c = fieldContext
                c.path = JSONPointer(tokens: fieldContext.path.tokens + pointer.tokens)
                diagnostics.append(.error(.outOfRange,
                    "\(c.displayName) is out of range (nanoseconds 0...999999999, years 0001...9999)", at: c.location()))
            case .badText(let parseError):
                diagnostics.append(.error(.invalidValue, "\(fieldContext.displayName) \(value.shortDescription) \(parseError)",
                    at: fieldContext.location()))
            }
            return nil
        }
    }

    // MARK: Nested values

    /// A required nested object decoded by `decode`.
    public mutating func object<T>(_ name: String,
        _ decode: (Value, RecordContext, inout [Diagnostic]) -> T) -> T?
    {
        let (_, value) = locate(name)
        guard let value else { return nil }
        return decode(value, context.appending(name), &diagnostics)
    }

    /// A required list whose elements `element` decodes (nil elements are dropped: reported).
    /// From text formats (CSV, XML) an absent list is an empty one: a CSV file has no cells to
    /// write for `[]`, so reading it back must not call the list missing. There an empty text
    /// (`<smells/>`, `<smells></smells>`, an empty cell) is an empty list too: text formats have
    /// no other way to spell one without a type marker.
    public mutating func array<T>(_ name: String,
        _ element: (Value, RecordContext, inout [Diagnostic]) -> T?) -> [T]
    {
        let (_, value) = locate(name, quietWhenMissing: context.options.scalarsAsText)
        guard let value else { return [] }
        if context.options.scalarsAsText, value == .string("") { return [] }
        let fieldContext = context.appending(name).materialized()
        guard case .array(let items) = value else {
            diagnostics.append(.error(.typeError, "\(fieldContext.displayName): expected a list, found \(value.shortDescription)",
                at: fieldContext.location()))
            return []
        }
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let decoded = element(item, fieldContext.appending(index), &diagnostics) { result.append(decoded) }
        }
        return result
    }

    /// Reports `problem` made for this reader's context, if any.
    public mutating func check(_ problem: ((RecordContext) -> Diagnostic)?) {
        if let problem { diagnostics.append(problem(context)) }
    }

    /// A nested object of type `T`, read by its own `FieldReader`.
    public mutating func object<T: FieldCodable>(_ name: String, as type: T.Type) -> T? {
        object(name) { T(value: $0, at: $1, diagnostics: &$2) }
    }

    /// A list of `T`s, each read by its own `FieldReader`.
    public mutating func array<T: FieldCodable>(_ name: String, of type: T.Type) -> [T] {
        array(name) { T(value: $0, at: $1, diagnostics: &$2) }
    }

    static func numberText(_ number: Double) -> String { NumberText.ecmaScript(number) ?? String(number) }

    static func rangeText(_ range: ClosedRange<Double>) -> String {
        numberText(range.lowerBound) + "..." + numberText(range.upperBound)
    }
}

extension RecordContext {
    /// The value's name in messages: its pointer inside the record without the leading slash
    /// (`tastes/0/value`), or `record` for the record itself.
    public var displayName: String {
        let text = path.description
        return text.isEmpty ? "record" : String(text.dropFirst())
    }
}

extension Value {
    /// A short quotation of the value for messages: `"five"`, `7`, `object`.
    var shortDescription: String {
        switch self {
        case .string(let s):
            let cut = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return DiagnosticText.quoted(cut)
        case .number(let text): return text
        case .integer(let i): return String(i)
        case .double(let d): return NumberText.ecmaScript(d) ?? String(d)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

extension Instant {
    /// 1970-01-01T00:00:00Z, the placeholder of an invalid required instant.
    public static let epoch = Instant(unchecked: 0)

    init(unchecked seconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = 0
    }
}

extension CalendarDay {
    /// 1970-01-01, the placeholder of an invalid required day.
    static let placeholder = CalendarDay(instant: .epoch, in: .gmt)
}

extension DateStrategy {
    /// "seconds since 2001-01-01T00:00:00Z" and so on.
    public var unitDescription: String {
        switch self {
        case .deferredToDate: return "seconds since 2001-01-01T00:00:00Z"
        case .secondsSince1970: return "seconds since 1970-01-01T00:00:00Z"
        case .millisecondsSince1970: return "milliseconds since 1970-01-01T00:00:00Z"
        case .iso8601: return "RFC 3339 strings"
        }
    }

    /// The note that names the strategy assumed for numeric dates (SCHEMAS.md "Numeric dates").
    public var assumptionMessage: String {
        "numeric dates read as \(unitDescription) (--date-strategy \(rawValue))"
    }
}

extension FieldReader {
    /// True when `path` is a media path a dataset can hold: relative to the dataset root, `/`
    /// separators, no `..` or empty segment, not absolute (SCHEMAS.md "pet-story V2": paths
    /// relative to the dataset root). The empty path passes: `nonEmptyString` reports it.
    public static func isAcceptableMediaPath(_ path: String) -> Bool {
        guard !path.isEmpty else { return true }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return !(path.hasPrefix("/") || path.contains("\\") || segments.contains(where: { $0 == ".." || $0.isEmpty }))
    }

    /// The `invalid-value` error for a media path that is not acceptable; `context` is the path
    /// field's.
    public static func mediaPathError(_ path: String, at context: RecordContext) -> Diagnostic {
        .error(.invalidValue,
            "\(context.displayName) \(quoted: path) is not a relative path with \"/\" separators inside the dataset",
            at: context.location())
    }

    /// The check of a model's `path` field for `FieldSource.check`: nil when `path` is acceptable,
    /// else the error, made from the model's context.
    public static func mediaPathProblem(_ path: String) -> ((RecordContext) -> Diagnostic)? {
        guard !isAcceptableMediaPath(path) else { return nil }
        return { context in mediaPathError(path, at: context.appending("path")) }
    }
}
