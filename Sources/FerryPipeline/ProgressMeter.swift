import FerryCore
import Foundation

/// Counts the work of a run as it goes (bytes read, records written) for a progress display.
/// Thread-safe: parallel inputs share one meter. Counting is all it does; `ProgressBar` in the CLI draws.
public final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: Int64 = 0
    private var total: Int64 = 0
    private var records = 0

    public init() {}

    /// Adds to the bytes expected in all (the sizes of the inputs; 0 when unknown, as for stdin).
    public func expect(bytes count: Int64) { lock.withLock { total += count } }
    /// Adds bytes read.
    public func read(bytes count: Int) { lock.withLock { bytes += Int64(count) } }
    /// Adds one record done.
    public func recordDone() { lock.withLock { records += 1 } }

    /// Bytes read, bytes expected (0: unknown) and records done so far.
    public var snapshot: (bytes: Int64, total: Int64, records: Int) { lock.withLock { (bytes, total, records) } }
}

/// A byte source that tells a progress meter how much passed through it.
final class CountingSource: ByteSource {
    private let inner: any ByteSource
    private let meter: ProgressMeter

    init(_ inner: any ByteSource, meter: ProgressMeter) {
        self.inner = inner
        self.meter = meter
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try inner.read(into: buffer)
        meter.read(bytes: count)
        return count
    }

    var endsAtCut: Bool { inner.endsAtCut }
}
