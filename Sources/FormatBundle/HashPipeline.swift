import Dispatch
import FerryCore
import Foundation

/// Fixed-size buffers shared by the thread that moves bytes (reading, writing) and the hashing
/// thread. A chunk counts its users (libarchive's reader holding the block it handed out, a hash
/// job, the copier writing it) and goes back to the pool when the last one releases it, so no
/// buffer is refilled while its bytes are still being hashed. `acquire()` waits when every chunk
/// is in use: memory stays bounded whatever the input size.
final class ChunkPool: @unchecked Sendable {
    /// One buffer of the pool, named by its index.
    struct Chunk: @unchecked Sendable {
        let index: Int
        let buffer: UnsafeMutableRawBufferPointer

        /// True when `bytes` lie inside this chunk's buffer.
        func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let start = bytes.baseAddress, let base = buffer.baseAddress else { return false }
            let begin = UnsafeRawPointer(base)
            return start >= begin && start + bytes.count <= begin + buffer.count
        }
    }

    private let buffers: [UnsafeMutableRawBufferPointer]
    private var users: [Int]
    private var free: [Int]
    private let lock = NSLock()
    private let available: DispatchSemaphore

    init(chunkSize: Int, count: Int) {
        buffers = (0..<count).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 4096) }
        users = Array(repeating: 0, count: count)
        free = Array((0..<count).reversed())
        available = DispatchSemaphore(value: count)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// A free chunk with one user (the caller), waiting until one is released if none is free.
    func acquire() -> Chunk {
        available.wait()
        let index = lock.withLock {
            // The semaphore counts the free chunks: after its wait, one is free.
            let index = free.removeLast()
            users[index] = 1
            return index
        }
        return Chunk(index: index, buffer: buffers[index])
    }

    /// Adds a user to a chunk in use.
    func retain(_ chunk: Chunk) {
        lock.withLock { users[chunk.index] += 1 }
    }

    /// Drops a user; the chunk is free again when none is left.
    func release(_ chunk: Chunk) {
        let isFree = lock.withLock {
            users[chunk.index] -= 1
            guard users[chunk.index] == 0 else { return false }
            free.append(chunk.index)
            return true
        }
        if isFree { available.signal() }
    }
}

/// A SHA-256 being computed on the hashing thread: `value()` waits for the jobs queued for it.
final class PendingDigest: @unchecked Sendable {
    fileprivate let hasher = SHA256Hasher()
    fileprivate var result: Result<String, FerryError>?
    /// True when the calling thread hashed the stream itself (`HashPipeline.hashHere`): no job of
    /// it is queued, so `value()` does not wait for the lane's other jobs.
    fileprivate var isHashedHere = false
    /// The hashing queue of this digest's lane (not the pipeline: the last reference to a digest
    /// may go away on that queue).
    fileprivate let queue: DispatchQueue

    fileprivate init(queue: DispatchQueue) { self.queue = queue }

    /// The digest as 64 lowercase hex digits.
    /// - Throws: `FerryError(.internalError)` when the stream was not finished or OpenSSL failed.
    func value() throws -> String {
        if !isHashedHere { queue.sync {} }
        switch result {
        case .success(let hex)?: return hex
        case .failure(let error)?: throw error
        case nil: throw FerryError(.internalError, "SHA-256 asked for before the stream was finished")
        }
    }
}

/// Hashes streams with SHA-256 on a second thread while the calling thread reads and writes their
/// bytes (issue 7: hashing on the second core). A stream's jobs run in order on the serial queue of
/// its lane; streams take the lanes in turn, so two files can be hashed at once when the copying
/// thread is ahead (hashing is the slower half of packing many files). A stream's
/// digest is finalized by a job too, so the caller never waits between streams: it moves on to the
/// next file while the last chunks of the previous one are still being hashed, and asks for the
/// digests (`PendingDigest.value()`) when it needs them. Memory: the pool's chunks, nothing more.
/// Queued jobs hold what they use (the pool, their digest), so the pipeline may go away before them.
final class HashPipeline: @unchecked Sendable {
    /// The chunk size, in bytes.
    static let chunkSize = 1 << 20

    let pool: ChunkPool
    private let lanes: [DispatchQueue]
    private var nextLane = 0

