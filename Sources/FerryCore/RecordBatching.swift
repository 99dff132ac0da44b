/// A reader whose input can be cut into batches of raw records that parse on any thread, for
/// `--jobs`: JSON Lines, where every line is a record; CSV; the collection arrays of a JSON
/// document. Reading stays in order: the
/// caller takes batches with `nextBatch(limit:)`, has `RecordBatch.parse()` run on any thread,
/// then hands each parsed batch back, in the order taken, to `items(from:)`.
///
/// Together the batches give exactly the records and problems `next()` would have given, in the
/// same order; `next()` may be used before the first batch and after the last.
public protocol BatchRecordReader: RecordReader {
    /// The raw records that follow, at most `limit` of them; nil at the end of the input.
    /// - Throws: the source's read errors.
    func nextBatch(limit: Int) throws -> (any RecordBatch)?

    /// The records and problems of a parsed batch, in input order, as `next()` would have
    /// returned and reported them (the problems are not reported here: the caller reports them
    /// in turn). Call it once per batch, in the order the batches were taken.
    /// An error `next()` would have thrown ends the list as a `failure` item.
    func items(from batch: any RecordBatch) -> [RecordBatchItem]

    /// True when the batches offer raw records to a `RawRecordTaker` (JSON Lines, CSV): worth
    /// cutting even with one job. False when they only serve worker threads (JSON documents).
    var takesRawRecords: Bool { get }
}

extension BatchRecordReader {
    public var takesRawRecords: Bool { true }
}

/// Raw records cut from an input by a `BatchRecordReader`.
public protocol RecordBatch: AnyObject, Sendable {
    /// Parses the batch's records, first offering each to `taker` (nil: none): a record it takes
    /// is not parsed, and `items(from:)` gives it as `.taken`. Runs on any thread, once, before
    /// `items(from:)`.
    func parse(offering taker: (any RawRecordTaker)?)

    /// The items as parsed (none before `parse(offering:)`), when its reader's `items(from:)`
    /// hands out exactly these, its own bookkeeping aside (a JSON document's): the records can then
    /// be prepared on the thread that parsed them, before the caller takes them in order. Nil
    /// otherwise (the default). Read before the batch is handed to another thread, or on the
    /// parsing thread right after parsing.
    var itemsAsParsed: [RecordBatchItem]? { get }

    /// The bytes of input the batch was cut from (records read whole by its reader included,
    /// where it knows them): what the caller counts to bound the input in flight, since a batch
    /// of a few records can be large (a Firestore word book with thousands of words is one).
    var inputBytes: Int { get }
}

extension RecordBatch {
    /// Parses every record the usual way.
    public func parse() { parse(offering: nil) }

    public var itemsAsParsed: [RecordBatchItem]? { nil }

    /// Not known (the default): the batch counts only against the number of batches in flight.
    public var inputBytes: Int { 0 }
}

/// One thing a batch held, in input order.
///
/// A record and a problem are boxed (`indirect`): an item is then as large as a `TakenItem`, not
/// as a `Record` (two and a half times it), which the typed path's batches of taken records copy
/// and keep one of per record.
public enum RecordBatchItem: Sendable {
    /// A record, as `next()` returns it.
    indirect case record(Record)
    /// A record the `RawRecordTaker` took: what the calling thread needs of it, and what the taker
    /// made of it (`TakenItem.payload`); its record is made only when asked (`TakenItem.record`).
    case taken(TakenItem)
    /// A problem that `next()` would have reported to the log at this point (a line that is not
    /// JSON), for the caller to report.
    indirect case problem(Diagnostic)
    /// What `next()` would have thrown at this point; reading stops there.
    case failure(any Error)
}

extension String {
    /// The same text in storage of its own (a string of up to 15 UTF-8 bytes is stored inline
    /// anyway). A batch parsed on a worker gives its records their own copy of the strings every
    /// record of the input holds (the file's path, the collection's name): shared by all, their
    /// reference count would be written by every thread for every record handed on.
    public func separateCopy() -> String {
        String(decoding: Array(utf8), as: UTF8.self)
    }
}
