import FerryCore
import Foundation

/// `ferry stats` of one dataset: each collection's `CollectionStatistics`, in the order the
/// collections were first met, and the media of a bundle or folder (Docs/stats.md).
public struct DatasetStatistics: Sendable {
    /// The run's report of the dataset: input, format, domain, version, problems, media.
    public var report: DatasetReport
    /// The collections, in the order first met (the canonical order for a domain's output).
    public var collections: [CollectionStatistics]

    public init(report: DatasetReport, collections: [CollectionStatistics]) {
        self.report = report
        self.collections = collections
    }
}

/// Gathers `CollectionStatistics` from the records a run hands to its observer
/// (`ConversionRequest.recordObserver`). Records arrive on one thread at a time; the lock only
/// makes that safe to share.
public final class StatisticsCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var statistics: [CollectionStatistics] = []
    private var indices: [String: Int] = [:]

    public init() {}

    /// Counts one record in its collection.
    public func add(_ record: Record) {
        let name = record.collection ?? ""
        lock.lock()
        defer { lock.unlock() }
        if let index = indices[name] {
            statistics[index].add(record.value)
        } else {
            indices[name] = statistics.count
            var collection = CollectionStatistics(name: name)
            collection.add(record.value)
            statistics.append(collection)
        }
    }

    /// The collections counted so far, in the order first met.
    public var collections: [CollectionStatistics] {
        lock.lock()
        defer { lock.unlock() }
        return statistics
    }
}
