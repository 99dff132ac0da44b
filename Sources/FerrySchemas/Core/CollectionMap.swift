/// A few values keyed by collection name, found by comparing names in order: a domain has at most
/// a handful of collections, and comparing one name costs less than hashing it, which a
/// dictionary does for every record (issue 7).
struct CollectionMap<Element> {
    private var entries: [(name: String, element: Element)] = []

    init() {}

    /// The map of a dictionary's entries (sorted by name, so the order never depends on hashing).
    init(_ dictionary: [String: Element]) {
        entries = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, element: $0.value) }
    }

    /// True when no name has an element.
    var isEmpty: Bool { entries.isEmpty }

    /// The position of `name`'s entry. By index: `for entry in entries` copied every entry it
    /// passed (its references counted).
    private func index(of name: String) -> Int? {
        for index in entries.indices where entries[index].name == name { return index }
        return nil
    }

    /// The element of `name`; setting replaces it or adds it.
    subscript(name: String) -> Element? {
        get { index(of: name).map { entries[$0].element } }
        set {
            if let index = index(of: name) {
                if let newValue { entries[index].element = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((name: name, element: newValue))
            }
        }
    }
}

extension CollectionMap where Element: AnyObject {
    /// The element of `name`, not counted: the map keeps it. The names are compared in place, so
    /// no entry is copied on the way either. For elements every record uses, on every thread of
    /// `--jobs`: a count per record would move their cache lines between the cores.
    func unretained(_ name: String) -> Unmanaged<Element>? {
        index(of: name).map { Unmanaged.passUnretained(entries[$0].element) }
    }
}

extension CollectionMap: Sendable where Element: Sendable {}
