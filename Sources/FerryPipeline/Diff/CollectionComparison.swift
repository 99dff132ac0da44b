import FerryCore

/// Walks one collection of two spools: pairs records by id (or position), reports the removed
/// ones in OLD's order, then the added and changed ones in NEW's order, with the moves a JSON
/// Patch needs when kept records changed their order.
struct CollectionComparison {
    let old: RecordSpool
    let new: RecordSpool
    let ignore: DiffIgnore
    let reporter: any DiffReporter

    /// Compares collection `name` (`""`: records of no collection) and counts into `summary`.
    /// - Throws: what reading a spool back or the reporter throws.
    mutating func compare(_ name: String, summary: inout DiffSummary) throws {
        let oldEntries = old.collections[name]?.entries ?? []
        let newEntries = new.collections[name]?.entries ?? []
        let byID = (old.collections[name]?.hasUniqueIDs ?? true) && (new.collections[name]?.hasUniqueIDs ?? true)
        let collection: String? = name.isEmpty ? nil : name
        func key(_ entry: RecordSpool.Entry, _ index: Int) -> String { byID ? entry.id ?? "" : String(index) }
        var newIndex: [String: Int] = [:]
        newIndex.reserveCapacity(newEntries.count)
        for (index, entry) in newEntries.enumerated() { newIndex[key(entry, index)] = index }
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(oldEntries.count)
        for (index, entry) in oldEntries.enumerated() { oldIndex[key(entry, index)] = index }

        try reporter.beginCollection(collection, keyedBy: byID ? .id : .position)
        for (index, entry) in oldEntries.enumerated() where newIndex[key(entry, index)] == nil {
            var difference = RecordDifference(kind: .removed, collection: collection, id: byID ? entry.id : nil, oldIndex: index)
            guard !ignore.ignores(.root, of: difference) else { continue }
            difference.value = try old.value(of: entry)
            summary.recordsRemoved += 1
            try reporter.record(difference)
        }
        // Kept records in the same order (the usual case) stand where NEW has them once the
        // removals and additions before them are applied; otherwise the patched collection is
        // tracked (OLD indices of its records, -1 for added ones) to find where each one is.
        var lastKept = -1
        var keepsOrder = true
        for (index, entry) in newEntries.enumerated() {
            guard let kept = oldIndex[key(entry, index)] else { continue }
            if kept < lastKept { keepsOrder = false; break }
            lastKept = kept
        }
        var patched: [Int] = keepsOrder ? [] : oldEntries.indices.filter { newIndex[key(oldEntries[$0], $0)] != nil }
        for (index, entry) in newEntries.enumerated() {
            let id = byID ? entry.id : nil
            guard let kept = oldIndex[key(entry, index)] else {
                if !keepsOrder { patched.insert(-1, at: index) }
                var difference = RecordDifference(kind: .added, collection: collection, id: id, newIndex: index)
                guard !ignore.ignores(.root, of: difference) else { continue }
                difference.value = try new.value(of: entry)
                summary.recordsAdded += 1
                try reporter.record(difference)
                continue
            }
            var difference = RecordDifference(kind: .changed, collection: collection, id: id, oldIndex: kept, newIndex: index)
            if !keepsOrder, let at = patched[index...].firstIndex(of: kept), at != index {
                difference.moveFrom = at
                patched.remove(at: at)
                patched.insert(kept, at: index)
            }
            let before = try old.bytes(of: oldEntries[kept])
            let after = try new.bytes(of: entry)
            if before != after {
                difference.changes = FieldChange.changes(from: try ValueSpoolCoding.decode(before), to: try ValueSpoolCoding.decode(after))
                    .filter { !ignore.ignores($0.field, of: difference) }
            }
            if !difference.changes.isEmpty {
                summary.recordsChanged += 1
            } else if difference.moveFrom != nil {
                difference.kind = .moved
                summary.recordsMoved += 1
            } else {
                continue
            }
            try reporter.record(difference)
        }
        try reporter.endCollection(collection)
    }
}
