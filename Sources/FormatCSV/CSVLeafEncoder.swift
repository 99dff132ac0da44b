import FerryCore

/// Appends the parts of leaf streams (`CSVLeafStream`): tags, and cells encoded exactly as a
/// `CSVWriter` of `format` spools them (`CSVCellEncoder`: strings quoted only when they hold the
/// delimiter, `"`, CR or LF, with `""` for a quote, RFC 4180 sections 2.6 and 2.7; an empty string
/// as `""`; the csv-safe `'`; doubles in the ECMAScript form, NaN and infinities marked invalid).
///
/// Keeps a cache of doubles' texts, so one thread uses an encoder at a time (`@unchecked
/// Sendable`: an owner hands it from thread to thread, never to two at once).
public final class CSVLeafEncoder: @unchecked Sendable {
    /// The format the cells are encoded for.
    public let format: CSVCellFormat
    private let cells: CSVCellEncoder

    /// True when a cell of RFC 3339 text (`0`-`9`, `-`, `:`, `T`, `Z`, `.`) starting with a digit is
    /// its text as it is, with no quotes and no csv-safe prefix: the delimiter is none of those
    /// bytes. Such a cell can then be written without this encoder (`appendPlainCell`).
    public let writesRFC3339TextPlain: Bool

    public init(format: CSVCellFormat) {
        self.format = format
        cells = CSVCellEncoder(delimiter: format.delimiter, csvSafe: format.csvSafe)
        writesRFC3339TextPlain = !"0123456789-:TZ.".utf8.contains(where: cells.needsQuoting)
    }

    deinit { cells.deallocate() }

    // MARK: - Tags

    /// Appends a tag (`CSVLeafStream.memberTag`, `inlineTag`). Inlinable: one per member.
    @inlinable @inline(__always)
    public func appendTag(_ tag: UInt64, into out: inout ByteBuffer) {
        out.appendVarint(tag)
    }

    /// Appends the end of an object or list (the record's own object included).
    @inlinable @inline(__always)
    public func appendEnd(into out: inout ByteBuffer) {
        out.append(UInt8(truncatingIfNeeded: CSVLeafStream.Kind.end.rawValue))
    }

    // MARK: - Cells (each after a tag of kind `leaf`)

    /// A string's cell.
    public func appendString(_ text: String, into out: inout ByteBuffer) {
        cells.appendString(text, into: &out)
    }

    /// The cell of a string whose UTF-8 bytes are `utf8`.
    public func appendString(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout ByteBuffer) {
        cells.appendString(utf8, into: &out, lengthWord: true)
    }

    /// The cell of text that needs no quotes and no prefix (see `writesRFC3339TextPlain`), at most
    /// `capacity` bytes (under 64), which `write` writes at the pointer it is given and counts.
    @inlinable @inline(__always)
    public func appendPlainCell(capacity: Int, into out: inout ByteBuffer, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        out.reserve(capacity + 1)
        let start = out.base + out.count
        let length = write(start + 1)
        start[0] = UInt8(truncatingIfNeeded: length << 1)
        out.count += length + 1
    }

    /// A double's cell (`.double`): its ECMAScript text, or the invalid mark for NaN and infinities.
    public func appendDouble(_ number: Double, into out: inout ByteBuffer) {
        cells.appendDouble(number, into: &out)
    }

    /// An integer's cell (`.integer`).
    public func appendInteger(_ integer: Int64, into out: inout ByteBuffer) {
        cells.appendInteger(integer, into: &out)
    }

    /// A Boolean's cell: `true` or `false`.
    public func appendBool(_ flag: Bool, into out: inout ByteBuffer) {
        cells.appendCell(.bool(flag), into: &out)
    }

    // MARK: - Values

    /// Appends a member whose key is `keys[keyIndex]` of the table and whose value is `value`,
    /// walked as `CSVWriter.write(_:)` walks a record's value: an object's members in order (their
    /// keys written inline), a list's elements in order, a scalar's cell.
    public func appendMember(_ keyIndex: Int, _ value: Value, into out: inout ByteBuffer) {
        out.appendVarint(CSVLeafStream.memberTag(keyIndex, Self.kind(of: value)))
        appendBody(value, into: &out)
    }

    /// What follows the tag of `value`: its members (keys inline) or elements and its end, or its cell.
    private func appendBody(_ value: Value, into out: inout ByteBuffer) {
        switch value {
        case .object(let object):
            for member in object.members {
                appendInlineKey(member.key, into: &out, kind: Self.kind(of: member.value))
                appendBody(member.value, into: &out)
            }
            appendEnd(into: &out)
        case .array(let elements):
            for element in elements {
                out.appendVarint(CSVLeafStream.inlineTag(Self.kind(of: element)))
                appendBody(element, into: &out)
            }
            appendEnd(into: &out)
        default:
            cells.appendCell(value, into: &out)
        }
    }

    /// The tag of a member of `kind` whose key is written inline, then the key.
    private func appendInlineKey(_ key: String, into out: inout ByteBuffer, kind: CSVLeafStream.Kind) {
        out.appendVarint(CSVLeafStream.inlineTag(kind))
        out.appendVarint(UInt64(key.utf8.count))
        out.append(key)
    }

    private static func kind(of value: Value) -> CSVLeafStream.Kind {
        switch value {
        case .object: return .object
        case .array: return .list
        default: return .leaf
        }
    }
}
