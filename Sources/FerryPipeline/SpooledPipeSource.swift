import FerryCore
import Foundation

/// An input that is not a regular file (standard input from a pipe or a terminal, a named pipe
/// such as `<(jq -S . notes.json)`), read as it comes and yet readable a second time from its
/// first byte, as `ReadOptions.reopen` reads a regular file again: a JSON document whose envelope
/// stands after its collections is read ahead to find it before its first record.
///
/// Reads pass through, and the bytes they hand out are kept in memory up to `prefixLimit` (8 MiB;
/// the copy is dropped past it: a reader asks for its second reading while it starts, before its
/// first record, a few chunks in), or until `stopKeeping()` (its reader handed on a record).
/// `reopen()` reads the rest of the pipe: into memory when the whole input stays within
/// `prefixLimit` (a short pipe needs no file), else into an unlinked temporary file (`SpoolFile`);
/// it serves this source's own reads from that rest from then on, where the pipe stood, and
/// returns a source that replays the kept bytes and then the rest from its start. An input that
/// is never read again costs a copy of the bytes read before its first record, and no file.
///
/// The first reading and the second run on the reader's thread in turn; a lock makes any other
/// order safe as well.
final class SpooledPipeSource: ByteSource, @unchecked Sendable {
    /// Why `reopen()` gave no second reading.
    enum Refusal: Sendable, Equatable {
        /// More than `limit` bytes had been read when it was asked.
        case pastKeptPrefix(limit: Int)
        /// The temporary file could not be made; its error's message.
        case noTemporaryFile(String)
        /// Reading the rest (into memory or the temporary file) failed after taking bytes from the
        /// pipe: the first reading cannot go on either (its reads throw the same error).
        case copyFailed(String)
    }

    /// The bytes kept for a second reading: 8 MiB.
    static let defaultPrefixLimit = 8 << 20

    private let pipe: any ByteSource
    private let name: String
    private let prefixLimit: Int
    private let makeSpool: () throws -> SpoolFile
    private let lock = NSLock()
    // Under `lock` from here on.
    /// The bytes handed out from the pipe so far, from its first; nil past `prefixLimit`.
    private var prefix: [UInt8]? = []
    /// What `reopen()` read of the pipe.
    private enum Rest {
        /// All the rest, in memory.
        case memory([UInt8])
        /// All the rest, in a temporary file.
        case file(SpoolFile)
        /// The bytes read ahead for a second reading that was then refused (no temporary file):
        /// the pipe goes on after them, and nothing replays.
        case readAhead([UInt8])
    }
    /// What `reopen()` read of the pipe, and this source's next offset in it.
    private var rest: Rest?
    private var restOffset: Int64 = 0
    /// Reading the rest failed after taking bytes from the pipe: reading on would skip them.
    private var failure: FerryError?
    private var lastRefusal: Refusal?

    /// Wraps `pipe`, an input whose bytes can be read once, from its first byte on.
    /// - Parameters:
    ///   - name: the input's name for error locations (`-` for standard input).
    ///   - prefixLimit: how many of the first bytes are kept for a second reading.
    ///   - makeSpool: makes the temporary file the rest of the pipe is copied into.
    init(_ pipe: any ByteSource, name: String, prefixLimit: Int = defaultPrefixLimit,
         makeSpool: @escaping () throws -> SpoolFile = { try SpoolFile(kind: "input") })
    {
        self.pipe = pipe
        self.name = name
        self.prefixLimit = prefixLimit
        self.makeSpool = makeSpool
    }

    /// Why the last `reopen()` gave no second reading; nil when none was refused.
    var refusal: Refusal? { lock.withLock { lastRefusal } }

    /// Drops the kept bytes and keeps none from now on: nothing will read this input again (its
    /// reader handed on a record; an archive, whose members are read once). A second reading
    /// already given keeps its bytes.
    func stopKeeping() {
        lock.withLock { if rest == nil { prefix = nil } }
    }

