import FerryCore
import FerrySchemas

/// The model reader of a batch's CSV rows, kept from row to row as `JSONLineReading` keeps a
/// batch's lines' (`ModelReader.restart`): a row starts its read on the reader the previous one
/// left, not on a new one (whose context is copied and whose storage is made and freed, a
/// thousand instructions a row). Each header's reading (`CSVRecordReading`) starts it in its own
/// context; the rows that follow under the same header read on it. Used by one thread at a time.
final class CSVRowReading {
    // One thread uses it at a time (a batch's): no access is checked at run time.
    /// The reading whose context the reader is in (nil: none yet). The readings live as long as
    /// their lane, which outlives its batches, so an identity is not reused while this is.
    @exclusivity(unchecked) private var owner: ObjectIdentifier?
    private let slot: UnsafeMutablePointer<ModelReader<CSVCursor>>

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
    func reader<T: FieldCodable>(for cursor: CSVCursor, model: T.Type, owner: AnyObject, context: RecordContext)
        -> UnsafeMutablePointer<ModelReader<CSVCursor>>
    {
        let asking = ObjectIdentifier(owner)
        if self.owner == asking {
            slot.pointee.restart(cursor, model: T.self)
        } else {
            if self.owner != nil { slot.deinitialize(count: 1) }
            slot.initialize(to: ModelReader(cursor, model: T.self, at: context))
            self.owner = asking
        }
        return slot
    }
}

/// A CSV row with the model reader of its batch (`CSVRowReading`), as a lane reads it.
struct CSVRowInput {
    let row: RawCSVRow
    /// The batch's: it outlives the read (not counted).
    unowned(unsafe) let rows: CSVRowReading
}
