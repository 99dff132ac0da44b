import FerryCore
import Foundation

/// The model reader over a parsed `Value` (`ValueCursor`): the schema-free record's, and that of
/// the formats read into a `Value`. Its static checks are the ones every `ModelReader` reports
/// problems with, from the problem's `Value`, so every cursor gives the same text.
public typealias FieldReader = ModelReader<ValueCursor>

extension FieldReader {
    /// Starts reading `value` as a `model`; a non-object is a `type-error`.
    public init<T: FieldCodable>(_ value: Value, model: T.Type, at context: RecordContext) {
        self.init(ValueCursor(value), model: model, at: context)
    }

    /// The text of a string that fits a plain or non-empty string type without any check that
    /// could fail; nil sends the caller to the checked path (`string(_:_:at:into:)`).
    @inlinable @inline(__always)
    static func plainString(_ text: String, _ type: FieldType) -> String? {
        switch type {
        case .string: return text
        case .nonEmptyString: return text.isEmpty ? nil : text
        default: return nil
        }
    }

    /// True for every type whose value is a string (`admits(_:)` says which strings).
    @inlinable
    static func isTextType(_ type: FieldType?) -> Bool {
        switch type {
        case .string?, .nonEmptyString?, .url?, .enumeration?: return true
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
    /// The host is what follows the scheme up to `/`, `?` or `#`, past its last `@` (the last
    /// non-empty part between `@`s); it must not be empty or start with `:`. Read on the text's
    /// UTF-8 in place: URL fields are checked for every record that has one.
    public static func isAbsoluteHTTPURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isAbsoluteHTTPURL(utf8: $0) }
    }

    private static func isAbsoluteHTTPURL(utf8 b: UnsafeBufferPointer<UInt8>) -> Bool {
        // The scheme's bytes all have 0x20 set, so `| 0x20` compares letters case-insensitively.
        func startsLowercased(_ scheme: StaticString) -> Bool {
            let n = scheme.utf8CodeUnitCount
            guard b.count >= n else { return false }
            for i in 0..<n where b[i] | 0x20 != scheme.utf8Start[i] { return false }
            return true
        }
        let prefix: Int
        if startsLowercased("https://") {
            prefix = 8
        } else if startsLowercased("http://") {
            prefix = 7
        } else {
            return false
        }
        for byte in b where byte <= 0x20 || byte == 0x7f { return false }
        var hostEnd = prefix
        while hostEnd < b.count, b[hostEnd] != UInt8(ascii: "/"), b[hostEnd] != UInt8(ascii: "?"), b[hostEnd] != UInt8(ascii: "#") {
            hostEnd += 1
        }
        var lastPartStart = -1
        var partStart = prefix
        for i in prefix...hostEnd where i == hostEnd || b[i] == UInt8(ascii: "@") {
            if i > partStart { lastPartStart = partStart }
            partStart = i + 1
        }
        return lastPartStart >= 0 && b[lastPartStart] != UInt8(ascii: ":")
    }


    /// A number that passes every check of `double(_:_:at:into:)` (finite, in the field's range,
    /// on its step), or nil to send the caller to the checked path, which reports the problem.
    /// With `scalarsAsText` (CSV, XML) a string of plain decimal text counts as the number it
    /// spells, as the checked path reads it.
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
            reportOutOfRange(number, range, at: context, into: &diagnostics)
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

    /// `out-of-range`: `number` lies outside its field's `range`.
    static func reportOutOfRange(_ number: Double, _ range: ClosedRange<Double>, at context: RecordContext,
                                 into diagnostics: inout [Diagnostic]) {
        diagnostics.append(.error(.outOfRange,
            "\(context.displayName) \(FieldReader.numberText(number)) is out of range \(FieldReader.rangeText(range))",
            at: context.location()))
    }

