import FerryCore

/// Miller's flattening convention, which CSV uses to hold nested records (SCHEMAS.md "Formats: CSV").
///
/// - Flattening: an object member `look: {tint}` becomes the column `look.tint`; a list element is
///   named by its 1-based position: `tastes: [{label}]` becomes `tastes.1.label`, `smells: ["a"]`
///   becomes `smells.1`. Empty objects and empty lists yield no column (they read back as absent).
/// - Unflattening: a header name with dots is a path: `look.tint` -> `{"look": {"tint": ...}}`; a
///   nested level whose keys are exactly `1...n` becomes a list (1-based in the header, 0-based in
///   the `Value`). The top level is always an object. A name stays flat (one key, dots included)
///   when it has an empty part (`a..b`, `.a`, `a.`) or when one of its dotted prefixes is itself a
///   column (`Owner` and `Owner.1`: the second stays the key `Owner.1`).
public enum CSVFlattening {
    /// The leaves of `value` with their flattened names, in order: objects in member order, lists in
    /// element order. A scalar (or null) at the top is returned as one pair named `""`.
    public static func flatten(_ value: Value) -> [(String, Value)] {
        var out: [(String, Value)] = []
        switch value {
        case .object, .array: flatten(value, prefix: nil, into: &out)
        default: out.append(("", value))
        }
        return out
    }

    private static func flatten(_ value: Value, prefix: String?, into out: inout [(String, Value)]) {
        func name(_ key: String) -> String { prefix.map { $0 + "." + key } ?? key }
        switch value {
        case .object(let object):
            for member in object.members { flatten(member.value, prefix: name(member.key), into: &out) }
        case .array(let array):
            for (index, element) in array.enumerated() { flatten(element, prefix: name(String(index + 1)), into: &out) }
        default:
            out.append((prefix ?? "", value))
        }
    }

    /// Rebuilds a record from flattened `(name, value)` pairs, as the CSV reader does with a header
    /// row and one row of cells. A nil value is an absent cell: its member is omitted, lists lose
    /// their trailing absent elements, and an absent element before a present one becomes `null`.
    public static func unflatten(_ fields: [(String, Value?)]) -> ValueObject {
        Layout(names: fields.map(\.0)).build(fields.map(\.1))
    }

    /// The unflattening of one header row, compiled once and applied to every row.
    ///
    /// Immutable and `Sendable`: record locators share it.
    public final class Layout: Sendable {
        indirect enum Node: Sendable {
            case leaf(Int)
            case object([(key: String, node: Node)])
            case array([Node?])
        }

        /// The header names, as given.
        public let names: [String]
        /// Members of the record's root object (the first `rootCount` nodes of `flat`).
        let rootCount: Int
        /// The field pointer (relative to the record) of each column, in column order.
        public let pointers: [JSONPointer]
        /// Pointer text (leaf or inner node) -> the first column at or under it.
        private let columnOfPointer: [String: Int]
        /// The tree laid out flat for `build(consuming:count:)`: the root's members first, and
        /// each inner node's children side by side.
        let flat: [FlatNode]
        /// The object keys `flat` names by index.
        let flatKeys: [String]
        /// The same tree for reading a row's cells in place (`CSVHeaderTree`, a record cursor's).
        public var tree: CSVHeaderTree { CSVHeaderTree(flat: flat, keys: flatKeys, rootCount: rootCount) }
        /// Columns no leaf reads (none for the names a reader gives).
        private let unusedColumns: [Int]

        struct FlatNode {
            static let missing: UInt8 = 0, leaf: UInt8 = 1, object: UInt8 = 2, array: UInt8 = 3
            var kind = FlatNode.missing
            /// The column of a leaf.
            var column = 0
            /// The children of an object or a list: `flat[first..<(first + count)]`.
            var first = 0
            var count = 0
            /// The key in `flatKeys` of an object member.
            var key = 0
        }

