/// A record's leaves as a compact byte stream, made ahead of the CSV writer (on a worker thread,
/// straight from a typed model: the typed path's `CSVLeafFieldSink`) and replayed by
/// `CSVWriter.writeLeafStream(_:table:collection:)` against the writer's merged shape on the thread that
/// writes, in input order. The replay makes exactly the shape nodes, leaf marks and spool bytes
/// that `CSVWriter.write(_:)` makes for the record's value: the stream says what that value is
/// (members in order, list elements in order, the end of each container), and each leaf's cell is
/// already encoded as the writer's spool holds it, quoted and escaped for the writer's
/// `CSVCellFormat`.
///
/// The stream is the members of the record's top-level object, then that object's end:
///
///     object   := (tag value)* end       a member's tag names its key
///     list     := (tag value)* end       an element's tag names no key (its index is its position)
///     value    := cell                   after a tag of kind `leaf`
///               | object                 after a tag of kind `object`
///               | list                   after a tag of kind `list`
///     tag      := varint(ref << 2 | kind)
///     end      := varint(0)              kind 0
///     cell     := varint(length << 1 | invalid) bytes    as `CSVCellEncoder` writes it
///
/// In an object, `ref` is 1 + the index of the member's key in the table handed with the stream
/// (`CSVLeafTable.keys`), or 0 for a key written in the stream right after the tag: varint byte
/// count, then its UTF-8 bytes (the keys of a `Value` the model holds, which no table lists). In a
/// list `ref` is 0. Varints are LEB128, as in the spool. A member whose value is an empty object or
/// an empty list is still there (its tag and an end): the writer makes its node, which moves the
/// columns of keys first seen later, as `write(_:)` does for the empty value.
public enum CSVLeafStream {
    /// What follows a tag.
    public enum Kind: UInt64, Sendable {
        /// No value: the end of the object or list the tag is in.
        case end = 0
        /// A scalar: its cell follows.
        case leaf = 1
        /// An object: its members follow, up to its end.
        case object = 2
        /// A list: its elements follow, up to its end.
        case list = 3
    }

    /// The tag of a member whose key is `keys[keyIndex]` of the table, holding a value of `kind`.
    @inlinable @inline(__always)
    public static func memberTag(_ keyIndex: Int, _ kind: Kind) -> UInt64 {
        UInt64(keyIndex + 1) << 2 | kind.rawValue
    }

    /// The tag of a member whose key follows the tag in the stream, holding a value of `kind`; also
    /// the tag of a list element.
    @inlinable @inline(__always)
    public static func inlineTag(_ kind: Kind) -> UInt64 { kind.rawValue }
}

/// What the leaf streams handed to a `CSVWriter` refer to: the keys their member tags name by
/// index, and the cell format their cells were encoded with (the writer refuses streams of
/// another). One table serves many streams: the writer remembers, per shape node, the child each
/// key index led to, as long as it is handed the same table.
public final class CSVLeafTable: Sendable {
    /// The keys member tags name, by index (`CSVLeafStream.memberTag`).
    public let keys: [String]
    /// How the streams' cells are encoded.
    public let format: CSVCellFormat

    public init(keys: [String], format: CSVCellFormat) {
        self.keys = keys
        self.format = format
    }
}
