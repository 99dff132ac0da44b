import FerryCore

/// Decompresses one compressed file as it is read (`notes.json.gz`, `words.jsonl.zst`,
/// `dataset.xml.xz`), or a compressed tar on its way to the archive reader. The compression is
/// told from the first bytes: gzip, xz, bzip2 and zstd go through their own libraries
/// (`StreamDecompressor`: a cut stream gives every byte before the cut), anything else through
/// libarchive's raw format and every filter it detects (lz4, lzip, ...); an uncompressed input
/// passes through unchanged. Memory use is bounded by the decoders' buffers.
public final class CompressedFileSource: DecompressingSource {
    private let decompressor: StreamDecompressor?
    private let reader: ArchiveReader?
    /// The compression told from the first bytes, for the stop's message.
    private let compression: Compression
    private var started = false
    private var ended = false
    private var quiet = false
    /// libarchive's path: the bytes handed out, their lines, and why the stream stopped.
    private var produced: Int64 = 0
    private var lines = LineTally()
    private var rawStop: DecompressionStop?

    /// Reads the compressed bytes of `source`.
    /// - Parameter name: the input's path, for error locations.
    /// - Throws: `FerryError(.malformedArchive)` when the stream cannot be recognised, the
    ///   source's read errors.
    public init(source: any ByteSource, name: String) throws {
        let (head, stream) = try PrefixedSource.sniff(source, count: 6)
        compression = Compression.forContent(head)
        if StreamDecompressor.decodes(compression) {
            decompressor = try StreamDecompressor(source: stream, compression: compression, name: name)
            reader = nil
        } else {
            decompressor = nil
            reader = try ArchiveReader(source: stream, name: name, mode: .raw)
        }
    }

    /// Opens the file at `path` (`-` for standard input).
    /// - Throws: `FerryError(.unreadableInput)` when it cannot be opened, or as `init(source:name:)`.
    public convenience init(path: String) throws {
        try self.init(source: try FileDescriptorSource(path: path), name: path)
    }

    /// The compressed bytes consumed so far.
    public var compressedBytesRead: Int64? { decompressor?.compressedBytesRead ?? reader?.inputPosition }

    public var stop: DecompressionStop? { decompressor?.stop ?? rawStop }

    public func endQuietlyAtStop() {
        quiet = true
        decompressor?.endQuietlyAtStop()
    }

    public var endsAtCut: Bool { quiet && stop != nil }

    /// Fills `buffer` with decompressed bytes; 0 at the end (or at the stop once
    /// `endQuietlyAtStop()` was called).
    /// - Throws: `FerryError` with `truncated-archive` for a stream that ends early (after every
    ///   byte before the cut, for gzip, xz and bzip2), or `malformed-archive` for corrupt data.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let decompressor { return try decompressor.read(into: buffer) }
        guard let reader else { return 0 }
        if ended { return 0 }
        do {
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
            produced += Int64(n)
            lines.add(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            return n
        } catch let error as FerryError where quiet
            && (error.diagnostic.code == .truncatedArchive || error.diagnostic.code == .malformedArchive)
        {
            // libarchive's message ends with where it stopped, in its archive's words; the stop
            // says where in the data it was.
            var message = error.diagnostic.message
            if let place = message.firstRange(of: " at byte offset") { message = String(message[..<place.lowerBound]) }
            rawStop = DecompressionStop(code: error.diagnostic.code, message: message, offset: produced, lastLine: lines.lastLine)
            ended = true
            return 0
        }
    }
}
