import FerryCore
import FerrySchemas

/// Where each cell of a CSV header's rows goes in a record type, worked out once per
/// (type, header) so that a row is read by column index (issue 7's typed path).
///
/// It mirrors what the general path builds from the header (`CSVFlattening.Layout`, SCHEMAS.md
/// "Formats: CSV"): a dotted name is a path (`look.tint`, `tastes.1.value`) unless one of its parts
/// is empty or one of its dotted prefixes is itself a column; a level whose keys are exactly
/// `1...n` (canonical decimal) is a list, any other level an object. The plan then lays that tree
/// over the record type: one node per field of each object type (in field order, absent when no
/// column reaches it), one node per list element, and "stray" columns for keys that are not
/// fields (a row with any of them present would be an `unknown-field`).
///
/// Laid out flat, for reading without reference counting: the children of a node are
/// `nodes[first..<(first + count)]`; the columns at or under a node are
/// `columnLists[columnsStart..<(columnsStart + columnsCount)]`.
struct CSVColumnPlan {
    /// How the header's tree holds a value.
    enum Shape: UInt8 {
        /// No column reaches the field.
        case none
        /// One cell (`column`).
        case cell
        /// An object of the planned type: one child per field of the type.
        case object
        /// A list: one child per element, in order.
        case array
        /// A shape the field's type does not plan for (an object where a string belongs, columns
        /// under an unknown key): present, it would be reported.
        case other
    }

    /// What a field's type asks of its value (the `FieldType` cases a cell can give).
    enum ValueKind: UInt8 {
        case string, nonEmptyString, url, enumeration, double, integer, bool, instant, data, object, array, unplanned
    }

    /// One node of the plan: a field of an object, an element of a list, or the root.
    struct Node {
        var shape = Shape.none
        var kind = ValueKind.unplanned
        var isRequired = true
        /// The cell of a `.cell` node.
        var column = 0
        /// The children of an `.object` (one per field) or `.array` (one per element) node.
        var first = 0
        var count = 0
        /// Every column at or under the node (its presence: any of them present).
        var columnsStart = 0
        var columnsCount = 0
        /// An `.object` node's columns under keys that are not fields of its type.
        var strayStart = 0
        var strayCount = 0
        /// An `.object` node's fields reached by some column, one bit per field index.
        var plannedFields: UInt64 = 0
        /// A number field's range and step (SCHEMAS.md tables; nil: none).
        var range: ClosedRange<Double>?
        var step: Double?
        /// An `.enumeration` field's cases in `enumerations`.
        var enumeration = 0
    }

    /// The nodes; `nodes[0]` is the record (an object of the record type).
    private(set) var nodes: [Node] = []
    /// The field name of each node (`""` for list elements and the root).
    private(set) var names: [String] = []
    /// The column lists the nodes point into.
    private(set) var columnLists: [Int] = []
    /// The cases of enumeration fields.
    private(set) var enumerations: [[String]] = []
    /// The number of columns (cells per row).
    let columnCount: Int

    /// Plans `columns` (the header's names after the reader's renaming) for `type`; nil when the
    /// header is not one this plan mirrors exactly (two columns on one path, a column both a value
    /// and a level, an object type with more than 64 fields).
    init?(columns: [String], type: RecordType) {
        columnCount = columns.count
        let root = HeaderTree()
        for (column, path) in CSVColumnPlan.paths(of: columns).enumerated() {
            guard root.insert(path[...], column: column) else { return nil }
        }
        nodes.append(Node())
        names.append("")
        guard plan(root, as: .object(type), isRequired: true, at: 0, isRoot: true) else { return nil }
    }

    // MARK: Header paths

    /// The path of keys of each column, as `CSVFlattening.Layout` splits names.
    static func paths(of columns: [String]) -> [[String]] {
        let nameSet = Set(columns)
        return columns.map { name in
            guard name.utf8.contains(UInt8(ascii: ".")) else { return [name] }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if parts.contains(where: \.isEmpty) { return [name] }
            // A dotted prefix that is itself a column keeps the name flat.
            var prefix = parts[0]
            for part in parts.dropFirst() {
                if nameSet.contains(prefix) { return [name] }
                prefix += "." + part
            }
            return parts
        }
    }

    /// The header's names as a tree of ordered keys (as `CSVFlattening.Layout` builds it).
    private final class HeaderTree {
        var keys: [String] = []
        var children: [String: HeaderTree] = [:]
        var column: Int?

