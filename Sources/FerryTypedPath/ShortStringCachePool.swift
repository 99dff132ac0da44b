import FerryCore
import Foundation

/// The short-string caches of one lane's batches, kept from one batch to the next: a batch takes
/// one when it is made and gives it back when it is freed, so a cache is set up once per batch in
/// flight rather than once per batch (512 slots made and destroyed every 128 records), and it
/// starts warm (the values that repeat from line to line are in it already).
///
/// A cache is used by the one batch holding it, so by one thread at a time; the pool itself is
/// shared by the threads that make and free batches.
final class ShortStringCachePool: @unchecked Sendable {
    // @unchecked: `idle` is read and written under `lock` only.
    private let lock = NSLock()
    private var idle: [ShortStringCache] = []

    /// An idle cache, or a new one when none is idle.
    func take() -> ShortStringCache {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast() ?? ShortStringCache()
    }

    /// Gives back a cache that its holder no longer uses.
    func giveBack(_ cache: ShortStringCache) {
        lock.lock()
        defer { lock.unlock() }
        idle.append(cache)
    }
}
