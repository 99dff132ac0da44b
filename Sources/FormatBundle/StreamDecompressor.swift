import CLibCompression
import FerryCore

/// Why a decompressed stream ended before its compressed end: the input is cut inside it
/// (`truncated-archive`) or its data is corrupt (`malformed-archive`).
public struct DecompressionStop: Sendable, Hashable {
    /// `.truncatedArchive` or `.malformedArchive`.
    public var code: Diagnostic.Code
    /// What happened, lower-case, with no position: `truncated gzip input`,
    /// `gzip decompression failed: invalid block type`.
    public var message: String
    /// The decompressed bytes handed out before the stop.
    public var offset: Int64
    /// The line of the last byte handed out before the stop (1 when none was): what a reader
    /// says of the end of these bytes stands on it or past it.
    public var lastLine: Int

    /// The error of the stop when the stream is a data file of its own (not a tar): `truncated
    /// gzip input at byte offset N of the decompressed data`, at `file`.
    public func error(file: String) -> FerryError {
        FerryError(code, message + " at byte offset \(offset) of the decompressed data", at: SourceLocation(file: file))
    }
}

/// Counts the lines of a decompressed stream as its bytes are handed out, so a stop can say the
/// line of its last byte (`DecompressionStop.lastLine`).
struct LineTally {
    private var newlines = 0
    private var endsWithNewline = false

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        newlines += count
        endsWithNewline = bytes[bytes.count - 1] == 0x0A
    }

    /// The line of the last byte counted (a line break belongs to the line it ends).
    var lastLine: Int { endsWithNewline ? max(newlines, 1) : newlines + 1 }
}

/// Decompresses a gzip, xz, bzip2 or zstd stream with that format's own library (zlib, liblzma,
/// libbz2, libzstd), handing out every byte the compressed input holds: at a cut, all that the
/// bytes before it decode to, as `gzip -dc` does (zstd and bzip2 decode whole blocks).
/// libarchive's filters fill a 64 KiB block at a time and drop the block they were filling when
/// the input ends early, so a `.tar.gz` cut anywhere lost up to 64 KiB of the tar before the cut
/// (a small bundle all of it), and a `.tar.zst` of several frames everything.
///
/// At a cut or corrupt data the stream hands out the bytes before it, then throws a `FerryError`
/// (`truncated-archive` or `malformed-archive`, `at byte offset N of the decompressed data`); once
/// `endQuietlyAtStop()` was called it ends there instead (`read` returns 0) and `stop` says why,
/// so a tar reader above it sees the bytes a plain tar cut at that point holds.
/// Concatenated streams (gzip members, bzip2 streams, xz streams and their padding, zstd frames)
/// read as one; bytes after a gzip, bzip2 or zstd stream that start no other are ignored, as
/// libarchive does.
final class StreamDecompressor: DecompressingSource {
    /// The compressions this type decodes; the others go through libarchive.
    static func decodes(_ compression: Compression) -> Bool {
        compression == .gzip || compression == .xz || compression == .bzip2 || compression == .zstd
    }

    private enum Engine {
        case gzip(UnsafeMutablePointer<z_stream>)
        case xz(UnsafeMutablePointer<lzma_stream>)
        case bzip2(UnsafeMutablePointer<bz_stream>)
        case zstd(OpaquePointer)
    }

    /// What one step of the decoder came to.
    private enum Step { case progress, streamEnd, failed(String) }

    private let compression: Compression
    private let source: any ByteSource
    private let name: String
    private var engine: Engine
    /// Compressed bytes read from `source`, not yet consumed: `input[inputStart..<inputEnd]`.
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var inputEnded = false
    private var finished = false
    private var quiet = false
    private var consumed: Int64 = 0
    private var produced: Int64 = 0
    private var lines = LineTally()
    /// Why the stream ended early; nil while it has not.
    private(set) var stop: DecompressionStop?

    /// - Parameters:
    ///   - source: the compressed bytes, from their first.
    ///   - compression: `.gzip`, `.xz`, `.bzip2` or `.zstd` (`decodes(_:)`).
    ///   - name: the input's path, for error locations.
    /// - Throws: `FerryError(.internalError)` when the library cannot set up its decoder.
    init(source: any ByteSource, compression: Compression, name: String) throws {
        precondition(Self.decodes(compression), "StreamDecompressor decodes gzip, xz, bzip2 and zstd")
        self.source = source
        self.compression = compression
        self.name = name
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        do {
            engine = try Self.makeEngine(compression, name: name)
        } catch {
            input.deallocate()
            throw error
        }
    }

    deinit {
        Self.end(engine)
        input.deallocate()
    }