        /// Adds the column at `path`; false when the path is taken or runs through a value.
        func insert(_ path: ArraySlice<String>, column: Int) -> Bool {
            guard let first = path.first else {
                guard self.column == nil, keys.isEmpty else { return false }
                self.column = column
                return true
            }
            guard self.column == nil else { return false }
            let child: HeaderTree
            if let existing = children[first] {
                child = existing
            } else {
                child = HeaderTree()
                children[first] = child
                keys.append(first)
            }
            return child.insert(path.dropFirst(), column: column)
        }

        /// The children in list order when the keys are exactly `1...n` (canonical decimal).
        var listElements: [HeaderTree]? {
            guard !keys.isEmpty else { return nil }
            var elements = [HeaderTree?](repeating: nil, count: keys.count)
            for key in keys {
                guard let index = Int(key), index >= 1, index <= keys.count, String(index) == key,
                    elements[index - 1] == nil
                else { return nil }
                elements[index - 1] = children[key]
            }
            let list = elements.compactMap { $0 }
            return list.count == keys.count ? list : nil
        }

        /// Every column at or under this node, in column order.
        var allColumns: [Int] {
            if let column { return [column] }
            return keys.flatMap { children[$0]?.allColumns ?? [] }.sorted()
        }
    }

    // MARK: Planning

    /// Fills `nodes[index]` for the header subtree `tree` holding a value of type `type`; false
    /// when the header cannot be planned. The root is always an object, whatever its keys.
    private mutating func plan(_ tree: HeaderTree?, as type: FieldType?, isRequired: Bool, at index: Int,
                               isRoot: Bool = false) -> Bool {
        var node = Node()
        node.isRequired = isRequired
        node.kind = CSVColumnPlan.kind(of: type)
        if case .enumeration(let cases)? = type {
            node.enumeration = enumerations.count
            enumerations.append(cases)
        }
        guard let tree else {
            nodes[index] = node
            return true
        }
        (node.columnsStart, node.columnsCount) = append(tree.allColumns)
        if let column = tree.column {
            node.shape = .cell
            node.column = column
        } else if !isRoot, let elements = tree.listElements {
            if case .array(let element)? = type {
                node.shape = .array
                node.count = elements.count
                node.first = reserve(elements.count)
                for (k, child) in elements.enumerated() {
                    guard plan(child, as: element, isRequired: true, at: node.first + k) else { return false }
                }
            } else {
                node.shape = .other
            }
        } else if case .object(let recordType)? = type {
            let fields = recordType.fields
            guard fields.count <= 64 else { return false }
            node.shape = .object
            node.count = fields.count
            node.first = reserve(fields.count)
            for (k, field) in fields.enumerated() {
                names[node.first + k] = field.name
                let child = tree.children[field.name]
                if child != nil { node.plannedFields |= 1 << UInt64(k) }
                guard plan(child, as: field.type, isRequired: field.isRequired, at: node.first + k) else { return false }
                numberRules(field, into: &nodes[node.first + k])
            }
            let fieldNames = Set(fields.map(\.name))
            let stray = tree.keys.filter { !fieldNames.contains($0) }.flatMap { tree.children[$0]?.allColumns ?? [] }
            (node.strayStart, node.strayCount) = append(stray.sorted())
        } else {
            node.shape = .other
        }
        nodes[index] = node
        return true
    }

    /// Appends `count` blank nodes; returns where they start.
    private mutating func reserve(_ count: Int) -> Int {
        let first = nodes.count
        nodes.append(contentsOf: repeatElement(Node(), count: count))
        names.append(contentsOf: repeatElement("", count: count))
        return first
    }

    /// Appends a column list; returns where it starts and its length.
    private mutating func append(_ columns: [Int]) -> (Int, Int) {
        let start = columnLists.count
        columnLists.append(contentsOf: columns)
        return (start, columns.count)
    }

    /// Copies a number field's range and step into its node.
    private func numberRules(_ field: FieldSchema, into node: inout Node) {
        node.range = field.range
        node.step = field.step
    }

    /// What a value of `type` is read as.
    private static func kind(of type: FieldType?) -> ValueKind {
        switch type {
        case .string?: return .string
        case .nonEmptyString?: return .nonEmptyString
        case .url?: return .url
        case .enumeration?: return .enumeration
        case .double?: return .double
        case .integer?: return .integer
        case .bool?: return .bool
        case .instant?: return .instant
        case .data?: return .data
        case .object?: return .object
        case .array?: return .array
        case .day?, .instantOrDay?, .timestamp?, nil: return .unplanned
        }
    }
}
