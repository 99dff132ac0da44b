import FerryCore
import Foundation

/// The statistics of one collection's records: how many, and each field's `FieldStatistics`, in
/// the order the fields were first met (a member before its children).
public struct CollectionStatistics: Sendable {
    /// At most this many fields are followed per collection (a record holding a map keyed by ids
    /// would otherwise make a field of every key); further fields are counted in `fieldsLeftOut`.
    public static let fieldLimit = 1_000

    /// The collection's name; empty for records of no collection.
    public var name: String
    /// The records counted.
    public var records = 0
    /// Distinct fields met past `fieldLimit`, not followed (counted up to 10 x `fieldLimit`).
    public var fieldsLeftOut = 0

    /// One node per field path; `objects` counts the times the value there was an object, which
    /// is what its members' `missing` counts against.
    private struct Node: Sendable {
        var field: Int?
        var objects = 0
        var children: [String: Int] = [:]
        /// The members of the last object met here, in its order, with their nodes: records
        /// usually hold their members in the same order, so a member is most often found by
        /// comparing its key with the one at its place, without hashing it.
        var lastKeys: [String] = []
        var lastChildren: [Int] = []
    }

    private var nodes = [Node()]
    private var statistics: [FieldStatistics] = []
    private var leftOut: Set<String> = []

    public init(name: String) { self.name = name }

    /// Every field followed, `missing` counted, in the order first met.
    public var fields: [FieldStatistics] {
        var result = statistics
        for node in nodes {
            for (key, child) in node.children {
                guard let index = nodes[child].field else { continue }
                result[index].missing = key == Self.itemsKey ? 0 : node.objects - result[index].count - result[index].nulls
            }
        }
        return result
    }

    /// Counts one record's value.
    public mutating func add(_ value: Value) {
        records += 1
        visit(value, node: 0)
    }

    /// The key under which a node keeps its list items, apart from a member named `*` (only a
    /// member named exactly NUL + `*` would share it).
    private static let itemsKey = "\u{0}*"

    private mutating func visit(_ value: Value, node: Int) {
        switch value {
        case .object(let object):
            nodes[node].objects += 1
            for (place, (key, member)) in object.enumerated() {
                guard let child = child(of: node, key, at: place) else { continue }
                statistics[nodes[child].field!].add(member)
                visit(member, node: child)
            }
        case .array(let items):
            guard !items.isEmpty, let child = child(of: node, Self.itemsKey) else { return }
            let field = nodes[child].field!
            for item in items {
                statistics[field].add(item)
                visit(item, node: child)
            }
        default:
            break
        }
    }

    /// `child(of:_:)` for the member at `place` of an object: the last object's member there when
    /// it has the same key.
    private mutating func child(of node: Int, _ key: String, at place: Int) -> Int? {
        if place < nodes[node].lastKeys.count, nodes[node].lastKeys[place] == key { return nodes[node].lastChildren[place] }
        guard let child = child(of: node, key) else { return nil }
        if place < nodes[node].lastKeys.count {
            nodes[node].lastKeys[place] = key
            nodes[node].lastChildren[place] = child
        } else if place == nodes[node].lastKeys.count {
            nodes[node].lastKeys.append(key)
            nodes[node].lastChildren.append(child)
        }
        return child
    }

    /// The node of `key` under `node`, made on first sight; nil past `fieldLimit`.
    private mutating func child(of node: Int, _ key: String) -> Int? {
        if let existing = nodes[node].children[key] { return existing }
        let parent = nodes[node].field.map { statistics[$0].pointer } ?? ""
        let path = parent + "/" + (key == Self.itemsKey ? "*" : Self.escaped(key))
        guard statistics.count < Self.fieldLimit else {
            if leftOut.count < Self.fieldLimit * 10, leftOut.insert(path).inserted { fieldsLeftOut += 1 }
            return nil
        }
        let index = nodes.count
        nodes.append(Node(field: statistics.count))
        statistics.append(FieldStatistics(pointer: path))
        nodes[node].children[key] = index
        return index
    }

    /// A key as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func escaped(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
