/// A record a `RawRecordTaker` took, as its batch hands it to the calling thread
/// (`RecordBatchItem.taken`): what the commit of a valid record reads (its collection, index and
/// line) and the taker's payload, but not the record. The record (a null value, located as
/// `next()` would locate it) is made only when something asks for it (`record`): a diagnostic
/// about it, a path that needs more than these. Copying an item counts two references (its
/// collection and its source), where copying a record counts a dozen.
public struct TakenItem: Sendable {
    /// What the taker made of the record (`TakenRecord.payload`).
    public var payload: Int
    /// The record's collection, as `next()` would give it (a taken record always has one: a
    /// typed route is a collection's).
    public var collection: String?
    /// The record's 0-based index in its collection.
    public var recordIndex: Int
    /// The line and column of the record's first byte.
    public var start: TextPosition
    /// The line every field of the record stands on, when the reader knows it without a locator
    /// (a JSON Lines line, a CSV row with no line break in a quoted cell): its locator's
    /// `singleLine`. 0: not known.
    public var singleLine: Int
    /// Where the record's bytes lie in its source's (a batch's buffer), for its locator.
    public var span: Range<Int>
    /// A number of the source's own for the locator (a CSV row's cells on its first line).
    public var detail: Int
    /// What makes the record.
    public var source: any TakenRecordSource

    /// The record's index among the documents its raw record holds (a `RawRecord.jsonNested`
    /// word book: 0 for the book, then its words), in the order the general path's layout finds
    /// them; nil for a raw record taken as one record. Kept in `detail` (as a negative number,
    /// which no source gives): the item of every other record stays the size it was.
    public var document: Int? { detail < 0 ? -detail - 1 : nil }

    /// For such a document: its pointer from the input's root (by its key, or its index in a
    /// list), which the id table keeps for a later duplicate's message
    /// (`TakenRecordSource.documentPointer(of:)`); nil for any other record.
    public var documentPointer: JSONPointer? { detail < 0 ? source.documentPointer(of: self) : nil }

    public init(payload: Int, collection: String?, recordIndex: Int, start: TextPosition, singleLine: Int,
        span: Range<Int>, detail: Int = 0, source: any TakenRecordSource)
    {
        self.payload = payload
        self.collection = collection
        self.recordIndex = recordIndex
        self.start = start
        self.singleLine = singleLine
        self.span = span
        self.detail = detail
        self.source = source
    }

    /// The item of document `document` (0 for the first) of a nested record (`document`).
    public init(payload: Int, collection: String?, recordIndex: Int, start: TextPosition, span: Range<Int>,
        source: any TakenRecordSource, document: Int)
    {
        self.init(payload: payload, collection: collection, recordIndex: recordIndex, start: start, singleLine: 0,
            span: span, detail: -document - 1, source: source)
    }

    /// The record as `next()` would give it but with a null value: its location (file, member,
    /// position, collection, index) and its locator are the usual ones.
    public var record: Record { source.record(of: self) }

    /// The raw record with its value (`TakenRecordSource.parsedRecord(of:)`).
    public var parsedRecord: Record { source.parsedRecord(of: self) }

    /// The line of the record's `field` (a pointer relative to the record) as its locator gives
    /// it, asked without making the record when the source can (`TakenRecordSource.line(of:in:)`).
    public func line(of field: JSONPointer) -> Int? { source.line(of: field, in: self) }
}

/// What makes the records of the `TakenItem`s a reader gives (usually the batch holding their
/// bytes, which their locators read).
public protocol TakenRecordSource: AnyObject, Sendable {
    /// The record of `item` (one this source gave), as `TakenItem.record` describes it.
    func record(of item: TakenItem) -> Record

    /// `record(of: item).locator?.line(of: field)`, which a source may find without the record.
    func line(of field: JSONPointer, in item: TakenItem) -> Int?

    /// The raw record of `item` with its value, as `next()` gives it: what the documents of a
    /// nested record (`TakenItem.document`) are found in for a diagnostic. The default is
    /// `record(of:)`.
    func parsedRecord(of item: TakenItem) -> Record

    /// The pointer of the nested record's document `item` is (`TakenItem.documentPointer`). The
    /// default is nil.
    func documentPointer(of item: TakenItem) -> JSONPointer?
}

extension TakenRecordSource {
    public func line(of field: JSONPointer, in item: TakenItem) -> Int? { record(of: item).locator?.line(of: field) }

    public func parsedRecord(of item: TakenItem) -> Record { record(of: item) }

    public func documentPointer(of item: TakenItem) -> JSONPointer? { nil }
}
