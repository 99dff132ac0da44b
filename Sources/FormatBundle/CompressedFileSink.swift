import FerryCore

/// Compresses what is written to it into another sink: gzip (RFC 1952, no timestamp and no file
/// name in the header, so equal input gives equal bytes), zstd or xz. `.none` passes bytes through.
///
/// `flush()` only flushes the underlying sink; call `finish()` once at the end to write the
/// compressor's trailer. Output without `finish()` is incomplete.
public final class CompressedFileSink: ByteSink {
    private let writer: ArchiveWriter?
    private let sink: any ByteSink
    private var finished = false

    /// - Parameters:
    ///   - sink: where the compressed bytes go.
    ///   - compression: the filter.
    ///   - name: the output's path, for error locations.
    /// - Throws: `FerryError(.outputUnwritable)` when libarchive cannot set the filter up.
    public init(sink: any ByteSink, compression: Compression, name: String) throws {
        self.sink = sink
        if compression == .none {
            writer = nil
        } else {
            let writer = try ArchiveWriter(sink: sink, name: name, format: .raw, compression: compression)
            try writer.beginEntry(path: "data", size: nil, permissions: 0o644, modificationTime: 0)
            self.writer = writer
        }
    }

    /// Compresses `bytes`.
    /// - Throws: `FerryError(.outputUnwritable)`; also after `finish()`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !finished else { throw FerryError(.outputUnwritable, "write after the compressed stream was finished") }
        if let writer { try writer.write(bytes) } else { try sink.write(bytes) }
    }

    /// Flushes the underlying sink (compressed bytes still held by the compressor stay there).
    public func flush() throws { try sink.flush() }

    /// Ends the compressed stream (trailer, checksums) and flushes the underlying sink. Idempotent.
    /// - Throws: `FerryError(.outputUnwritable)`.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        if let writer { try writer.close() } else { try sink.flush() }
    }
}
