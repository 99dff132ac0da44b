import FerryCore
import FormatBundle

/// A source that serves bytes already read (a sniffed prefix) before the rest of another source,
/// so standard input can be sniffed for its format without being consumed.
final class PrefixedSource: DecompressingSource {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: any ByteSource

    init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    /// The decompressing source's count when the rest is one (a bundle checks its expansion).
    var compressedBytesRead: Int64? { (rest as? any DecompressingSource)?.compressedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let count = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
        return try rest.read(into: buffer)
    }

    /// Reads up to `count` bytes from `source` for sniffing and returns them with a source that
    /// replays them.
    static func sniff(_ source: any ByteSource, count: Int = 4096) throws -> ([UInt8], any ByteSource) {
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
