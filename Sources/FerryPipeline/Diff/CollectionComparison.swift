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
        // NEW's records are paired through one table of OLD's ids (OLD's index, or -1).
        // By position, record N pairs with record N and needs no table.
        var pairs = [Int32](repeating: -1, count: newEntries.count)
        var kept = [Bool](repeating: false, count: oldEntries.count)
        if byID {
            var oldIndex: [String: Int] = [:]
            oldIndex.reserveCapacity(oldEntries.count)
            var oldWithoutID: [Int] = []  // records with no id pair in their order among themselves
            for (index, entry) in oldEntries.enumerated() {
                if let id = entry.id { oldIndex[id] = index } else { oldWithoutID.append(index) }
            }
            var nextWithoutID = 0
            for (index, entry) in newEntries.enumerated() {
                let match: Int
                if let id = entry.id {
                    guard let found = oldIndex[id] else { continue }
                    match = found
                } else {
                    guard nextWithoutID < oldWithoutID.count else { continue }
                    match = oldWithoutID[nextWithoutID]
                    nextWithoutID += 1
                }
                pairs[index] = Int32(match)
                kept[match] = true
            }
        } else {
            for index in 0..<min(oldEntries.count, newEntries.count) {
                pairs[index] = Int32(index)
                kept[index] = true
            }
        }

        try reporter.beginCollection(collection, keyedBy: byID ? .id : .position)
        for (index, entry) in oldEntries.enumerated() where !kept[index] {
            var difference = RecordDifference(kind: .removed, collection: collection, id: byID ? entry.id : nil, oldIndex: index)
            guard !ignore.ignores(.root, of: difference) else { continue }
            difference.value = try old.value(of: entry)
            summary.recordsRemoved += 1
            try reporter.record(difference)
        }
        // Kept records in the same order (the usual case) stand where NEW has them once the
        // removals and additions before them are applied; otherwise the patched collection is
        // tracked (OLD indices of its records, -1 for added ones) to find where each one is.
        var lastKept: Int32 = -1
        var keepsOrder = true
        for match in pairs where match >= 0 {
            if match < lastKept { keepsOrder = false; break }
            lastKept = match
        }
        var patched: [Int] = keepsOrder ? [] : oldEntries.indices.filter { kept[$0] }
        for (index, entry) in newEntries.enumerated() {
            let id = byID ? entry.id : nil
            guard pairs[index] >= 0 else {
                if !keepsOrder { patched.insert(-1, at: index) }
                var difference = RecordDifference(kind: .added, collection: collection, id: id, newIndex: index)
                guard !ignore.ignores(.root, of: difference) else { continue }
                difference.value = try new.value(of: entry)
                summary.recordsAdded += 1
                try reporter.record(difference)
                continue
            }
            let match = Int(pairs[index])
            var difference = RecordDifference(kind: .changed, collection: collection, id: id, oldIndex: match, newIndex: index)
            if !keepsOrder, let at = patched[index...].firstIndex(of: match), at != index {
                difference.moveFrom = at
                patched.remove(at: at)
                patched.insert(match, at: index)
            }
            let before = try old.bytes(of: oldEntries[match])
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
