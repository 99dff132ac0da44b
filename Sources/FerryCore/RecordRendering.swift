/// A writer whose bytes for a record depend on that record alone (JSON Lines), so they can be
/// rendered ahead of time on any thread and written later, in order (`--jobs`, issue 7).
public protocol PrerenderingWriter: RecordWriter {
    /// Renders records exactly as `write(_:)` would write them; safe to use from any thread.
    var renderer: any RecordRenderer { get }

    /// Writes bytes the renderer made for one record, exactly as `write(_:)` of that record would;
    /// the bytes of several records in a row may come in one call (the writer only appends them).
    /// - Throws: the sink's write errors.
    func writeRendered(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

/// Renders records for a `PrerenderingWriter`, on any thread.
public protocol RecordRenderer: Sendable {
    /// The bytes of each record of `collection` and `value` in turn, as the writer's `write(_:)`
    /// would write them; a record that `write(_:)` would refuse gets no bytes (nil), so the caller
    /// writes it the usual way and gets the writer's own error.
    func render(_ records: [(collection: String?, value: Value)]) -> RenderedRecords
}

/// The bytes of records rendered ahead of time.
public struct RenderedRecords: Sendable {
    /// The bytes of every rendered record, one after the other.
    public var bytes: [UInt8]
    /// Where each record's bytes lie in `bytes`; nil for a record that could not be rendered.
    public var ranges: [Range<Int>?]

    public init(bytes: [UInt8], ranges: [Range<Int>?]) {
        self.bytes = bytes
        self.ranges = ranges
    }
}

/// A writer that places records whose elements were rendered ahead, from their models, by the
/// typed path (`writeElement(_:collection:)`), each by its collection: a document's writer, whose
/// records go into per-collection containers (a JSON document's arrays, an XML document's
/// collection elements).
public protocol RenderedElementWriter: RecordWriter {
    /// How an element must be rendered for this writer now; nil when it takes none (a JSON
    /// document that became a top-level array).
    var renderedElementForm: RenderedElementForm? { get }

    /// Writes a record of `collection` whose element was rendered ahead in `renderedElementForm`,
    /// exactly as `write(_:)` writes the record (separators, indentation of what surrounds it,
    /// its place among the collections are the writer's).
    /// - Throws: the sink's and spool files' write errors; `internalError` when the writer takes
    ///   no rendered element now.
    func writeElement(_ element: UnsafeBufferPointer<UInt8>, collection: String) throws
}

/// The form of a record's element that a `RenderedElementWriter` takes.
public enum RenderedElementForm: Equatable, Sendable {
    /// An element of a JSON document collection's array: pretty with its first line at `indent`
    /// levels of two spaces, or compact.
    case jsonArrayElement(pretty: Bool, indent: Int)
    /// An XML record element at depth 2, named `recordNames[collection]` (else `defaultName`),
    /// indented or not (`pretty`), as `XMLRecordWriter` writes one.
    case xmlRecordElement(pretty: Bool, recordNames: [String: String], defaultName: String)
}
