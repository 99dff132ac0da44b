import FerryCore
import FerrySchemas

/// The model reader of a batch's records of one kind of cursor (JSON lines and document
/// elements, CSV rows, XML records' parsed values), kept from record to record
/// (`ModelReader.restart`): a record starts its read on the reader the previous one left, not on
/// a new one (whose context is copied and whose storage is made and freed, a thousand
/// instructions a record). Each reading (`JSONLineReading`, a CSV header's `CSVRecordReading`, a
/// model's `ValueModelDecoding`) starts it in its own context; the records after it read on it
/// until another reading asks. Used by one thread at a time.
final class BatchModelReader<Cursor: RecordCursor> {
    // One thread uses it at a time (a batch's): no access is checked at run time.
    /// The reading whose context the reader is in (nil: none yet). The readings live as long as
    /// their lane, which outlives its batches, so an identity is not reused while this is.
    @exclusivity(unchecked) private var owner: ObjectIdentifier?
    private let slot: UnsafeMutablePointer<ModelReader<Cursor>>

    init() {
        slot = .allocate(capacity: 1)
    }

    deinit {
        if owner != nil { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    /// The reader, started on `cursor` as a `model` in `context` (the context of `owner`, the
    /// reading asking); valid until the next call.
    @inline(__always)
    func reader<T: FieldCodable>(for cursor: Cursor, model: T.Type, owner: ObjectIdentifier, context: RecordContext)
        -> UnsafeMutablePointer<ModelReader<Cursor>>
    {
        if self.owner == owner {
            slot.pointee.restart(cursor, model: T.self)
        } else {
            if self.owner != nil { slot.deinitialize(count: 1) }
            slot.initialize(to: ModelReader(cursor, model: T.self, at: context))
            self.owner = owner
        }
        return slot
    }

    /// Reads the record `cursor` walks as `T` in `context` (that of `owner`), or nil when the
    /// reader reports anything: the record then goes the general path, which reports it.
    @inline(__always)
    func read<T: FieldCodable>(_ type: T.Type, _ cursor: Cursor, owner: ObjectIdentifier, context: RecordContext) -> T? {
        let reader = reader(for: cursor, model: T.self, owner: owner, context: context)
        let model = T(from: &reader.pointee)
        guard reader.pointee.diagnostics.isEmpty else { return nil }
        var problems: [Diagnostic] = []
        reader.pointee.finish(into: &problems)
        // Returned by its last use (moved): a conditional expression would copy the model and
        // free the copy, counting each of its strings and lists up and down.
        guard problems.isEmpty else { return nil }
        return model
    }
}

/// The readers a lane batch keeps for the records it reads through a `ModelReading`.
final class BatchModelReaders {
    let rows = BatchModelReader<CSVCursor>()
    let values = BatchModelReader<ValueCursor>()
}

/// A CSV row with the model readers of its batch, as a lane reads it.
struct CSVRowInput {
    let row: RawCSVRow
    /// The batch's: it outlives the read (not counted).
    unowned(unsafe) let readers: BatchModelReaders
}

/// A record's parsed value (an XML record's) with the model readers of its batch.
struct ValueInput {
    let value: Value
    /// The batch's: it outlives the read (not counted).
    unowned(unsafe) let readers: BatchModelReaders
}
