import FerryCore

/// The tree a CSV header's names make (`CSVFlattening.Layout`: dotted names as paths, `1...n`
/// levels as lists), laid out for reading one row's cells where they stand: the record a row
/// holds is the tree with each leaf's cell, absent cells left out, objects and lists with no
/// present cell left out, and a list's absent elements before its last present one `null`, which
/// is exactly the `Value` the reader builds of the row (`Layout.build`).
///
/// `nodes[0]` is the record (an object, whatever its cells); the children of an object or a list
/// are `nodes[first ..< first + count]`; the columns at or under a node are
/// `columns[columnsStart ..< columnsStart + columnsCount]` (a node is present when one of its
/// cells is). Immutable after `init`, its storage freed in `deinit`: share it across threads.
public final class CSVHeaderTree: @unchecked Sendable {
    // @unchecked: the buffers are written in `init` only.

    /// What a node holds.
    public enum Kind: UInt8, Sendable {
        /// A list slot no column reaches (never present).
        case missing
        /// One cell (`column`).
        case leaf
        /// An object: its children are members, each with a key.
        case object
        /// A list: its children are its elements, in order.
        case array
    }

    /// One node of the tree.
    public struct Node: Sendable {
        public var kind = Kind.missing
        /// The column of a leaf.
        public var column = 0
        /// The children of an object or a list: `nodes[first ..< first + count]`.
        public var first = 0
        public var count = 0
        /// The node's key in `keys` (object members only).
        public var key = 0
        /// Every column at or under the node: `columns[columnsStart ..< columnsStart + columnsCount]`.
        public var columnsStart = 0
        public var columnsCount = 0
    }

    /// The nodes; `nodes[0]` is the record.
    public let nodes: UnsafeBufferPointer<Node>
    /// The members' keys, by `Node.key`.
    public let keys: UnsafeBufferPointer<String>
    /// The column lists of the nodes.
    public let columns: UnsafeBufferPointer<Int>

    /// The tree of a layout's flat nodes (`rootCount` root members first).
    init(flat: [CSVFlattening.Layout.FlatNode], keys flatKeys: [String], rootCount: Int) {
        var nodes = [Node](repeating: Node(), count: flat.count + 1)
        nodes[0].kind = .object
        nodes[0].first = 1
        nodes[0].count = rootCount
        for (k, node) in flat.enumerated() {
            var copy = Node()
            switch node.kind {
            case CSVFlattening.Layout.FlatNode.leaf: copy.kind = .leaf
            case CSVFlattening.Layout.FlatNode.object: copy.kind = .object
            case CSVFlattening.Layout.FlatNode.array: copy.kind = .array
            default: copy.kind = .missing
            }
            copy.column = node.column
            copy.first = node.first + 1
            copy.count = node.count
            copy.key = node.key
            nodes[k + 1] = copy
        }
        var columns: [Int] = []
        _ = Self.listColumns(0, &nodes, &columns)
        self.nodes = Self.copy(nodes)
        self.keys = Self.copy(flatKeys)
        self.columns = Self.copy(columns)
    }

    deinit {
        let keys = UnsafeMutableBufferPointer(mutating: self.keys)
        keys.baseAddress?.deinitialize(count: keys.count)
        keys.deallocate()
        UnsafeMutableBufferPointer(mutating: nodes).deallocate()
        UnsafeMutableBufferPointer(mutating: columns).deallocate()
    }

    /// The value of `nodes[index]` in the row `cells`, as the reader builds it; nil when absent
    /// (the record, `nodes[0]`, is always an object). Leaves are strings (cells not yet checked as
    /// UTF-8 are decoded with replacement characters: the caller checks them first).
    public func value(at index: Int, _ cells: UnsafeBufferPointer<RawCSVCell>) -> Value? {
        let node = nodes[index]
        switch node.kind {
        case .missing:
            return nil
        case .leaf:
            let cell = cells[node.column]
            return cell.isAbsent ? nil : .string(String(decoding: cell.text, as: UTF8.self))
        case .object:
            var members: [ValueObject.Member] = []
            for k in node.first..<(node.first + node.count) {
                if let value = value(at: k, cells) { members.append((key: keys[nodes[k].key], value: value)) }
            }
            return members.isEmpty && index != 0 ? nil : .object(ValueObject(members))
        case .array:
            var elements: [Value] = []
            var nulls = 0
            for k in node.first..<(node.first + node.count) {
                guard let value = value(at: k, cells) else {
                    nulls += 1
                    continue
                }
                elements.append(contentsOf: repeatElement(Value.null, count: nulls))
                nulls = 0
                elements.append(value)
            }
            return elements.isEmpty ? nil : .array(elements)
        }
    }

    /// Lists the columns at or under `nodes[index]` (into `columns`, children first); returns
    /// where its list starts and its length.
    private static func listColumns(_ index: Int, _ nodes: inout [Node], _ columns: inout [Int]) -> (Int, Int) {
        let node = nodes[index]
        var under: [Int] = []
        switch node.kind {
        case .leaf: under = [node.column]
        case .object, .array:
            for k in node.first..<(node.first + node.count) {
                let (start, count) = listColumns(k, &nodes, &columns)
                under.append(contentsOf: columns[start..<(start + count)])
            }
        case .missing: break
        }
        let start = columns.count
        columns.append(contentsOf: under)
        nodes[index].columnsStart = start
        nodes[index].columnsCount = under.count
        return (start, under.count)
    }

    private static func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return UnsafeBufferPointer(start: buffer.baseAddress, count: array.count)
    }
}