    /// The pipe's next bytes, or once `reopen()` copied its rest, the copy's.
    /// - Throws: the pipe's read errors, or the error of a copy that failed midway.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try lock.withLock {
            if let failure { throw failure }
            if let rest {
                let n = try Self.read(rest, at: restOffset, into: buffer)
                restOffset += Int64(n)
                guard n == 0, case .readAhead = rest else { return n }
            }
            let n = try pipe.read(into: buffer)
            if let kept = prefix?.count {
                if kept + n > prefixLimit {
                    prefix = nil
                } else if n > 0 {
                    prefix?.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                }
            }
            return n
        }
    }

    /// The input from its first byte again: the kept bytes, then the rest of the pipe, which is
    /// read first (this source reads on from it): into memory when the whole input is within
    /// `prefixLimit`, else into a temporary file. Each call gives a new reading of the same bytes.
    /// - Throws: `FerryError(.unreadableInput)` when more than `prefixLimit` bytes were read
    ///   already, the temporary file's `output-unwritable` when one is needed and cannot be made,
    ///   or `unreadable-input` when reading the rest fails (this source's reads then throw it too);
    ///   `refusal` says which.
    func reopen() throws -> any ByteSource {
        try lock.withLock {
            if let failure { throw failure }
            if case .readAhead = rest {
                throw FerryError(.unreadableInput, "it cannot be read again: no temporary file could be made for its rest",
                                 at: SourceLocation(file: name))
            }
            if rest == nil {
                guard let kept = prefix else {
                    lastRefusal = .pastKeptPrefix(limit: prefixLimit)
                    throw FerryError(.unreadableInput, "more than its first \(prefixLimit) bytes were read before a second reading was asked",
                                     at: SourceLocation(file: name))
                }
                // Read on in memory while the whole input stays within the bound.
                var ahead: [UInt8] = []
                var ended = false
                try guarded {
                    var chunk = [UInt8](repeating: 0, count: 64 << 10)
                    while kept.count + ahead.count <= prefixLimit {
                        let n = try chunk.withUnsafeMutableBytes { try pipe.read(into: $0) }
                        if n == 0 {
                            ended = true
                            break
                        }
                        ahead.append(contentsOf: chunk[..<n])
                    }
                }
                if ended {
                    rest = .memory(ahead)
                } else {
                    let file: SpoolFile
                    do {
                        file = try makeSpool()
                    } catch {
                        lastRefusal = .noTemporaryFile((error as? FerryError)?.diagnostic.message ?? "\(error)")
                        // The bytes read ahead are still the first reading's, then the pipe's.
                        rest = .readAhead(ahead)
                        prefix = nil
                        throw error
                    }
                    try guarded {
                        try ahead.withUnsafeBytes { _ = try file.append($0) }
                        try copyRest(into: file)
                    }
                    rest = .file(file)
                }
            }
            return Replay(prefix: prefix ?? [], owner: self)
        }
    }

    /// Runs `body`, which takes bytes from the pipe for the rest: when it fails, the first reading
    /// cannot go on either (bytes it would read are gone), and its reads throw the same error.
    private func guarded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let reason = (error as? FerryError)?.diagnostic.message ?? "\(error)"
            lastRefusal = .copyFailed(reason)
            let stop = FerryError(.unreadableInput, "cannot read on: reading it ahead to read it again failed (\(reason))",
                                  at: SourceLocation(file: name))
            failure = stop
            throw stop
        }
    }

    /// The bytes of `rest` from `offset`.
    private static func read(_ rest: Rest, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch rest {
        case .file(let file):
            return try file.read(at: offset, into: buffer)
        case .memory(let bytes), .readAhead(let bytes):
            let start = Int(offset)
            let count = min(buffer.count, bytes.count - start)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
            return count
        }
    }

    /// Copies what is left of the pipe to the end of `file`, 1 MiB at a time: a pipe's reads give
    /// 64 KiB at most, which the file would copy into its buffer; a full MiB is written through.
    private func copyRest(into file: SpoolFile) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var ended = false
        while !ended {
            var filled = 0
            while filled < chunk.count {
                let n = try chunk.withUnsafeMutableBytes { try pipe.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                if n == 0 {
                    ended = true
                    break
                }
                filled += n
            }
            try chunk.withUnsafeBytes { _ = try file.append(UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
        }
        // Its last bytes on disk now: a failure is the copy's, not a later read's.
        try file.flush()
    }

    /// The bytes of the rest from `offset`, for a replay.
    private func readRest(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try lock.withLock {
            guard let rest else { return 0 }
            return try Self.read(rest, at: offset, into: buffer)
        }
    }

    /// A second reading: the kept bytes, then the rest from its start, filling each buffer across
    /// the seam as the first reading's were.
    private final class Replay: ByteSource {
        private let prefix: [UInt8]
        private let owner: SpooledPipeSource
        /// Bytes handed out so far, from the input's first.
        private var offset = 0

        init(prefix: [UInt8], owner: SpooledPipeSource) {
            self.prefix = prefix
            self.owner = owner
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            var done = 0
            if offset < prefix.count {
                done = min(buffer.count, prefix.count - offset)
                prefix.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + done)]))
                }
                offset += done
            }
            if done < buffer.count {
                let n = try owner.readRest(at: Int64(offset - prefix.count), into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                done += n
                offset += n
            }
            return done
        }
    }
}