    /// Reads an integer (never rounded), within `range` when one is given (`out-of-range` otherwise).
    public static func integer(_ value: Value, range: ClosedRange<Double>? = nil, at context: RecordContext,
                               into diagnostics: inout [Diagnostic]) -> Int64? {
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
        if let range, !FieldSchema.isInRange(Double(integer), range) {
            reportOutOfRange(Double(integer), range, at: context, into: &diagnostics)
            return nil
        }
        return integer
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

    /// Reads a calendar day `YYYY-MM-DD`; nil (reported) otherwise.
    @usableFromInline
    static func day(_ value: Value, at context: RecordContext, into diagnostics: inout [Diagnostic]) -> CalendarDay? {
        guard case .string(let text) = value else {
            diagnostics.append(.error(.typeError, "\(context.displayName): expected a day YYYY-MM-DD, found \(value.shortDescription)",
                at: context.location()))
            return nil
        }
        guard let day = CalendarDay(text) else {
            diagnostics.append(.error(.invalidValue, "\(context.displayName) \(value.shortDescription) is not a day YYYY-MM-DD",
                at: context.location()))
            return nil
        }
        return day
    }

    /// Reads an instant or a day (V1 pet-story `since`, `birthDate`); the placeholder day when
    /// neither (reported).
    @usableFromInline
    static func instantOrDay(_ value: Value, at context: RecordContext, into diagnostics: inout [Diagnostic]) -> InstantOrDay {
        if case .string(let text) = value, let day = CalendarDay(text) { return .day(day) }
        guard let instant = FieldReader.instant(value, at: context, into: &diagnostics) else {
            return .day(CalendarDay.placeholder)
        }
        return .instant(FieldReader.cutToMilliseconds(instant, at: context, into: &diagnostics))
    }

    /// Reads base64 text (RFC 4648 section 4); nil (reported) otherwise.
    @usableFromInline
    static func data(_ value: Value, at context: RecordContext, into diagnostics: inout [Diagnostic]) -> Base64Data? {
        guard case .string(let text) = value else {
            diagnostics.append(.error(.typeError, "\(context.displayName): expected base64 text, found \(value.shortDescription)",
                at: context.location()))
            return nil
        }
        guard let data = Base64Data(base64: text) else {
            diagnostics.append(.error(.invalidValue,
                "\(context.displayName) is not standard base64 with padding (RFC 4648 section 4)", at: context.location()))
            return nil
        }
        return data
    }

    /// Reads a Firestore Timestamp of a field of the type named `typeName`; nil (reported) otherwise.
    @usableFromInline
    static func timestamp(_ value: Value, in typeName: @autoclosure () -> String, at fieldContext: RecordContext,
        into diagnostics: inout [Diagnostic]) -> FirestoreTimestamp?
    {
        let context = fieldContext
        if value == .string("") {
            diagnostics.append(.error(.missingField, "\(fieldContext.displayName) is empty (required in \(typeName()))",
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
                    "\(fieldContext.displayName): expected a Timestamp (\(FieldReader.timestampForms)), found \(value.shortDescription)",
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

    /// Every form a Firestore Timestamp is read from (SCHEMAS.md, vocabulary V1), for the error
    /// of a value in none of them.
    static let timestampForms = #"{"_seconds": S, "_nanoseconds": N}, {"seconds": S, "nanoseconds": N}, "#
        + #"{"__datatype__": "timestamp", "value": {"_seconds": S, "_nanoseconds": N}}, an RFC 3339 string "#
        + "or a number (seconds since 1970 unless --date-strategy says otherwise)"

    static func numberText(_ number: Double) -> String { NumberText.ecmaScript(number) ?? String(number) }

    static func rangeText(_ range: ClosedRange<Double>) -> String {
        numberText(range.lowerBound) + "..." + numberText(range.upperBound)
    }
}

extension RecordContext {
    /// The value's name in messages: its pointer inside the record (or the Firestore document
    /// nested in it) without the leading slash (`tastes/0/value`, `timestamp/_nanoseconds`), or
    /// `record` for the record itself. The diagnostic's pointer gives the whole path.
    public var displayName: String {
        var pointer = path
        if documentDepth > 0 { pointer.tokens.removeFirst(min(documentDepth, pointer.tokens.count)) }
        let text = pointer.description
        return text.isEmpty ? "record" : String(text.dropFirst())
    }
}

extension Value {
    /// A short quotation of the value for messages: `"five"`, `7`, `object`.
    @usableFromInline
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
    @usableFromInline
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
