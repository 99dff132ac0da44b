import CLibArchive
import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads a tar archive (any compression libarchive detects: gzip, bzip2, xz, zstd, lz4, ...) or a
/// single compressed stream (libarchive's raw format), pulling input bytes from a `ByteSource`.
///
/// Errors are `FerryError`s carrying libarchive's message and the member reached
/// (`SourceLocation.member`): `truncated-archive` when the input ends early, else `malformed-archive`.
/// Every message of a tar ends with where in the archive it went wrong: the byte offset (in the
/// decompressed tar stream when the input is compressed) and the header or member being read
/// (`damaged tar archive at byte offset 1536, the header after member "a.txt"`).
public final class ArchiveReader {
    /// What to read: tar (and an empty input as an empty archive), or one raw stream whose filters
    /// are detected (`gzip`, `zstd`, `xz`, ... or none), or a zip file (`init(zipFile:name:)`).
    public enum Mode: Sendable { case tar, raw, zip }

    /// The result of asking for the next member header.
    public enum NextHeader {
        /// A member; `warning` holds libarchive's warning when it had one (a name it could not convert).
        case entry(ArchiveEntry, warning: String?)
        /// A damaged header that libarchive skipped (a bad checksum); reading may go on.
        case damaged(FerryError)
        /// The end of the archive.
        case end
    }

    private let archive: OpaquePointer
    /// The source libarchive pulls from; nil for a zip, which libarchive reads from its file.
    private let bridge: SourceBridge?
    /// The source when it decompresses what libarchive reads (a `.tar.gz` through
    /// `StreamDecompressor`): it ends quietly where its stream stops, and says why.
    private let decompressor: (any DecompressingSource)?
    private let name: String
    /// What the reader was opened to read.
    public let mode: Mode
    /// The member whose header was read last, for error locations.
    public private(set) var currentMember: String?
    /// Where the header after `currentMember` starts in the tar stream: the end of its content,
    /// padded to 512 bytes (0 before the first header).
    private var nextHeaderOffset: Int64 = 0

    /// Opens `source` for reading.
    /// - Parameters:
    ///   - source: the archive bytes (a file, standard input, a decompressing source).
    ///   - name: the input's path as the user gave it, for error locations.
    ///   - mode: tar or raw.
    /// - Throws: `FerryError(.malformedArchive)` when libarchive recognises no format,
    ///   `FerryError(.internalError)` when it cannot allocate.
    public convenience init(source: any ByteSource, name: String, mode: Mode) throws {
        try self.init(source: source, name: name, mode: mode, pool: nil)
    }

    /// `pool`: input is read into its chunks, which `nextDataBlock()` hands out without copying.
    init(source: any ByteSource, name: String, mode: Mode, pool: ChunkPool?) throws {
        guard let archive = archive_read_new() else {
            throw FerryError(.internalError, "libarchive could not allocate a reader", at: SourceLocation(file: name))
        }
        self.archive = archive
        self.name = name
        self.mode = mode
        self.bridge = SourceBridge(source: source, pool: pool)
        if let decompressing = source as? any DecompressingSource, decompressing.compressedBytesRead != nil {
            // The tar reader sees the bytes before a cut as a tar cut there, and `failure` says
            // why the stream ended.
            decompressing.endQuietlyAtStop()
            decompressor = decompressing
        } else {
            decompressor = nil
        }
        archive_read_support_filter_all(archive)
        switch mode {
        case .tar:
            archive_read_support_format_tar(archive)
            archive_read_support_format_empty(archive)
        case .raw:
            archive_read_support_format_raw(archive)
            archive_read_support_format_empty(archive)
        case .zip:
            throw FerryError(.internalError, "a zip is read from its file: init(zipFile:name:)", at: SourceLocation(file: name))
        }
        let context = Unmanaged.passUnretained(bridge!).toOpaque()
        let status = withUTF8CType {
            archive_read_open(archive, context, nil, { _, context, buffer in
                guard let context, let buffer else { return -1 }
                let bridge = Unmanaged<SourceBridge>.fromOpaque(context).takeUnretainedValue()
                return bridge.fill(buffer)
            }, nil)
        }
        if status != ArchiveStatus.ok {
            let message = errorString(archive, fallback: "cannot open the archive")
            if let error = bridge?.error { throw error }
            throw FerryError(archiveErrorCode(forMessage: message), message + whereReading(.header),
                             at: SourceLocation(file: name))
        }
    }