        /// Compiles `names` (unique names expected: the reader renames duplicates first).
        /// - Parameter unflattens: false keeps every name as one flat key.
        public init(names: [String], unflattens: Bool = true) {
            self.names = names
            let nameSet = Set(names)
            // Paths of keys; nil where the name stays flat.
            var paths: [[String]] = []
            for name in names {
                var path = [name]
                if unflattens, name.utf8.contains(UInt8(ascii: ".")) {
                    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                    var flat = parts.contains { $0.isEmpty }
                    if !flat {
                        var prefix = parts[0]
                        for part in parts.dropFirst().dropLast() where !flat {
                            if nameSet.contains(prefix) { flat = true }
                            prefix += "." + part
                        }
                        if nameSet.contains(prefix) { flat = true }
                    }
                    if !flat { path = parts }
                }
                paths.append(path)
            }
            // Build a mutable tree of ordered keys, then freeze it, turning 1...n levels into lists.
            let tree = Builder()
            for (column, path) in paths.enumerated() { tree.insert(path[...], column: column) }
            var pointers = [JSONPointer](repeating: .root, count: names.count)
            var columnOfPointer: [String: Int] = [:]
            var rootMembers: [(key: String, node: Node)] = []
            for key in tree.keys {
                guard let child = tree.children[key] else { continue }
                let (node, _) = Layout.freeze(child, pointer: JSONPointer(tokens: [key]), pointers: &pointers,
                                              columnOfPointer: &columnOfPointer)
                rootMembers.append((key, node))
            }
            self.rootCount = rootMembers.count
            self.pointers = pointers
            self.columnOfPointer = columnOfPointer
            var flat: [FlatNode] = []
            var flatKeys: [String] = []
            var used = [Bool](repeating: false, count: names.count)
            _ = Layout.lay(rootMembers.map { (key: Optional($0.key), node: Optional($0.node)) }, flat: &flat, keys: &flatKeys,
                           used: &used)
            self.flat = flat
            self.flatKeys = flatKeys
            self.unusedColumns = used.indices.filter { !used[$0] }
        }

        /// Appends `children` side by side to `flat`, then their own children; returns where they start.
        private static func lay(_ children: [(key: String?, node: Node?)], flat: inout [FlatNode], keys: inout [String],
                                used: inout [Bool]) -> Int {
            let first = flat.count
            flat.append(contentsOf: repeatElement(FlatNode(), count: children.count))
            for (k, child) in children.enumerated() {
                var node = FlatNode()
                if let key = child.key {
                    node.key = keys.count
                    keys.append(key)
                }
                switch child.node {
                case .leaf(let column)?:
                    node.kind = FlatNode.leaf
                    node.column = column
                    if column < used.count { used[column] = true }
                case .object(let members)?:
                    node.kind = FlatNode.object
                    node.count = members.count
                    node.first = lay(members.map { (key: Optional($0.key), node: Optional($0.node)) }, flat: &flat, keys: &keys,
                                     used: &used)
                case .array(let slots)?:
                    node.kind = FlatNode.array
                    node.count = slots.count
                    node.first = lay(slots.map { (key: nil, node: $0) }, flat: &flat, keys: &keys, used: &used)
                case nil:
                    break
                }
                flat[first + k] = node
            }
            return first
        }

        /// A node of the tree while it is being built.
        private final class Builder {
            var keys: [String] = []
            var children: [String: Builder] = [:]
            var column: Int?

            func insert(_ path: ArraySlice<String>, column: Int) {
                guard let first = path.first else {
                    if self.column == nil { self.column = column }
                    return
                }
                let child: Builder
                if let existing = children[first] {
                    child = existing
                } else {
                    child = Builder()
                    children[first] = child
                    keys.append(first)
                }
                child.insert(path.dropFirst(), column: column)
            }
        }

        /// Freezes `builder` into a node; returns it with the first (lowest) column at or under it.
        private static func freeze(_ builder: Builder, pointer: JSONPointer, pointers: inout [JSONPointer],
                                   columnOfPointer: inout [String: Int]) -> (Node, Int) {
            if let column = builder.column, builder.keys.isEmpty {
                pointers[column] = pointer
                columnOfPointer[pointer.description] = column
                return (.leaf(column), column)
            }
            // The first column under this node, from its children (linear in the tree's size).
            var firstColumn = Int.max
            let node: Node
            // A list when the keys are exactly 1...n (canonical decimal, no leading zeros).
            let indices = builder.keys.map { key -> Int? in
                guard let i = Int(key), i >= 1, String(i) == key else { return nil }
                return i
            }
            if !indices.isEmpty, indices.allSatisfy({ $0 != nil }),
               Set(indices.compactMap { $0 }) == Set(1...builder.keys.count) {
                var slots = [Node?](repeating: nil, count: builder.keys.count)
                for (key, index) in zip(builder.keys, indices) {
                    guard let index, let child = builder.children[key] else { continue }
                    let (childNode, childFirst) = freeze(child, pointer: pointer.appending(index - 1), pointers: &pointers,
                                                         columnOfPointer: &columnOfPointer)
                    slots[index - 1] = childNode
                    firstColumn = min(firstColumn, childFirst)
                }
                node = .array(slots)
            } else {
                var members: [(key: String, node: Node)] = []
                for key in builder.keys {
                    guard let child = builder.children[key] else { continue }
                    let (childNode, childFirst) = freeze(child, pointer: pointer.appending(key), pointers: &pointers,
                                                         columnOfPointer: &columnOfPointer)
                    members.append((key, childNode))
                    firstColumn = min(firstColumn, childFirst)
                }
                node = .object(members)
            }
            if firstColumn != Int.max { columnOfPointer[pointer.description] = firstColumn }
            return (node, firstColumn)
        }

