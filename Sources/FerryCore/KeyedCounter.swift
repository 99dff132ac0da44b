/// Counts per key (records per collection), keeping the last key's count at hand: records of one
/// collection usually come together, so most counts cost one string comparison, not a hash
/// (issue 7: four such counters run per record).
public struct KeyedCounter: Sendable {
    /// The counts, the last key's excepted while it is held in `lastCount`.
    private var table: [String: Int] = [:]
    private var lastKey: String?
    private var lastCount = 0

    public init() {}

    /// Returns the count of `key`, then adds one to it.
    public mutating func postIncrement(_ key: String) -> Int {
        if lastKey != nil, UTF8Text.equalHolding(&lastKey!, key) {
            // The usual case: the last call's key (held as the caller's string).
        } else {
            if let lastKey { table[lastKey] = lastCount }
            lastCount = table[key] ?? 0
            lastKey = key
        }
        defer { lastCount += 1 }
        return lastCount
    }

    /// The count of `key`.
    public subscript(key: String) -> Int { key == lastKey ? lastCount : table[key] ?? 0 }

    /// Every key counted, with its count.
    public var counts: [String: Int] {
        var all = table
        if let lastKey { all[lastKey] = lastCount }
        return all
    }
}