    /// - Parameters:
    ///   - chunks: the pool size; at least 2 (an archive reader holds one while a block is copied into another).
    ///   - lanes: serial hashing queues; by default 2 with two cores or more, else 1.
    init(chunks: Int = 6, lanes: Int = ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1) {
        pool = ChunkPool(chunkSize: Self.chunkSize, count: max(chunks, 2))
        self.lanes = (0..<max(lanes, 1)).map { DispatchQueue(label: "ferry.sha256.\($0)") }
    }

    /// Starts a digest.
    func begin() -> PendingDigest {
        let queue = lanes[nextLane]
        nextLane = (nextLane + 1) % lanes.count
        return PendingDigest(queue: queue)
    }

    /// Queues `bytes`, which lie in `chunk`, for `digest`; the chunk is kept from reuse until they are hashed.
    func hash(_ bytes: UnsafeRawBufferPointer, in chunk: ChunkPool.Chunk, into digest: PendingDigest) {
        pool.retain(chunk)
        let job = Job(bytes: bytes, chunk: chunk, digest: digest)
        let pool = pool
        digest.queue.async {
            job.digest.hasher.update(job.bytes)
            pool.release(job.chunk)
        }
    }

    /// Queues the end of `digest`'s stream.
    func finish(_ digest: PendingDigest) {
        guard !digest.isHashedHere else { return Self.finalize(digest) }
        digest.queue.async { Self.finalize(digest) }
    }

    private static func finalize(_ digest: PendingDigest) {
        do {
            digest.result = .success(try digest.hasher.finalize())
        } catch let error as FerryError {
            digest.result = .failure(error)
        } catch {
            digest.result = .failure(FerryError(.internalError, "SHA-256: \(error)"))
        }
    }

    /// The streams at most this long are hashed on the calling thread (`hashHere`): a photo of a
    /// few KB is hashed in less time than two jobs take to be queued and run on another thread.
    static let hashedHereSize: Int64 = 64 << 10

    /// Starts a digest of a stream hashed on the calling thread: `hashHere` takes its bytes,
    /// `finish` ends it there, and `value()` waits for no job.
    func beginHere() -> PendingDigest {
        let digest = PendingDigest(queue: lanes[0])
        digest.isHashedHere = true
        return digest
    }

    /// Hashes `bytes` into `digest` (begun with `beginHere`) at once.
    func hashHere(_ bytes: UnsafeRawBufferPointer, into digest: PendingDigest) {
        digest.hasher.update(bytes)
    }

    /// Reads `read` to its end chunk by chunk; each chunk is queued for hashing, then handed to
    /// `write` (nil: hash only) while the hashing thread works on it. Returns the byte count and
    /// the pending digest.
    /// - Parameters:
    ///   - limit: the largest size accepted; more throws `too-large` before the excess is written.
    ///   - read: fills a buffer, returns 0 at the end.
    /// - Throws: what `read` or `write` throw; `FerryError(.tooLarge)` past `limit`.
    func copy(
        limit: Int64 = .max, read: (UnsafeMutableRawBufferPointer) throws -> Int,
        write: ((UnsafeRawBufferPointer) throws -> Void)?
    ) throws -> (size: Int64, digest: PendingDigest) {
        let digest = begin()
        var total: Int64 = 0
        while true {
            let chunk = pool.acquire()
            defer { pool.release(chunk) }
            let n = try read(chunk.buffer)
            if n <= 0 { break }
            total += Int64(n)
            if total > limit {
                throw FerryError(.tooLarge, "content is more than \(limit) bytes, the limit; not read")
            }
            let bytes = UnsafeRawBufferPointer(rebasing: chunk.buffer[0..<n])
            hash(bytes, in: chunk, into: digest)
            try write?(bytes)
        }
        finish(digest)
        return (total, digest)
    }

    /// `copy` with the digest waited for.
    func copyAndDigest(
        limit: Int64 = .max, read: (UnsafeMutableRawBufferPointer) throws -> Int,
        write: ((UnsafeRawBufferPointer) throws -> Void)?
    ) throws -> (size: Int64, sha256: String) {
        let (size, digest) = try copy(limit: limit, read: read, write: write)
        return (size, try digest.value())
    }

    /// One queued hash job's inputs: touched by the hashing thread only once queued.
    private struct Job: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        let chunk: ChunkPool.Chunk
        let digest: PendingDigest
    }
}
