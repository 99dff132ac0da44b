import FerryCore

/// `--ignore` patterns: JSON Pointers from the dataset root (`/words/*/studyState`) where `*`
/// stands for any one token. The token after the collection matches a record by `*`, its index
/// on either side or its id; a pattern also covers everything below what it names.
public struct DiffIgnore: Sendable {
    private let patterns: [[String]]

    /// - Parameter patterns: pointer texts, as given on the command line.
    public init(_ patterns: [String]) {
        self.patterns = patterns.map { JSONPointer($0).tokens }
    }

    /// True when a pattern covers `field` (relative to the record) of `record`.
    func ignores(_ field: JSONPointer, of record: RecordDifference) -> Bool {
        guard !patterns.isEmpty else { return false }
        var names: Set<String> = []
        if let id = record.id { names.insert(id) }
        if let index = record.oldIndex { names.insert(String(index)) }
        if let index = record.newIndex { names.insert(String(index)) }
        let head = record.collection.map { [$0] } ?? []
        return patterns.contains { pattern in
            let path = head + ["\u{0}record"] + field.tokens
            guard pattern.count <= path.count else { return false }
            for (index, token) in pattern.enumerated() where token != "*" {
                if index == head.count {
                    guard names.contains(token) else { return false }
                } else if token != path[index] {
                    return false
                }
            }
            return true
        }
    }
}
