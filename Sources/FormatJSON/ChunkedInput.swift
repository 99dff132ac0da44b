#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryCore

/// A window onto a `ByteSource`: bytes are read in chunks into one buffer that grows only as far
/// as one record needs; bytes before the earliest offset still needed are dropped when room is
/// short. Also tracks the line and column of a cursor that only moves forward, so record starts
/// get their positions in one pass over the input.
final class ChunkedInput {
    private let source: any ByteSource
    private let chunkSize: Int
    // `buffer`, `end` and `pos` are used by the reader that owns this input, on one thread, and
    // no two accesses overlap (a closure given the bytes reads `end` or moves `pos`, never
    // writes the buffer): `@exclusivity(unchecked)` spares the runtime checks that cutting a
    // JSON document's batch paid three times per element.
    /// Storage; bytes `0..<end` are valid.
    @exclusivity(unchecked) private(set) var buffer: [UInt8]
    /// One past the last valid byte.
    @exclusivity(unchecked) private(set) var end = 0
    /// The next byte to consume.
    @exclusivity(unchecked) var pos = 0
    /// True once the source returned 0.
    private(set) var isExhausted = false
    /// Bytes dropped from the front of the buffer so far: `dropped + pos` is the input offset.
    private(set) var dropped = 0
    /// The offset in the whole input of the next byte to consume.
    var offset: Int { dropped + pos }

    private var cursorOffset = 0
    private var cursor = TextPosition(line: 1, column: 1)

    /// False when nobody asks for positions (JSON Lines counts lines itself): the cursor then stays.
    private let tracksPositions: Bool

