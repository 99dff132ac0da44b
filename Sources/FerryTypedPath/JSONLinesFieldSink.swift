import FerryCore
import FerrySchemas
import FormatJSON

/// Renders records of models as JSON Lines lines, as `JSONLinesWriter` writes them (SCHEMAS.md
/// "Formats: JSON Lines"): `{"$collection":"c",` then the model's fields in canonical order, compact,
/// then LF; without a collection the model's object alone. Strings, numbers and instants are
/// written by the serializer's own pieces (`ByteBuffer.appendJSONString`, `appendJSONNumber`, and
/// their in-line fast paths `appendJSONMember`, `appendJSONStringInline`, `appendJSONNumberInline`,
/// which write the same bytes), so the bytes are those the writer makes for
/// `Record(collection: c, value: model.value)`.
public struct JSONLinesRendering: Sendable {
    /// nil when the writer's options make bytes this renderer does not reproduce.
    ///
    /// No option changes a JSON Lines record line today: `header` only adds the header line, which
    /// the writer itself writes; `pretty` is ignored (lines are always compact); the rest concern
    /// other formats. The failable shape is kept for options to come.
    public init?(options: WriteOptions) {}

    /// Appends the line for a record of `collection` (nil: none) holding `model`, LF included.
    /// - Returns: false, with `buffer` as it was, when the model holds what the writer would refuse
    ///   (a NaN or infinite number, a value nested too deeply): the record then goes the general
    ///   path, which reports it.
    @discardableResult
    public func render<M: FieldCodable>(_ model: M, collection: String?, into buffer: inout ByteBuffer) -> Bool {
        let mark = buffer.count
        let rendered = withUnsafeMutablePointer(to: &buffer) { pointer in
            var sink = JSONLinesFieldSink(buffer: pointer, skipsCollectionMember: collection != nil)
            sink.appendLine(model, collection: collection)
            return !sink.failed
        }
        if !rendered { buffer.truncate(to: mark) }
        return rendered
    }
}

/// A `FieldSink` that writes a model's fields as compact JSON members straight into a byte buffer,
/// byte for byte as `JSONSerializer` writes the model's canonical `Value`.
///
/// It holds a pointer to the caller's buffer because a `FieldSink` must be copyable and a
/// `ByteBuffer` is not; `JSONLinesRendering.render` makes it for the length of one call only.
struct JSONLinesFieldSink: FieldSink {
    /// The buffer written to; valid while `render` runs.
    private let buffer: UnsafeMutablePointer<ByteBuffer>
    /// True when the line names its collection: a model field named `$collection` is then not
    /// written (the writer skips that member of the value, at the top level only).
    private let skipsCollectionMember: Bool
    /// True inside a nested object (`$collection` is skipped only at the top).
    private var isNested = false
    /// The depth the writer gives the values of the current object's members (its limit on
    /// nesting counts it): 0 at the top of a line with `$collection`, 1 at the top of one without.
    private var memberDepth: Int
    /// True once a member was written in the current object (the next one needs a comma).
    private var needsComma = false
    /// True when something could not be written as the writer writes it (NaN, infinity, a value
    /// nested too deeply), or is a string the writer streams (`JSONLinesWriter.longStringThreshold`
    /// bytes or more): the line must be dropped.
    private(set) var failed = false

    init(buffer: UnsafeMutablePointer<ByteBuffer>, skipsCollectionMember: Bool) {
        self.buffer = buffer
        self.skipsCollectionMember = skipsCollectionMember
        self.memberDepth = skipsCollectionMember ? 0 : 1
    }

    /// Appends the whole line: `{`, the `$collection` member when there is one, the fields, `}`, LF.
    mutating func appendLine<M: FieldCodable>(_ model: M, collection: String?) {
        if let collection {
            buffer.pointee.append("{\"$collection\":" as StaticString)
            buffer.pointee.appendJSONStringInline(collection)
            needsComma = true
        } else {
            buffer.pointee.append(UInt8(ascii: "{"))
        }
        model.encode(to: &self)
        buffer.pointee.reserve(2)
        buffer.pointee.appendReserved(UInt8(ascii: "}"))
        buffer.pointee.appendReserved(UInt8(ascii: "\n"))
    }

