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
