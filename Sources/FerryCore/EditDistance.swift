/// Levenshtein distance, for "did you mean" suggestions on mistyped options and keys.
public enum EditDistance {
    /// The number of single-character insertions, deletions or substitutions between `a` and `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `name` when it is near enough to be a likely typo: at most two
    /// edits, or a third of `name`'s length for longer names (as the CLI suggests options). Nil otherwise;
    /// of equally near candidates, the first.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = between(candidate, name)
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, name.count / 3) else { return nil }
        return best.name
    }
}