    private static func makeEngine(_ compression: Compression, name: String) throws -> Engine {
        let ok: Bool
        let engine: Engine
        switch compression {
        case .xz:
            let stream = UnsafeMutablePointer<lzma_stream>.allocate(capacity: 1)
            ok = ferry_lzma_init_xz(stream) == LZMA_OK
            engine = .xz(stream)
        case .bzip2:
            let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
            ok = ferry_bzip2_init(stream) == BZ_OK
            engine = .bzip2(stream)
        case .zstd:
            var stream: OpaquePointer?
            ok = ferry_zstd_init(&stream) != 0
            guard let stream else {
                throw FerryError(.internalError, "the zstd decoder could not be set up", at: SourceLocation(file: name))
            }
            engine = .zstd(stream)
        default:
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            ok = ferry_inflate_init_gzip(stream) == Z_OK
            engine = .gzip(stream)
        }
        guard ok else {
            end(engine, initialised: false)
            throw FerryError(.internalError, "the \(compression) decoder could not be set up", at: SourceLocation(file: name))
        }
        return engine
    }

    private static func end(_ engine: Engine, initialised: Bool = true) {
        switch engine {
        case .gzip(let stream):
            if initialised { inflateEnd(stream) }
            stream.deallocate()
        case .xz(let stream):
            lzma_end(stream)
            stream.deallocate()
        case .bzip2(let stream):
            if initialised { BZ2_bzDecompressEnd(stream) }
            stream.deallocate()
        case .zstd(let stream):
            ZSTD_freeDStream(stream)
        }
    }

    var compressedBytesRead: Int64? { consumed }

    func endQuietlyAtStop() { quiet = true }

    /// True once the stream ended quietly at its stop (`endQuietlyAtStop()`).
    var endsAtCut: Bool { quiet && stop != nil }