    init(source: any ByteSource, chunkSize: Int, tracksPositions: Bool = true) {
        self.source = source
        self.tracksPositions = tracksPositions
        self.chunkSize = max(1, chunkSize)
        self.buffer = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// Reads more bytes, keeping every byte from `keep` on. Offsets may move down: the returned
    /// shift is to be subtracted from any offset the caller holds (`pos` is adjusted already).
    /// - Returns: the shift, and whether any byte was added (false at the end of the source).
    func fill(keeping keep: Int) throws -> (shift: Int, added: Bool) {
        guard !isExhausted else { return (0, false) }
        var shift = 0
        let keepFrom = min(keep, pos)
        if buffer.count - end < chunkSize / 2 + 1, keepFrom > 0 {
            advanceCursor(to: keepFrom)
            let kept = end - keepFrom
            buffer.withUnsafeMutableBufferPointer { p in
                guard let base = p.baseAddress else { return }
                (base).update(from: base + keepFrom, count: kept)
            }
            shift = keepFrom
            dropped += shift
            end = kept
            pos -= shift
            if tracksPositions { cursorOffset -= shift }
        }
        if buffer.count - end < chunkSize / 2 + 1 {
            let grown = max(buffer.count * 2, end + chunkSize)
            buffer.append(contentsOf: repeatElement(0, count: grown - buffer.count))
        }
        let capacity = buffer.count
        let start = end
        let n = try buffer.withUnsafeMutableBytes { raw in
            try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start..<capacity]))
        }
        if n <= 0 {
            isExhausted = true
            return (shift, false)
        }
        end += min(n, capacity - start)
        return (shift, true)
    }

    /// The byte at `pos`, reading more if needed; nil at the end of the input.
    func peek() throws -> UInt8? {
        while pos >= end {
            if try !fill(keeping: pos).added { return nil }
        }
        return buffer[pos]
    }

    /// Makes at least `count` bytes from `pos` available when the input has them.
    func require(_ count: Int) throws {
        while end - pos < count {
            if try !fill(keeping: pos).added { return }
        }
    }

    /// Reads on until the object or array starting at `pos` is buffered whole, found by a scan
    /// that only pairs brackets outside strings (the parser checks everything else), or until
    /// `limit` bytes from `pos` are buffered, or the input ends. A large value is then parsed
    /// once: parsing a growing prefix again after each read parsed it about twice over.
    func requireContainer(limit: Int) throws {
        var scan = BracketScan()
        var i = pos
        while true {
            let (next, closed) = buffer.withUnsafeBufferPointer { scan.run(over: $0, from: i, to: end) }
            if closed { return }
            i = next
            if end - pos >= limit { return }
            let (shift, added) = try fill(keeping: pos)
            i -= shift
            if !added { return }
        }
    }

    /// Moves `pos` past the object or array starting at it, found by the same bracket scan, holding
    /// no more of it than a read brings. False when the input ends first.
    func skipContainer() throws -> Bool {
        var scan = BracketScan()
        while true {
            let (next, closed) = buffer.withUnsafeBufferPointer { scan.run(over: $0, from: pos, to: end) }
            pos = next
            if closed { return true }
            if try !fill(keeping: pos).added { return false }
        }
    }

    /// Skips JSON whitespace, reading more as needed.
    func skipWhitespace() throws {
        while true {
            let found = buffer.withUnsafeBufferPointer { p in
                JSONSyntax.skipWhitespace(in: p, from: pos, to: end)
            }
            pos = found
            if pos < end { return }
            if try !fill(keeping: pos).added { return }
        }
    }

    /// Refuses UTF-16 and UTF-32 at the start of the input and skips a UTF-8 byte order mark
    /// (positions count from after it).
    /// - Throws: `FerryError(.invalidEncoding)` at line 1, column 1 of `location`.
    func skipByteOrderMark(at location: SourceLocation) throws {
        try require(4)
        let available = min(4, end - pos)
        try withBytes { p in
            let prefix = UnsafeBufferPointer(rebasing: p[pos..<(pos + available)])
            if let problem = JSONSyntax.encodingProblem(prefix) {
                var location = location
                location.position = TextPosition(line: 1, column: 1)
                throw FerryError(.invalidEncoding, problem, at: location)
            }
            if JSONSyntax.hasByteOrderMark(prefix) {
                pos += 3
                resetPosition(at: pos)
            }
        }
    }

    /// The line and column of `offset` (not before any offset asked for earlier).
    func position(at offset: Int) -> TextPosition {
        advanceCursor(to: offset)
        return cursor
    }

    /// Starts counting positions afresh at `offset` (after a byte order mark).
    func resetPosition(at offset: Int) {
        cursorOffset = offset
        cursor = TextPosition(line: 1, column: 1)
    }

    private func advanceCursor(to offset: Int) {
        guard tracksPositions, offset > cursorOffset else { return }
        cursor = buffer.withUnsafeBufferPointer { p in
            ByteBlock.advance(cursor, in: p, from: cursorOffset, to: offset)
        }
        cursorOffset = offset
    }

    /// A stretch of the buffer found by `nextLine`.
    struct Extent {
        var range: Range<Int>
        /// True when the line was longer than the limit (and skipped).
        var truncated: Bool
        /// True when the input ends where the line ends, with no line break after it.
        var endsInput = false
    }

    /// Finds the next line from `pos`: its bytes without the LF (and without a CR before it), and
    /// moves `pos` past the LF. Nil at the end of the input. A line longer than `limit` is
    /// returned `truncated` at the limit, and the rest of it is skipped without being kept.
    func nextLine(limit: Int) throws -> Extent? {
        var start = pos
        var i = pos
        while true {
            let newline: Int? = buffer.withUnsafeBufferPointer { p in
                guard i < end, let base = p.baseAddress else { return nil }
                guard let hit = memchr(base + i, Int32(JSONSyntax.newline), end - i) else { return nil }
                return i + UnsafeRawPointer(base + i).distance(to: UnsafeRawPointer(hit))
            }
            if let newline {
                pos = newline + 1
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == JSONSyntax.carriageReturn { lineEnd -= 1 }
                return Extent(range: start..<lineEnd, truncated: false)
            }
            i = end
            if end - start > limit {
                try skipRestOfLine()
                return Extent(range: start..<start, truncated: true)
            }
            let (shift, added) = try fill(keeping: start)
            start -= shift
            i -= shift
            if !added {
                guard start < end else { return nil }
                pos = end
                var lineEnd = end
                if buffer[lineEnd - 1] == JSONSyntax.carriageReturn { lineEnd -= 1 }
                return Extent(range: start..<lineEnd, truncated: false, endsInput: true)
            }
        }
    }

    /// Calls `body` with each whole line the buffer holds from `pos` (its bytes without the LF and
    /// without a CR before it, as `nextLine` gives them) and moves `pos` past its LF, while `more()`
    /// says so; stops at the first line whose LF is not in the buffer yet, which `nextLine` reads.
    /// The buffer is reached once for all of them: each access counts a reference to it.
    @inline(__always)
    func takeBufferedLines(while more: () -> Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        buffer.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            var start = pos
            while start < end, more() {
                guard let hit = memchr(base + start, Int32(JSONSyntax.newline), end - start) else { return }
                let newline = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                var lineEnd = newline
                if lineEnd > start, base[lineEnd - 1] == JSONSyntax.carriageReturn { lineEnd -= 1 }
                pos = newline + 1
                body(UnsafeBufferPointer(start: base + start, count: lineEnd - start))
                start = newline + 1
            }
        }
    }

    /// Drops bytes up to and including the next LF.
    private func skipRestOfLine() throws {
        pos = end
        while true {
            if try !fill(keeping: pos).added { return }
            if let newline = buffer[pos..<end].firstIndex(of: JSONSyntax.newline) {
                pos = newline + 1
                return
            }
            pos = end
        }
    }

    /// Calls `body` with the buffer's bytes.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try buffer.withUnsafeBufferPointer(body)
    }

    /// A copy of the bytes in `range`.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(buffer[range])
    }

    /// The bytes of `range`, which ends at or before `pos`, as an array of their own; every byte
    /// before the range's end is dropped, so offsets move down by `range.upperBound` (`pos` is
    /// adjusted already). A range of at least `handOverSize` bytes is handed over without a copy:
    /// the buffer itself becomes the result and a fresh chunk-sized buffer takes the bytes after
    /// it, so a 250 MB record is held once, not once here and once in its copy.
    func take(_ range: Range<Int>) -> [UInt8] {
        guard range.count >= Self.handOverSize else { return copy(range) }
        advanceCursor(to: range.upperBound)
        let tail = end - range.upperBound
        var fresh = [UInt8](repeating: 0, count: max(chunkSize, tail + chunkSize / 2 + 1))
        fresh.withUnsafeMutableBufferPointer { target in
            buffer.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                to.update(from: from + range.upperBound, count: tail)
            }
        }
        var taken = buffer
        buffer = fresh
        // `taken` is the only reference now: moving the range down and cutting the end is in place.
        taken.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress, range.lowerBound > 0 else { return }
            base.update(from: base + range.lowerBound, count: range.count)
        }
        taken.removeLast(taken.count - range.count)
        let shift = range.upperBound
        end = tail
        pos -= shift
        if tracksPositions { cursorOffset -= shift }
        return taken
    }

    /// The smallest range `take(_:)` hands over rather than copies (16 MiB).
    static let handOverSize = 16 << 20
}
