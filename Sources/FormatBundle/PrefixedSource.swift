import FerryCore

/// A source that serves bytes already read (a sniffed prefix) before the rest of another source,
/// so an input (standard input included) can be sniffed for its format, or an archive for tar or
/// zip, without losing what was read.
public final class PrefixedSource: DecompressingSource {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: any ByteSource

    public init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    /// The decompressing source's count when the rest is one (a bundle checks its expansion).
    public var compressedBytesRead: Int64? { (rest as? any DecompressingSource)?.compressedBytesRead }

    public var stop: DecompressionStop? { (rest as? any DecompressingSource)?.stop }

    public func endQuietlyAtStop() { (rest as? any DecompressingSource)?.endQuietlyAtStop() }

    public var endsAtCut: Bool { rest.endsAtCut }

    /// The prefix's bytes first, the buffer then filled on from the rest in the same call, so reads
    /// after it see the buffer sizes they would have seen without it.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < prefix.count else { return try rest.read(into: buffer) }
        let count = min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        offset += count
        guard offset == prefix.count, count < buffer.count else { return count }
        return count + (try rest.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])))
    }

    /// Reads up to `count` bytes from `source` (fewer only at its end) and returns them with a
    /// source that replays them before the rest.
    /// - Throws: the source's read errors.
    public static func sniff(_ source: any ByteSource, count: Int = 4096) throws -> ([UInt8], any ByteSource) {
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try head.withUnsafeMutableBytes { buffer in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if n == 0 { break }
            filled += n
        }
        head.removeSubrange(filled...)
        return (head, PrefixedSource(prefix: head, rest: source))
    }
}
