import FerryCore

/// Decompresses one compressed file as it is read (`notes.json.gz`, `words.jsonl.zst`,
/// `dataset.xml.xz`), through libarchive's raw format and every filter it detects; an
/// uncompressed input passes through unchanged. Memory use is bounded by libarchive's buffers.
public final class CompressedFileSource: DecompressingSource {
    private let reader: ArchiveReader
    private var started = false
    private var ended = false

    /// Reads the compressed bytes of `source`.
    /// - Parameter name: the input's path, for error locations.
    /// - Throws: `FerryError(.malformedArchive)` when the stream cannot be recognised.
    public init(source: any ByteSource, name: String) throws {
        reader = try ArchiveReader(source: source, name: name, mode: .raw)
    }

    /// Opens the file at `path` (`-` for standard input).
    /// - Throws: `FerryError(.unreadableInput)` when it cannot be opened, or as `init(source:name:)`.
    public convenience init(path: String) throws {
        try self.init(source: try FileDescriptorSource(path: path), name: path)
    }

    /// The compressed bytes consumed so far.
    public var compressedBytesRead: Int64? { reader.inputPosition }

    /// Fills `buffer` with decompressed bytes; 0 at the end.
    /// - Throws: `FerryError` with `truncated-archive` for a stream that ends early, or
    ///   `malformed-archive` for corrupt data, with libarchive's message.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if ended { return 0 }
        if !started {
            started = true
            switch try reader.nextEntry() {
            case .entry: break
            case .end:
                ended = true
                return 0
            case .damaged(let error):
                throw error
            }
        }
        let n = try reader.readData(into: buffer)
        if n == 0 { ended = true }
        return n
    }
}
