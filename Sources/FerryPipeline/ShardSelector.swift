import FerryCore
import FormatBundle
import Foundation

/// Splits a batch's inputs into N deterministic shards, so several machines can each take one
/// (`--shard K/N`) with no coordinator: the shard of an input is the first 8 bytes of the SHA-256
/// of its NFC relative path, as a big-endian integer, modulo N, plus 1. Never Swift's `Hasher`,
/// whose seed changes with every process.
public enum ShardSelector {
    /// The 1-based shard of `relativePath` among `count`.
    public static func shard(of relativePath: String, count: Int) -> Int {
        // SHA-256 fails only when libcrypto cannot allocate; shard 1 then still gets the input.
        let hex = (try? SHA256Hasher.hex(of: Array(relativePath.precomposedStringWithCanonicalMapping.utf8))) ?? ""
        let prefix = UInt64(hex.prefix(16), radix: 16) ?? 0
        return Int(prefix % UInt64(max(count, 1))) + 1
    }

    /// Parses `K/N` (1 <= K <= N).
    /// - Throws: `FerryError(.usage)` for anything else.
    public static func parse(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            throw FerryError(.usage, "--shard takes K/N with 1 <= K <= N, such as 2/8, not '\(text)'")
        }
        return (k, n)
    }
}
