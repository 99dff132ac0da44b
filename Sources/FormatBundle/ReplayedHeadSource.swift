import FerryCore

/// A source that gives back bytes already read from another one before reading on from it: the
/// first bytes of an archive, read to tell a zip from a tar, are not lost.
final class ReplayedHeadSource: ByteSource {
    private var head: [UInt8]
    private var offset = 0
    private let rest: any ByteSource

    init(head: [UInt8], rest: any ByteSource) {
        self.head = head
        self.rest = rest
    }

    /// Reads up to `count` bytes from `source` (fewer only at its end).
    /// - Throws: the source's read errors.
    static func readHead(of source: any ByteSource, count: Int) throws -> [UInt8] {
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try head.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            filled += n
        }
        return Array(head[0..<filled])
    }

    /// The head's bytes first, the buffer then filled on from the rest in the same call, so reads
    /// after it see the buffer sizes they would have seen without it.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < head.count else { return try rest.read(into: buffer) }
        let n = min(buffer.count, head.count - offset)
        head.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
        offset += n
        guard offset == head.count, n < buffer.count else { return n }
        return n + (try rest.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[n...])))
    }
}