    /// Opens the zip file at `file` (a regular file: libarchive's seekable zip reader starts from
    /// the central directory at its end, the authoritative list of members, rather than trusting
    /// local headers met on the way).
    /// - Parameters:
    ///   - file: the zip's path on disk (the user's file, or standard input spooled to a file).
    ///   - name: the input's path as the user gave it, for error locations.
    /// - Throws: `FerryError(.malformedArchive)` or `.truncatedArchive` when libarchive finds no
    ///   zip there (no end-of-central-directory record), `.unreadableInput` when it cannot be opened.
    public init(zipFile file: String, name: String) throws {
        guard let archive = archive_read_new() else {
            throw FerryError(.internalError, "libarchive could not allocate a reader", at: SourceLocation(file: name))
        }
        self.archive = archive
        self.name = name
        self.mode = .zip
        self.bridge = nil
        self.decompressor = nil
        archive_read_support_format_zip_seekable(archive)
        let status = withUTF8CType { archive_read_open_filename(archive, file, 128 * 1024) }
        if status != ArchiveStatus.ok {
            let message = errorString(archive, fallback: "cannot open the zip")
            let code: Diagnostic.Code = access(file, R_OK) == 0 ? archiveErrorCode(forMessage: message) : .unreadableInput
            if code != .unreadableInput, Self.startsAsZip(file) {
                // Its members' headers are there but not the directory at its end: the file was cut.
                throw FerryError(.truncatedArchive,
                    "the zip is cut short: it starts with a member header but ends before its central directory", at: SourceLocation(file: name))
            }
            throw FerryError(code, message + whereReading(.header), at: SourceLocation(file: name))
        }
    }

