/// The merged shape of the records a `CSVWriter` spools: a node is a leaf when any record holds a
/// scalar there, and has children in first-seen order (list elements keyed `1`, `2`, ...). Node
/// ids number the nodes in creation order; the spool tags each cell with its node's id, and the
/// header's columns are the leaves in `columns` order.
///
/// Its properties are read for every value of every record and only ever accessed from the
/// writer's own calls, one at a time: `@exclusivity(unchecked)` spares the runtime access
/// tracking that class properties otherwise get on each read.
final class CSVShape {
    let id: Int
    @exclusivity(unchecked) var isLeaf = false
    @exclusivity(unchecked) var keys: [String] = []
    @exclusivity(unchecked) var children: [String: CSVShape] = [:]
    /// `children` in `keys` order, for the usual record whose members come in that order.
    @exclusivity(unchecked) var ordered: [CSVShape] = []
    /// Children by list index (the child named `String(index + 1)`).
    @exclusivity(unchecked) var indexed: [CSVShape] = []

    // The replay of leaf streams (`CSVWriter.writeLeafStream`) reaches nodes through the two
    // arrays below, unowned (the arrays above own them): reading a counted reference per member
    // would count it up and down (two atomic operations) for each of a record's leaves.

    /// `indexed`, unowned.
    @exclusivity(unchecked) var unownedIndexed: [Unmanaged<CSVShape>] = []
    /// Children by the index of their key in the key table of the leaf streams being replayed
    /// (`CSVLeafTable.keys`), unowned; nil where that key was not looked up below this node yet.
    /// Emptied when the writer is handed another table (`forgetKeyIndexes`).
    @exclusivity(unchecked) var byKeyIndex: [Unmanaged<CSVShape>?] = []

    init(id: Int) { self.id = id }

    /// The child named `key`, made (with the next id) when this is the first time it is seen.
    func child(_ key: String, nextID: inout Int) -> CSVShape {
        if let existing = children[key] { return existing }
        let node = CSVShape(id: nextID)
        nextID += 1
        children[key] = node
        keys.append(key)
        ordered.append(node)
        return node
    }

    /// The child named `key`, the member at `position` of its object.
    @inline(__always)
    func member(_ key: String, at position: Int, nextID: inout Int) -> CSVShape {
        if position < keys.count, keys[position] == key { return ordered[position] }
        return child(key, nextID: &nextID)
    }

    /// The child for the element at `index` of a list.
    func element(_ index: Int, nextID: inout Int) -> CSVShape {
        if index < indexed.count { return indexed[index] }
        let node = child(String(index + 1), nextID: &nextID)
        if index == indexed.count {
            indexed.append(node)
            unownedIndexed.append(Unmanaged.passUnretained(node))
        }
        return node
    }

    /// `element(_:nextID:)`, unowned.
    @inline(__always)
    func unownedElement(_ index: Int, nextID: inout Int) -> Unmanaged<CSVShape> {
        if index < unownedIndexed.count { return unownedIndexed[index] }
        return Unmanaged.passUnretained(element(index, nextID: &nextID))
    }

    /// The child named `keys[keyIndex]` (`child(_:nextID:)`), unowned, remembered by the index.
    @inline(__always)
    func child(keyIndex: Int, keys: [String], nextID: inout Int) -> Unmanaged<CSVShape> {
        if keyIndex < byKeyIndex.count, let node = byKeyIndex[keyIndex] { return node }
        return rememberChild(keyIndex: keyIndex, keys: keys, nextID: &nextID)
    }

    @inline(never)
    private func rememberChild(keyIndex: Int, keys: [String], nextID: inout Int) -> Unmanaged<CSVShape> {
        let node = Unmanaged.passUnretained(child(keys[keyIndex], nextID: &nextID))
        if keyIndex >= byKeyIndex.count {
            byKeyIndex.append(contentsOf: repeatElement(nil, count: keyIndex + 1 - byKeyIndex.count))
        }
        byKeyIndex[keyIndex] = node
        return node
    }

    /// Forgets every child remembered by key index, in this node and below.
    func forgetKeyIndexes() {
        byKeyIndex = []
        for node in ordered { node.forgetKeyIndexes() }
    }

    /// The leaves below this node in column order: names and node ids.
    func columns(prefix: String?, into out: inout [(name: String, id: Int)]) {
        if isLeaf, let prefix { out.append((prefix, id)) }
        for key in keys {
            guard let node = children[key] else { continue }
            node.columns(prefix: prefix.map { $0 + "." + key } ?? key, into: &out)
        }
    }
}
