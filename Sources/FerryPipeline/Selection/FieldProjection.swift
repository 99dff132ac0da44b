import FerryCore

/// Cuts a record's value down to the fields of `--select` (`FieldSelector`), keeping the record's
/// own member order (as Miller's `cut -f` does without `-o`).
///
/// The selectors are merged into a tree once; a record is then walked once. A member is kept
/// whole when a selector ends at it, and cut further when a longer selector goes through it; a
/// list keeps the items a `*` or a position names, and a name met at a list is looked up in each
/// item. What no selector reaches is left out, and a container that keeps nothing goes too.
struct FieldProjection: Sendable {
    private struct Node: Sendable {
        var keepsWhole = false
        var children: [String: Node] = [:]

        mutating func insert(_ tokens: ArraySlice<String>) {
            if keepsWhole { return }
            guard let first = tokens.first else {
                keepsWhole = true
                children = [:]
                return
            }
            children[first, default: Node()].insert(tokens.dropFirst())
        }
    }

    private let root: Node

    init(_ selectors: [FieldSelector]) {
        var root = Node()
        for selector in selectors { root.insert(selector.tokens[...]) }
        self.root = root
    }

    /// The record's value with only the selected fields; an empty object when none is present.
    func project(_ value: Value) -> Value {
        Self.project(value, root) ?? .object(ValueObject())
    }

    private static func project(_ value: Value, _ node: Node) -> Value? {
        if node.keepsWhole { return value }
        switch value {
        case .object(let object):
            var kept = ValueObject()
            let any = node.children["*"]
            for (key, member) in object {
                var result: Value?
                if let child = node.children[key] { result = project(member, child) }
                if let any, let more = project(member, any) { result = result.map { merge($0, more) } ?? more }
                if let result { kept.append(key, result) }
            }
            return kept.isEmpty ? nil : .object(kept)
        case .array(let items):
            var kept: [Value] = []
            let any = node.children["*"]
            // Names that are not positions apply to each item: `tastes.value` is `/tastes/*/value`.
            let named = node.children.filter { $0.key != "*" && Int($0.key) == nil }
            let perItem: Node? = named.isEmpty ? nil : Node(children: named)
            for (index, item) in items.enumerated() {
                var result: Value?
                if let child = node.children[String(index)] { result = project(item, child) }
                for extra in [any, perItem].compactMap({ $0 }) {
                    guard let more = project(item, extra) else { continue }
                    result = result.map { merge($0, more) } ?? more
                }
                if let result { kept.append(result) }
            }
            return kept.isEmpty ? nil : .array(kept)
        default:
            return nil
        }
    }

    /// Two cuts of the same value (by `*` and by a name): their union, in the value's order.
    private static func merge(_ a: Value, _ b: Value) -> Value {
        switch (a, b) {
        case (.object(let left), .object(let right)):
            var merged = left
            for (key, value) in right {
                if let existing = merged[key] { merged[key] = merge(existing, value) } else { merged.append(key, value) }
            }
            return .object(merged)
        default:
            return a
        }
    }
}
