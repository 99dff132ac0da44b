import CLibArchive
import FerryCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes a tar archive (pax interchange format, restricted: plain ustar headers unless a name needs
/// a pax record), a zip, or a single raw compressed stream, through a compression filter, into a
/// `ByteSink`.
///
/// Reproducibility: gzip output carries no timestamp and no file name (`timestamp` option off);
/// zstd and xz run single-threaded; names are written as UTF-8 under a UTF-8 ctype locale.
public final class ArchiveWriter {
    /// The container written: a tar archive, one raw stream (for `.json.gz` and the like), or a
    /// zip (members deflated, sizes and CRC in a data descriptor after each member).
    public enum Format: Sendable { case tar, raw, zip }

    private let archive: OpaquePointer
    private let bridge: SinkBridge
    private let name: String
    private var currentMember: String?
    private var closed = false
    /// True for an unblocked plain tar, whose end `close()` pads to `Self.blockSize`.
    private var padsToBlock = false

    /// libarchive's default tar block (20 records of 512 bytes): a plain tar's size is a multiple of it.
    static let blockSize = 10240

    /// The bytes handed to the sink so far. For a plain tar this is the offset in the archive of
    /// the next byte written (after `beginEntry`, where the member's content starts); compressed
    /// output counts compressed bytes as libarchive passes them on.
    public var position: Int64 { bridge.count }

    /// Starts an archive written to `sink`.
    /// - Parameters:
    ///   - sink: where the (compressed) bytes go; flushed by `close()`.
    ///   - name: the output's path, for error locations.
    ///   - format: tar or raw.
    ///   - compression: the filter; `.none` writes plain bytes.
    /// - Throws: `FerryError(.outputUnwritable)` when libarchive refuses the setup (a filter it was
    ///   built without).
    public convenience init(sink: any ByteSink, name: String, format: Format, compression: Compression) throws {
        try self.init(sink: sink, name: name, format: format, compression: compression, blocksPlainTar: false)
    }

    /// `blocksPlainTar`: let libarchive block a plain tar itself (its 10240-byte buffer), as
    /// before; the tests compare both ways byte for byte.
    init(sink: any ByteSink, name: String, format: Format, compression: Compression, blocksPlainTar: Bool) throws {
        guard let archive = archive_write_new() else {
            throw FerryError(.internalError, "libarchive could not allocate a writer", at: SourceLocation(file: name))
        }
        self.archive = archive
        self.name = name
        self.bridge = SinkBridge(sink: sink)
        var status: Int32
        switch format {
        case .tar: status = archive_write_set_format_pax_restricted(archive)
        case .raw: status = archive_write_set_format_raw(archive)
        case .zip: status = archive_write_set_format_zip(archive)
        }
        try check(status, "cannot select the archive format")
        switch compression {
        case .none:
            status = archive_write_add_filter_none(archive)
        case .gzip:
            status = archive_write_add_filter_gzip(archive)
            if status == ArchiveStatus.ok {
                // A NULL value turns the boolean option off: no modification time in the header.
                status = archive_write_set_filter_option(archive, "gzip", "timestamp", nil)
            }
        case .zstd:
            status = archive_write_add_filter_zstd(archive)
        case .xz:
            status = archive_write_add_filter_xz(archive)
        case .bzip2:
            status = archive_write_add_filter_bzip2(archive)
        }
        try check(status, "cannot set up \(compression) compression")
        if format == .zip {
            // A zip compresses member by member (deflate, libarchive's default, named here so a
            // changed default cannot change the bytes); unblocked, so `position` is exact and
            // nothing follows the end of the central directory.
            guard compression == .none else {
                throw FerryError(.internalError, "a zip takes no outer compression", at: SourceLocation(file: name))
            }
            try check(archive_write_set_format_option(archive, "zip", "compression", "deflate"),
                      "cannot select deflate for the zip")
            archive_write_set_bytes_per_block(archive, 0)
            archive_write_set_bytes_in_last_block(archive, 1)
        } else if compression != .none || format == .raw {
            // No zero padding after a compressed stream (gzip would see trailing garbage).
            archive_write_set_bytes_in_last_block(archive, 1)
        } else if !blocksPlainTar {
            // A plain tar goes unblocked: every write reaches the sink at once, so content passes
            // without a copy into libarchive's 10240-byte blocks (issue 7) and `position` is exact.
            // `close()` pads the end to a whole block, as the blocked writer did: same bytes.
            archive_write_set_bytes_per_block(archive, 0)
            padsToBlock = true
        }
        let context = Unmanaged.passUnretained(bridge).toOpaque()
        status = withUTF8CType {
            archive_write_open2(archive, context, nil, { _, context, buffer, length in
                guard let context, let buffer else { return -1 }
                let bridge = Unmanaged<SinkBridge>.fromOpaque(context).takeUnretainedValue()
                return bridge.write(UnsafeRawBufferPointer(start: buffer, count: length))
            }, nil, nil)
        }
        try check(status, "cannot open the archive for writing")
    }

    deinit {
        if !closed { archive_write_fail(archive) }
        archive_write_free(archive)
    }

    private func check(_ status: Int32, _ fallback: String) throws {
        guard status != ArchiveStatus.ok else { return }
        if let error = bridge.error { throw error }
        let message = errorString(archive, fallback: fallback)
        throw FerryError(.outputUnwritable, message, at: SourceLocation(file: name, member: currentMember))
    }

    /// Writes a member header. A file's content follows through `write(_:)`, exactly `size` bytes.
    /// - Parameters:
    ///   - path: the member path (UTF-8, relative, `/` separators).
    ///   - kind: `.file` or `.directory` (others are not written by Ferry).
    ///   - size: the content size in bytes (0 for folders); nil leaves it unset (raw streams).
    ///   - permissions: mode bits, 0o644 for files and 0o755 for folders in bundles.
    ///   - modificationTime: seconds since 1970; owner and group are 0 with empty names.
    /// - Throws: `FerryError(.outputUnwritable)` with libarchive's message and the member.
    public func beginEntry(
        path: String, kind: ArchiveEntryKind = .file, size: Int64?, permissions: UInt32, modificationTime: Int64
    ) throws {
        guard let entry = archive_entry_new() else {
            throw FerryError(.internalError, "libarchive could not allocate an entry")
        }
        defer { archive_entry_free(entry) }
        currentMember = path
        archive_entry_set_pathname_utf8(entry, path)
        let type: UInt32 = kind == .directory ? 0o040000 : 0o100000
        archive_entry_set_filetype(entry, type)
        archive_entry_set_perm(entry, mode_t(permissions))
        if let size { archive_entry_set_size(entry, la_int64_t(size)) } else { archive_entry_unset_size(entry) }
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        archive_entry_set_uname(entry, "")
        archive_entry_set_gname(entry, "")
        let status = withUTF8CType { archive_write_header(archive, entry) }
        try check(status, "cannot write the member header")
    }

    /// Writes content bytes of the current member.
    /// - Throws: `FerryError(.outputUnwritable)` (the sink's error, or libarchive's).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let n = archive_write_data(archive, base + offset, bytes.count - offset)
            guard n > 0 else {
                if let error = bridge.error { throw error }
                throw FerryError(.outputUnwritable, errorString(archive, fallback: "write failed"),
                                 at: SourceLocation(file: name, member: currentMember))
            }
            offset += n
        }
    }

    /// Ends the current member: for a zip, writes its data descriptor (CRC-32 and sizes), so
    /// `position` is then where the next member's header, or the central directory, starts.
    /// `beginEntry` and `close()` do this themselves.
    /// - Throws: `FerryError(.outputUnwritable)`.
    public func finishEntry() throws {
        try check(archive_write_finish_entry(archive), "cannot finish the member")
    }

    /// Ends the archive (end-of-archive blocks, the compressor's trailer) and flushes the sink.
    /// - Throws: `FerryError(.outputUnwritable)`.
    public func close() throws {
        guard !closed else { return }
        closed = true
        let status = archive_write_close(archive)
        try check(status, "cannot finish the archive")
        if padsToBlock {
            let padding = (Self.blockSize - Int(bridge.count % Int64(Self.blockSize))) % Self.blockSize
            if padding > 0 { try bridge.sink.write([UInt8](repeating: 0, count: padding)) }
        }
        try bridge.sink.flush()
    }
}

/// Holds the ByteSink libarchive's write callback writes to.
private final class SinkBridge {
    let sink: any ByteSink
    var error: FerryError?
    /// Bytes written to the sink so far.
    private(set) var count: Int64 = 0

    init(sink: any ByteSink) { self.sink = sink }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        do {
            try sink.write(bytes)
            count += Int64(bytes.count)
            return bytes.count
        } catch let error as FerryError {
            self.error = error
            return -1
        } catch {
            self.error = FerryError(.outputUnwritable, "write failed: \(error)")
            return -1
        }
    }
}