    /// True when the file at `path` begins with a zip member's local header (`PK\u{3}\u{4}`,
    /// APPNOTE.TXT 4.3.7).
    private static func startsAsZip(_ path: String) -> Bool {
        guard let source = try? FileDescriptorSource(path: path) else { return false }
        var bytes = [UInt8](repeating: 0, count: 4)
        let count = (try? bytes.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
        return count == 4 && bytes == [0x50, 0x4B, 0x03, 0x04]
    }

    deinit {
        archive_read_free(archive)
    }

    /// The number of input bytes consumed so far (before decompression).
    public var inputPosition: Int64 { decompressor?.compressedBytesRead ?? Int64(archive_filter_bytes(archive, -1)) }

    /// True when the content read is larger than the input holds: a zip, or an archive under a
    /// decompression filter (filter 0 is the format's own stream; more mean a decompressor) or
    /// decompressed by its source.
    public var expandsInput: Bool { mode == .zip || isDecompressed }

    /// True when the stream libarchive's format reads is decompressed, by a filter or the source.
    private var isDecompressed: Bool { archive_filter_count(archive) > 1 || decompressor != nil }

    private func location() -> SourceLocation { SourceLocation(file: name, member: currentMember) }

    /// What was being read when an error came: a member header or a member's content.
    private enum Part { case header, data }

    private func failure(_ fallback: String, in part: Part) -> FerryError {
        if let error = bridge?.error { return error }
        // A header stands between members, in none of them: its error is at the archive, and the
        // message says where (its byte offset, the member before it).
        let place = part == .header ? SourceLocation(file: name) : location()
        if let stop = decompressor?.stop {
            // The tar ended where the decompressed stream did: the stream's end is the reason.
            return FerryError(stop.code, stop.message + whereReading(part, stop: stop), at: place)
        }
        let message = errorString(archive, fallback: fallback)
        return FerryError(archiveErrorCode(forMessage: message), message + whereReading(part), at: place)
    }

    /// ` at byte offset N, the header after member "x"`: where reading stands, for a message.
    /// A header's offset is where it starts (libarchive's header position, pax and GNU extension
    /// headers included); a content error's is how far the tar stream was consumed. Both count
    /// the decompressed stream, which the message says when the input is compressed.
    /// `stop`: the decompressed stream ended early there; a header cut by it is where the stream
    /// ends, since libarchive stops before it (or after the previous one, at the stream's end).
    private func whereReading(_ part: Part, stop: DecompressionStop? = nil) -> String {
        var offset = part == .header
            ? Int64(archive_read_header_position(archive)) : Int64(archive_filter_bytes(archive, 0))
        // After a fatal error libarchive answers ARCHIVE_FATAL (negative) instead: the header then
        // stands where the last member's padded content ended.
        if offset < 0 { offset = part == .header ? nextHeaderOffset : max(0, Int64(archive_filter_bytes(archive, 0))) }
        if let stop, part == .header { offset = stop.offset }
        let stream = isDecompressed ? " of the decompressed archive" : ""
        let at = " at byte offset \(offset)\(stream)"
        guard mode != .raw else { return at }
        switch (part, currentMember) {
        case (.header, nil): return at + ", the first member header"
        case (.header, let member?): return at + ", the header after member \"\(member)\""
        case (.data, let member?): return at + ", in member \"\(member)\""
        case (.data, nil): return at
        }
    }

    /// Reads the next member header. The previous member's unread data is skipped.
    /// - Throws: `FerryError` (`truncated-archive`, `malformed-archive` or the source's read error)
    ///   naming the last member reached, when reading cannot go on.
    public func nextEntry() throws -> NextHeader {
        var entryPointer: OpaquePointer?
        let status = withUTF8CType { archive_read_next_header(archive, &entryPointer) }
        switch status {
        case ArchiveStatus.eof:
            // A decompressed stream that stopped early ends the tar at a header: still a cut,
            // also when only the stream's own end is missing (the tar's end blocks, its trailer).
            if let decompressor {
                try Self.drain(decompressor)
                if decompressor.stop != nil { throw failure("the archive ends early", in: .header) }
            }
            return .end
        case ArchiveStatus.ok, ArchiveStatus.warn:
            guard let entry = entryPointer else { throw failure("no member header", in: .header) }
            let info = withUTF8CType { Self.describe(entry) }
            currentMember = info.displayPath
            blockOffset = 0
            // libarchive has consumed the member's headers: its content starts here.
            let contentStart = Int64(archive_filter_bytes(archive, 0))
            nextHeaderOffset = contentStart + ((info.size ?? 0) + 511) / 512 * 512
            let warning = status == ArchiveStatus.warn ? errorString(archive, fallback: "warning") : nil
            return .entry(info, warning: warning)
        case ArchiveStatus.retry:
            let error = failure("damaged member header", in: .header)
            // A header the decompressed stream's stop left partial: nothing follows to read on to.
            if decompressor?.stop != nil { throw error }
            return .damaged(error)
        default:
            throw failure("cannot read the next member header", in: .header)
        }
    }

    /// Reads what follows the tar's end in a decompressed stream (the zero blocks past the two
    /// that end it, which tar(1) pads a record with; the stream's trailer), so that a stream cut
    /// there says so (`stop`). At most 1 MiB: what lies further is not the tar's.
    private static func drain(_ source: any DecompressingSource) throws {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { scratch.deallocate() }
        var drained = 0
        while drained < 1 << 20, source.stop == nil {
            let n = try source.read(into: scratch)
            if n == 0 { return }
            drained += n
        }
    }

    private static func describe(_ entry: OpaquePointer) -> ArchiveEntry {
        var raw: [UInt8] = []
        var path: String?
        if let utf8 = archive_entry_pathname_utf8(entry) {
            path = String(validatingCString: utf8)
            raw = Array(UnsafeBufferPointer(start: UnsafeRawPointer(utf8).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(utf8)))
        } else if let bytes = archive_entry_pathname(entry) {
            raw = Array(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(bytes)))
            path = String(validatingCString: bytes)
        }
        let mode = UInt32(archive_entry_mode(entry))
        var kind: ArchiveEntryKind
        var target: String?
        if let hard = archive_entry_hardlink_utf8(entry) ?? archive_entry_hardlink(entry) {
            kind = .hardLink
            target = String(decoding: UnsafeBufferPointer(
                start: UnsafeRawPointer(hard).assumingMemoryBound(to: UInt8.self), count: strlen(hard)), as: UTF8.self)
        } else {
            switch mode & 0o170000 {
            case 0o100000: kind = .file
            case 0o040000: kind = .directory
            case 0o120000: kind = .symbolicLink
            case 0o020000: kind = .characterDevice
            case 0o060000: kind = .blockDevice
            case 0o010000: kind = .fifo
            case 0o140000: kind = .socket
            default: kind = .unknown
            }
            if kind == .symbolicLink, let link = archive_entry_symlink_utf8(entry) ?? archive_entry_symlink(entry) {
                target = String(decoding: UnsafeBufferPointer(
                    start: UnsafeRawPointer(link).assumingMemoryBound(to: UInt8.self), count: strlen(link)),
                                as: UTF8.self)
            }
        }
        let size: Int64? = archive_entry_size_is_set(entry) != 0 ? Int64(archive_entry_size(entry)) : nil
        var result = ArchiveEntry(
            path: path, rawPath: raw, kind: kind, size: size, permissions: mode & 0o7777, linkTarget: target,
            isSparse: archive_entry_sparse_count(entry) > 0)
        result.isEncrypted = archive_entry_is_data_encrypted(entry) != 0
        result.modificationTime = Int64(archive_entry_mtime(entry))
        result.uid = Int64(archive_entry_uid(entry))
        result.gid = Int64(archive_entry_gid(entry))
        result.userName = archive_entry_uname(entry).map { String(cString: $0) }
        result.groupName = archive_entry_gname(entry).map { String(cString: $0) }
        return result
    }

