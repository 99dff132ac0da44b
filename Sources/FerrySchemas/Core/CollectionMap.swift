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

    /// The element of `name`; setting replaces it or adds it.
    subscript(name: String) -> Element? {
        get {
            // By index: `for entry in entries` copied every entry it passed (its references counted).
            for index in entries.indices where entries[index].name == name { return entries[index].element }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.name == name }) {
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
        for index in entries.indices where entries[index].name == name {
            return Unmanaged.passUnretained(entries[index].element)
        }
        return nil
    }
}

extension CollectionMap: Sendable where Element: Sendable {}
