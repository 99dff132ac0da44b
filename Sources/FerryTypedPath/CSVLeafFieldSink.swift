import FerryCore
import FerrySchemas
import FormatCSV

/// A `FieldSink` that writes a model's fields as a CSV leaf stream (`CSVLeafStream`) into a byte
/// buffer: the stream `CSVWriter.writeLeafStream(_:table:collection:)` replays exactly as `CSVWriter.write(_:)`
/// spools the model's canonical `Value` (`model.value`: the members `ObjectBuilder` builds, in the
/// same order, with the same scalars: a string, an instant's or a day's `description`, a double, an
/// integer, a Boolean; a list of strings or of models; a nested model; a `Value` as it is).
///
/// Member keys are referred to by their index in the lane's key table (`CSVLeafLayout`): the next
/// names of the current record type's block are compared with each key, absent optionals passed
/// over. A key not found there (fields out of canonical order, a field the descriptor does not
/// list) fails the sink: the record is then given up, and goes the general path.
///
/// It holds a pointer to the caller's buffer because a `FieldSink` must be copyable and a
/// `ByteBuffer` is not; `CSVLeafOutput.render` makes it for the length of one call only.
struct CSVLeafFieldSink: FieldSink {
    private let buffer: UnsafeMutablePointer<ByteBuffer>
    private let encoder: CSVLeafEncoder
    private let layout: CSVLeafLayout
    /// The keys of the record type being written.
    private var block: CSVLeafLayout.Block
    /// The fields of `block` before this one are passed.
    private var cursor = 0
    /// True once a key was not found: the stream is incomplete and must be dropped.
    private(set) var failed = false

    init(buffer: UnsafeMutablePointer<ByteBuffer>, encoder: CSVLeafEncoder, layout: CSVLeafLayout,
        block: CSVLeafLayout.Block)
    {
        self.buffer = buffer
        self.encoder = encoder
        self.layout = layout
        self.block = block
    }

    /// Writes `model`'s fields, then the end of the record's object.
    mutating func appendRecord<M: FieldCodable>(_ model: M) {
        model.encode(to: &self)
        encoder.appendEnd(into: &buffer.pointee)
    }

    /// The index in the key table of `key`, the next field of the current block that has it;
    /// nil (and the sink failed) when none has.
    @inline(__always)
    private mutating func keyIndex(_ key: String) -> Int? {
        while cursor < block.count {
            let index = block.start &+ cursor
            cursor &+= 1
            if layout.table.keys[index] == key { return index }
        }
        failed = true
        return nil
    }

    /// Appends the tag of a member named `key` holding a value of `kind`; nil when the key is not
    /// found (nothing is appended).
    @inline(__always)
    private mutating func beginMember(_ key: String, _ kind: CSVLeafStream.Kind) -> Int? {
        guard let index = keyIndex(key) else { return nil }
        encoder.appendTag(CSVLeafStream.memberTag(index, kind), into: &buffer.pointee)
        return index
    }

    /// Writes a nested model's fields and the end of its object, with the keys of `inner`.
    private mutating func appendObject<M: FieldCodable>(_ model: M, keys inner: CSVLeafLayout.Block) {
        let (outerBlock, outerCursor) = (block, cursor)
        block = inner
        cursor = 0
        model.encode(to: &self)
        encoder.appendEnd(into: &buffer.pointee)
        (block, cursor) = (outerBlock, outerCursor)
    }

    mutating func add(_ key: String, _ text: String) {
        guard beginMember(key, .leaf) != nil else { return }
        encoder.appendString(text, into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ number: Double) {
        guard beginMember(key, .leaf) != nil else { return }
        encoder.appendDouble(number, into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ flag: Bool) {
        guard beginMember(key, .leaf) != nil else { return }
        encoder.appendBool(flag, into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ integer: Int64) {
        guard beginMember(key, .leaf) != nil else { return }
        encoder.appendInteger(integer, into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ instant: Instant) {
        guard beginMember(key, .leaf) != nil else { return }
        // An instant of the years 0001...9999 is digits first, and never quoted for the usual delimiters.
        if encoder.writesRFC3339TextPlain, RFC3339Text.isWritten(instant) {
            encoder.appendPlainCell(capacity: RFC3339Text.maximumLength, into: &buffer.pointee) { RFC3339Text.write(instant, to: $0) ?? 0 }
            return
        }
        RFC3339Text.withDescription(instant) { encoder.appendString($0, into: &buffer.pointee) }
    }

    mutating func add(_ key: String, _ day: CalendarDay) {
        guard beginMember(key, .leaf) != nil else { return }
        encoder.appendString(day.description, into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ strings: [String]) {
        guard beginMember(key, .list) != nil else { return }
        let tag = CSVLeafStream.inlineTag(.leaf)
        for index in strings.indices {
            encoder.appendTag(tag, into: &buffer.pointee)
            encoder.appendString(strings[index], into: &buffer.pointee)
        }
        encoder.appendEnd(into: &buffer.pointee)
    }

    mutating func add<M: FieldCodable>(_ key: String, _ model: M) {
        guard let index = beginMember(key, .object) else { return }
        appendObject(model, keys: layout.nested[index])
    }

    mutating func add<M: FieldCodable>(_ key: String, _ models: [M]) {
        guard let index = beginMember(key, .list) else { return }
        let inner = layout.nested[index]
        let tag = CSVLeafStream.inlineTag(.object)
        for position in models.indices {
            encoder.appendTag(tag, into: &buffer.pointee)
            appendObject(models[position], keys: inner)
        }
        encoder.appendEnd(into: &buffer.pointee)
    }

    mutating func add(_ key: String, _ value: Value) {
        guard let index = keyIndex(key) else { return }
        encoder.appendMember(index, value, into: &buffer.pointee)
    }
}