    /// Fills `buffer` with decompressed bytes; 0 at the end (or at the stop once
    /// `endQuietlyAtStop()` was called).
    /// - Throws: the source's read errors; at the stop, `FerryError` with its code and message and
    ///   ` at byte offset N of the decompressed data`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if finished || buffer.isEmpty { return 0 }
        if stop != nil { return try stopped() }
        while true {
            if inputStart == inputEnd, !inputEnded { try refill() }
            let before = inputStart
            let (written, step) = run(into: buffer)
            produced += Int64(written)
            lines.add(UnsafeRawBufferPointer(rebasing: buffer[..<written]))
            switch step {
            case .streamEnd:
                if try !startsAnotherStream() { finished = true }
                if written > 0 { return written }
                if finished { return 0 }
            case .failed(let reason):
                stop = DecompressionStop(code: .malformedArchive, message: "\(compression) decompression failed: \(reason)",
                                         offset: produced, lastLine: lines.lastLine)
                return written > 0 ? written : try stopped()
            case .progress:
                if written > 0 { return written }
                if inputStart == before, inputStart == inputEnd, inputEnded {
                    stop = DecompressionStop(code: .truncatedArchive, message: "truncated \(compression) input", offset: produced, lastLine: lines.lastLine)
                    return try stopped()
                }
                if inputStart == before, inputStart < inputEnd {
                    // Input and room for output, yet nothing moved: no decoder does that on good data.
                    stop = DecompressionStop(code: .malformedArchive,
                                             message: "\(compression) decompression failed: no progress is possible", offset: produced, lastLine: lines.lastLine)
                    return try stopped()
                }
            }
        }
    }

    private func stopped() throws -> Int {
        guard let stop, !quiet else { return 0 }
        throw FerryError(stop.code, stop.message + " at byte offset \(stop.offset) of the decompressed data",
                         at: SourceLocation(file: name))
    }

    /// Moves the unconsumed input to the front and reads more after it; `inputEnded` at the
    /// source's end.
    private func refill() throws {
        if inputStart > 0 {
            let left = inputEnd - inputStart
            if left > 0 { input.baseAddress!.copyMemory(from: input.baseAddress! + inputStart, byteCount: left) }
            inputStart = 0
            inputEnd = left
        }
        guard inputEnd < input.count else { return }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: input[inputEnd...]))
        if n == 0 { inputEnded = true }
        inputEnd += n
    }

    /// After a stream's end: true when the next bytes start another stream of the same kind (a
    /// gzip member, a bzip2 stream), whose decoder is then set up. xz's decoder reads
    /// concatenated streams itself.
    private func startsAnotherStream() throws -> Bool {
        let magic: [UInt8]
        switch engine {
        case .xz: return false
        case .gzip: magic = [0x1F, 0x8B]
        case .bzip2: magic = [0x42, 0x5A, 0x68]
        case .zstd: magic = [0x28, 0xB5, 0x2F, 0xFD]
        }
        while inputEnd - inputStart < magic.count, !inputEnded { try refill() }
        guard inputEnd - inputStart >= magic.count else { return false }
        if case .zstd = engine {
            // A frame or a skippable frame (`?? 2A 4D 18` with 5 as the first byte's high nibble);
            // the decoder is ready for it once a frame ended.
            let starts = magic.indices.allSatisfy { input[inputStart + $0] == magic[$0] }
            let skippable = input[inputStart] & 0xF0 == 0x50 && input[inputStart + 1] == 0x2A
                && input[inputStart + 2] == 0x4D && input[inputStart + 3] == 0x18
            return starts || skippable
        }
        guard magic.indices.allSatisfy({ input[inputStart + $0] == magic[$0] }) else { return false }
        switch engine {
        case .gzip(let stream):
            guard inflateReset(stream) == Z_OK else { return false }
        case .bzip2(let stream):
            BZ2_bzDecompressEnd(stream)
            guard ferry_bzip2_init(stream) == BZ_OK else {
                throw FerryError(.internalError, "the bzip2 decoder could not be set up", at: SourceLocation(file: name))
            }
        case .xz, .zstd: return false
        }
        return true
    }

    /// One call of the decoder over the pending input into `buffer`: the bytes written and what
    /// it came to. Advances `inputStart` and `consumed` by the input it took.
    private func run(into buffer: UnsafeMutableRawBufferPointer) -> (written: Int, step: Step) {
        let available = inputEnd - inputStart
        let next = input.baseAddress!.assumingMemoryBound(to: UInt8.self) + inputStart
        let room = min(buffer.count, Int(Int32.max))
        let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let taken: Int, written: Int, step: Step
        switch engine {
        case .gzip(let stream):
            stream.pointee.next_in = next
            stream.pointee.avail_in = uInt(available)
            stream.pointee.next_out = out
            stream.pointee.avail_out = uInt(room)
            let status = inflate(stream, Z_NO_FLUSH)
            taken = available - Int(stream.pointee.avail_in)
            written = room - Int(stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END: step = .streamEnd
            case Z_OK, Z_BUF_ERROR: step = .progress
            default: step = .failed(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
        case .xz(let stream):
            stream.pointee.next_in = UnsafePointer(next)
            stream.pointee.avail_in = available
            stream.pointee.next_out = out
            stream.pointee.avail_out = room
            // The concatenated decoder ends only when told the input is over.
            let status = lzma_code(stream, inputEnded && available == 0 ? LZMA_FINISH : LZMA_RUN)
            taken = available - stream.pointee.avail_in
            written = room - stream.pointee.avail_out
            switch status {
            case LZMA_STREAM_END: step = .streamEnd
            case LZMA_OK, LZMA_BUF_ERROR: step = .progress
            case LZMA_MEMLIMIT_ERROR: step = .failed("the stream needs more memory than the limit of 1 GiB")
            case LZMA_FORMAT_ERROR: step = .failed("not an xz stream")
            case LZMA_OPTIONS_ERROR: step = .failed("unsupported compression options")
            default: step = .failed("corrupt data")
            }
        case .bzip2(let stream):
            stream.pointee.next_in = UnsafeMutableRawPointer(next).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(available)
            stream.pointee.next_out = UnsafeMutableRawPointer(out).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(room)
            let status = BZ2_bzDecompress(stream)
            taken = available - Int(stream.pointee.avail_in)
            written = room - Int(stream.pointee.avail_out)
            switch status {
            case BZ_STREAM_END: step = .streamEnd
            case BZ_OK: step = .progress
            case BZ_DATA_ERROR_MAGIC: step = .failed("not a bzip2 stream")
            default: step = .failed("corrupt data")
            }
        case .zstd(let stream):
            var source = ZSTD_inBuffer(src: UnsafeRawPointer(next), size: available, pos: 0)
            var target = ZSTD_outBuffer(dst: UnsafeMutableRawPointer(out), size: room, pos: 0)
            // 0: a frame is decoded and flushed whole; otherwise a hint of the input still wanted.
            let status = ZSTD_decompressStream(stream, &target, &source)
            taken = source.pos
            written = target.pos
            if ZSTD_isError(status) != 0 {
                step = .failed(String(cString: ZSTD_getErrorName(status)).lowercased())
            } else {
                step = status == 0 ? .streamEnd : .progress
            }
        }
        inputStart += taken
        consumed += Int64(taken)
        return (written, step)
    }
}
