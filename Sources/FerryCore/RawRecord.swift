/// One record as its bytes, offered to a typed path before it is parsed into a `Value` (issue 7:
/// bytes -> model -> bytes for domain records). Lives only for the call it is passed to.
public enum RawRecord {
    /// One JSON Lines line: its bytes without the line break (not blank), the 1-based line number,
    /// and the collection of a line without a `$collection` member (the reader's default).
    case jsonLine(UnsafeBufferPointer<UInt8>, line: Int, defaultCollection: String?)
    /// One CSV data row with the header's field count and no syntax error.
    case csvRow(RawCSVRow)
    /// One object element of a JSON document's collection array: its bytes (from its opening
    /// brace to its closing one; line breaks and indentation included), the line and column of
    /// its first byte, the array's collection, and how deep the element may nest (the reader's
    /// limit less the containers around it). A `$collection` member does not name the record's
    /// collection here: a taker leaves such an element to the usual way.
    case jsonElement(UnsafeBufferPointer<UInt8>, start: TextPosition, collection: String, maximumDepth: Int)
    /// A record a reader parses into a value before anything can read it (an XML record element:
    /// libxml2 reads its bytes), as `next()` returns it, of a format whose scalars are text. Its
    /// locator places its fields; an absent field has no place in it.
    case parsedText(Record)
    /// One document of a JSON document's collection map, held whole with the documents it nests
    /// (a Firestore export's word book and its words): its bytes (its value only), the line and
    /// column of its first byte, and the record's collection, document id and nesting as `next()`
    /// gives them. A taker makes a record of each document (`TakenRecord.count`). Boxed: the
    /// other cases, one per record, stay the size they were.
    indirect case jsonNested(UnsafeBufferPointer<UInt8>, start: TextPosition, collection: String?, documentID: String?,
        nesting: RecordNesting?, maximumDepth: Int)
}

/// One CSV data row, its cells ready to read (issue 7's typed path).
public struct RawCSVRow {
    /// The header's column names, one per cell (Miller-flattened paths such as `tastes.1.value`).
    public let columns: [String]
    /// The cells in column order.
    public let cells: UnsafeBufferPointer<RawCSVCell>
    /// The records' collection (from the file name or `--collection`), nil when none.
    public let collection: String?
    /// The row's first line (1-based).
    public let line: Int

    public init(columns: [String], cells: UnsafeBufferPointer<RawCSVCell>, collection: String?, line: Int) {
        self.columns = columns
        self.cells = cells
        self.collection = collection
        self.line = line
    }
}

/// One CSV cell of a `RawCSVRow`.
public struct RawCSVCell {
    /// The cell's text with its quotes removed and doubled quotes made single; not yet checked as
    /// UTF-8. Valid only during the call the row is passed to.
    public let text: UnsafeBufferPointer<UInt8>
    /// True for a missing value: an unquoted empty cell or the null token (`--null`).
    public let isAbsent: Bool
    /// True when the cell was quoted (`""` is an empty string, not a missing value).
    public let isQuoted: Bool

    public init(text: UnsafeBufferPointer<UInt8>, isAbsent: Bool, isQuoted: Bool) {
        self.text = text
        self.isAbsent = isAbsent
        self.isQuoted = isQuoted
    }
}

/// Takes raw records before they are parsed (the typed path of a domain run). Called on worker
/// threads, once per raw record, in no particular order. A class: the readers hold an optional
/// taker and use it once a record, and an optional of any other existential is copied through
/// its type's value witnesses each time (a class reference is counted up).
public protocol RawRecordTaker: AnyObject, Sendable {
    /// What the typed path made of `record` (handed back with the record in
    /// `RecordBatchItem.taken`), or nil to have the record parsed and processed the usual way.
    /// Must return nil for anything the usual way would report a problem about.
    func take(_ record: RawRecord) -> TakenRecord?

    /// The pointer from the input's root of the document the taker made with `payload` of a
    /// `jsonNested` record (`TakenItem.documentPointer`); nil for any other.
    func documentPointer(of payload: Int) -> JSONPointer?
}

extension RawRecordTaker {
    public func documentPointer(of payload: Int) -> JSONPointer? { nil }
}

/// What a `RawRecordTaker` made of a raw record.
public struct TakenRecord: Sendable {
    /// The collection the record named itself (a JSON Lines `$collection` member); nil when it
    /// named none (the reader's default applies, as for a parsed record) or cannot name one (a
    /// JSON document's element).
    public var collection: String?
    /// The taker's result, handed back with the record: an index into what the taker keeps (a
    /// plain `Int`, so that the caller reads it back with no cast from an existential).
    public var payload: Int
    /// How many records the taker made of it, their payloads `payload` and the next ones: the
    /// documents of a `jsonNested` record, in the order the general path's layout finds them;
    /// 1 for any other.
    public var count: Int

    public init(collection: String?, payload: Int, count: Int = 1) {
        self.collection = collection
        self.payload = payload
        self.count = count
    }
}
