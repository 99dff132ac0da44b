import FerrySchemas

/// The model reader of a run of JSON lines read in one context (a batch's), kept from line to
/// line: a line starts its read on the reader the previous one left (`ModelReader.restart`), not
/// on a new one (whose context is copied and whose storage is made and freed: about 700
/// instructions a record). Used by one thread at a time.
public final class JSONLineReading: @unchecked Sendable {
    // @unchecked: one thread reads through it at a time (a batch's).
    /// The context lines are read in: no record and no place (a reader's reports only decide that
    /// a line goes the general path, which reports it).
    public let context: RecordContext
    /// The reader, kept from line to line.
    private let lines = BatchModelReader<JSONLineCursor>()

    /// A reading in `context`.
    public init(context: RecordContext) {
        self.context = context
    }

    /// Reads the line `cursor` walks as `T` on the kept reader, or nil when the reader reports
    /// anything (`BatchModelReader.read`).
    @inline(__always)
    func read<T: FieldCodable>(_ type: T.Type, _ cursor: JSONLineCursor) -> T? {
        lines.read(T.self, cursor, owner: ObjectIdentifier(self), context: context)
    }
}
