import FerryCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Forwards bytes to another sink while counting them and hashing them with SHA-256.
final class HashingSink: ByteSink {
    let inner: any ByteSink
    let hasher = SHA256Hasher()
    private(set) var count: Int64 = 0

    init(_ inner: any ByteSink) { self.inner = inner }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try inner.write(bytes)
        hasher.update(bytes)
        count += Int64(bytes.count)
    }

    func flush() throws { try inner.flush() }
}
