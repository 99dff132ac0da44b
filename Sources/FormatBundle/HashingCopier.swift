import Dispatch
import FerryCore

/// Streams bytes from a reader into a sink in 256 KiB chunks while SHA-256 runs on a second thread
/// (two buffers in turn: chunk k is hashed while chunk k is written and chunk k+1 is read), so
/// hashing media does not slow copying down. Nothing is held whole in memory.
enum HashingCopier {
    /// The chunk size, in bytes.
    static let chunkSize = 256 * 1024

    /// Copies everything `read` yields into `sink` (nil: only hash) and returns the byte count and
    /// the SHA-256 as lowercase hex.
    /// - Parameters:
    ///   - limit: the largest size accepted; more throws `too-large`.
    ///   - read: fills a buffer, returns 0 at the end.
    /// - Throws: what `read` or `sink` throw; `FerryError(.tooLarge)` past `limit`.
    static func copy(
        limit: Int64 = .max, to sink: (any ByteSink)?, read: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> (size: Int64, sha256: String) {
        let hasher = SHA256Hasher()
        let job = HashJob(hasher: hasher)
        let queue = DispatchQueue(label: "ferry.sha256")
        let group = DispatchGroup()
        let buffers = [
            UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16),
            UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16),
        ]
        defer {
            group.wait()
            for buffer in buffers { buffer.deallocate() }
        }
        var total: Int64 = 0
        var turn = 0
        while true {
            let buffer = buffers[turn]
            let n = try read(buffer)
            group.wait()
            if n <= 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            total += Int64(n)
            if total > limit {
                throw FerryError(.tooLarge, "content is more than \(limit) bytes, the limit; not read")
            }
            job.chunk = chunk
            group.enter()
            queue.async {
                job.run()
                group.leave()
            }
            try sink?.write(chunk)
            turn ^= 1
        }
        try sink?.flush()
        return (total, try hasher.finalize())
    }
}

/// The hashing half of `HashingCopier`: touched by one thread at a time (the copier waits for each
/// job before handing out the next), hence `@unchecked Sendable`.
private final class HashJob: @unchecked Sendable {
    let hasher: SHA256Hasher
    var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    init(hasher: SHA256Hasher) { self.hasher = hasher }
    func run() { hasher.update(chunk) }
}