        /// The column holding the field at `pointer` (relative to the record), or for an object or
        /// list, the first column under it; nil when no column maps there.
        public func column(of pointer: JSONPointer) -> Int? {
            columnOfPointer[pointer.description]
        }

        /// Builds the record of one row; `cells[i]` is column `i`'s value, nil when absent. Cells
        /// beyond `names.count` are ignored; missing ones are absent.
        public func build(_ cells: [Value?]) -> ValueObject {
            let values = UnsafeMutablePointer<Value?>.allocate(capacity: max(cells.count, 1))
            defer { values.deallocate() }
            _ = UnsafeMutableBufferPointer(start: values, count: cells.count).initialize(from: cells)
            return build(consuming: values, count: cells.count)
        }

        /// Builds the record of one row from `count` initialized cells at `values` (nil when absent):
        /// the one builder (`build(_:)` copies its cells here). Leaves `values` uninitialized (each
        /// cell is moved into the record or released).
        func build(consuming values: UnsafeMutablePointer<Value?>, count: Int) -> ValueObject {
            let object = flat.withUnsafeBufferPointer { nodes in
                flatKeys.withUnsafeBufferPointer { keys in
                    Layout.members(nodes, keys, first: 0, count: rootCount, values, count, reserving: true)
                }
            }
            for column in unusedColumns where column < count { (values + column).deinitialize(count: 1) }
            if count > names.count { (values + names.count).deinitialize(count: count - names.count) }
            return object
        }

        private static func members(
            _ nodes: UnsafeBufferPointer<FlatNode>, _ keys: UnsafeBufferPointer<String>, first: Int, count: Int,
            _ values: UnsafeMutablePointer<Value?>, _ valueCount: Int, reserving: Bool
        ) -> ValueObject {
            // The members are gathered here (not through ValueObject's own, non-inlinable append).
            var list: [ValueObject.Member] = []
            if reserving { list.reserveCapacity(count) }
            for index in first..<(first + count) {
                let node = nodes[index]
                guard let value = value(nodes, keys, node, values, valueCount) else { continue }
                if list.isEmpty { list.reserveCapacity(count) }
                list.append((key: keys[node.key], value: value))
            }
            return ValueObject(list)
        }

        private static func value(
            _ nodes: UnsafeBufferPointer<FlatNode>, _ keys: UnsafeBufferPointer<String>, _ node: FlatNode,
            _ values: UnsafeMutablePointer<Value?>, _ valueCount: Int
        ) -> Value? {
            switch node.kind {
            case FlatNode.leaf:
                return node.column < valueCount ? (values + node.column).move() : nil
            case FlatNode.object:
                let object = members(nodes, keys, first: node.first, count: node.count, values, valueCount, reserving: false)
                return object.isEmpty ? nil : .object(object)
            case FlatNode.array:
                // Elements up to the last present one; absent ones before it are null.
                var elements: [Value] = []
                var nulls = 0
                for index in node.first..<(node.first + node.count) {
                    guard let value = value(nodes, keys, nodes[index], values, valueCount) else {
                        nulls += 1
                        continue
                    }
                    if elements.isEmpty { elements.reserveCapacity(node.count) }
                    for _ in 0..<nulls { elements.append(.null) }
                    nulls = 0
                    elements.append(value)
                }
                return elements.isEmpty ? nil : .array(elements)
            default:
                return nil
            }
        }
    }
}