    /// Writes `,` when needed and `"key":`; false when the member is to be left out.
    @inline(__always)
    private mutating func beginMember(_ key: String) -> Bool {
        if skipsCollectionMember, !isNested, key.utf8.count == 11, key == "$collection" { return false }
        buffer.pointee.appendJSONMember(key, comma: needsComma)
        needsComma = true
        return true
    }

    /// Writes a nested model as an object (`{}` when it writes no field), `levels` deeper than the
    /// current members (1 for a member's object, 2 for an object in a member's list).
    private mutating func appendObject<M: FieldCodable>(_ model: M, levels: Int) {
        let (outerNested, outerComma, outerDepth) = (isNested, needsComma, memberDepth)
        isNested = true
        needsComma = false
        memberDepth += levels
        buffer.pointee.append(UInt8(ascii: "{"))
        model.encode(to: &self)
        buffer.pointee.append(UInt8(ascii: "}"))
        (isNested, needsComma, memberDepth) = (outerNested, outerComma, outerDepth)
    }

    @inline(__always)
    mutating func add(_ key: String, _ text: String) {
        guard beginMember(key) else { return }
        // A long value is left to the writer, which streams it rather than gather it here.
        guard text.utf8.count < JSONLinesWriter.longStringThreshold else { return failed = true }
        buffer.pointee.appendJSONStringInline(text)
    }

    @inline(__always)
    mutating func add(_ key: String, _ number: Double) {
        guard beginMember(key) else { return }
        if !buffer.pointee.appendJSONNumberInline(number) { failed = true }
    }

    @inline(__always)
    mutating func add(_ key: String, _ flag: Bool) {
        guard beginMember(key) else { return }
        if flag { buffer.pointee.append("true" as StaticString) } else { buffer.pointee.append("false" as StaticString) }
    }

    @inline(__always)
    mutating func add(_ key: String, _ integer: Int64) {
        guard beginMember(key) else { return }
        buffer.pointee.appendJSONInteger(integer)
    }

    mutating func add(_ key: String, _ instant: Instant) {
        guard beginMember(key) else { return }
        // `description`'s bytes, written in place (they hold nothing to escape).
        RFC3339Text.appendQuoted(instant, to: &buffer.pointee)
    }

    mutating func add(_ key: String, _ day: CalendarDay) {
        guard beginMember(key) else { return }
        // `description`'s bytes written in place (digits and dashes: nothing to escape) for a day
        // the initializers make; any other (its fields are settable) through the `String`.
        guard (1...9999).contains(day.year), (1...12).contains(day.month), (1...31).contains(day.day) else {
            return buffer.pointee.appendJSONString(day.description)
        }
        buffer.pointee.reserve(12)
        let out = buffer.pointee.base + buffer.pointee.count
        out[0] = UInt8(ascii: "\"")
        RFC3339Fields.writeDate(year: day.year, month: day.month, day: day.day, to: out + 1)
        out[11] = UInt8(ascii: "\"")
        buffer.pointee.count += 12
    }

    mutating func add(_ key: String, _ strings: [String]) {
        guard beginMember(key) else { return }
        buffer.pointee.append(UInt8(ascii: "["))
        for index in strings.indices {
            if index > 0 { buffer.pointee.append(UInt8(ascii: ",")) }
            guard strings[index].utf8.count < JSONLinesWriter.longStringThreshold else { return failed = true }
            buffer.pointee.appendJSONStringInline(strings[index])
        }
        buffer.pointee.append(UInt8(ascii: "]"))
    }

    mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        guard beginMember(key) else { return }
        appendObject(model, levels: 1)
    }

    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard beginMember(key) else { return }
        buffer.pointee.append(UInt8(ascii: "["))
        for index in models.indices {
            if index > 0 { buffer.pointee.append(UInt8(ascii: ",")) }
            appendObject(models[index], levels: 2)
        }
        buffer.pointee.append(UInt8(ascii: "]"))
    }

    mutating func add(_ key: String, _ value: Value) {
        guard beginMember(key) else { return }
        do { try buffer.pointee.appendJSONValue(value, depth: memberDepth) } catch { failed = true }
    }
}