    /// Reads up to `buffer.count` bytes of the current member's content (sparse holes as zeros);
    /// 0 at its end.
    /// - Throws: `FerryError` (`truncated-archive`, `malformed-archive`) naming the member.
    public func readData(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let n = archive_read_data(archive, base, buffer.count)
        if n < 0 { throw failure("cannot read the member's data", in: .data) }
        return n
    }

    /// The next piece of the current member's content where libarchive holds it (no copy), and
    /// the pool chunk it lies in when it lies in one (an uncompressed input: the chunk the input
    /// was read into); nil at the member's end. The bytes stay valid until the next call into this
    /// reader; retain the chunk to keep them longer. Sparse members read through `readData(into:)`
    /// (their holes come as zeros there); here a gap in the offsets is an error.
    /// - Throws: as `readData(into:)`.
    func nextDataBlock() throws -> (bytes: UnsafeRawBufferPointer, chunk: ChunkPool.Chunk?)? {
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        let status = archive_read_data_block(archive, &block, &size, &offset)
        if status == ArchiveStatus.eof { return nil }
        guard status == ArchiveStatus.ok || status == ArchiveStatus.warn else {
            throw failure("cannot read the member's data", in: .data)
        }
        guard Int64(offset) == blockOffset else {
            throw FerryError(.malformedArchive, "member data is not contiguous" + whereReading(.data), at: location())
        }
        blockOffset += Int64(size)
        let bytes = UnsafeRawBufferPointer(start: block, count: size)
        if let held = bridge?.held, held.contains(bytes) { return (bytes, held) }
        return (bytes, nil)
    }

    /// The content offset `nextDataBlock()` expects next; reset by `nextEntry()`.
    private var blockOffset: Int64 = 0
}

/// Holds the ByteSource and the buffer libarchive's read callback fills: its own, or with a pool
/// a chunk of it, held until the next callback (libarchive no longer reads a buffer once it has
/// asked for the next one), so blocks handed out of it can be hashed on another thread meanwhile.
private final class SourceBridge {
    let source: any ByteSource
    private let pool: ChunkPool?
    private let buffer: UnsafeMutableRawBufferPointer?
    /// The pool chunk libarchive is reading now.
    private(set) var held: ChunkPool.Chunk?
    var error: FerryError?

    init(source: any ByteSource, pool: ChunkPool?) {
        self.source = source
        self.pool = pool
        buffer = pool == nil ? UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16) : nil
    }

    deinit {
        buffer?.deallocate()
        if let held { pool?.release(held) }
    }

    /// The buffer for the next read: with a pool, the previous chunk is released first (so a
    /// pool of two never waits on itself), then a free one is taken.
    private func nextBuffer() -> UnsafeMutableRawBufferPointer? {
        guard let pool else { return buffer }
        if let held { pool.release(held) }
        let chunk = pool.acquire()
        held = chunk
        return chunk.buffer
    }

    func fill(_ out: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        do {
            guard let buffer = nextBuffer() else { return -1 }
            let n = try source.read(into: buffer)
            out.pointee = UnsafeRawPointer(buffer.baseAddress)
            return n
        } catch let error as FerryError {
            self.error = error
            return -1
        } catch {
            self.error = FerryError(.unreadableInput, "read failed: \(error)")
            return -1
        }
    }
}
