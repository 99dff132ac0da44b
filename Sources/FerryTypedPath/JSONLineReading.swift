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
    /// The reader, initialized once a line was read (`isStarted`); behind pointers of their own,
    /// reached without an exclusivity check per record.
    private let slot: UnsafeMutablePointer<ModelReader<JSONLineCursor>>
    private let isStarted: UnsafeMutablePointer<Bool>

    /// A reading in `context`.
    public init(context: RecordContext) {
        self.context = context
        slot = .allocate(capacity: 1)
        isStarted = .allocate(capacity: 1)
        isStarted.initialize(to: false)
    }

    deinit {
        if isStarted.pointee { slot.deinitialize(count: 1) }
        slot.deallocate()
        isStarted.deallocate()
    }

    /// The reader, started on `cursor` as a `model`; valid until the next call.
    @inline(__always)
    func reader<T: FieldCodable>(for cursor: JSONLineCursor, model: T.Type) -> UnsafeMutablePointer<ModelReader<JSONLineCursor>> {
        if isStarted.pointee {
            slot.pointee.restart(cursor, model: T.self)
        } else {
            slot.initialize(to: ModelReader(cursor, model: T.self, at: context))
            isStarted.pointee = true
        }
        return slot
    }
}
