import FerryCore

/// Counts records per collection, listing known collections first in canonical order.
struct CollectionCounter {
    private var order: [String]
    private var counter = KeyedCounter()

    init(order: [String]) { self.order = order }

    mutating func add(_ collection: String?) {
        let name = collection ?? ""
        if counter.postIncrement(name) == 0, !order.contains(name) { order.append(name) }
    }

    var counts: [DatasetReport.CollectionCount] {
        order.map { DatasetReport.CollectionCount(name: $0, count: counter[$0]) }
    }
}
