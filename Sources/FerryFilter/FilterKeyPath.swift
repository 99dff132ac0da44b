/// A key path in a filter: keys joined by dots (`look.tint`, `smells.label`), optionally ending in
/// a collection operator (`tastes.@count`).
///
/// Applying a key to a list applies it to every item (`smells.label` is the list of the labels),
/// as Foundation's key-value coding does. The type is named `FilterKeyPath` (also reachable as
/// `FilterExpression.KeyPath`) so that importing this module does not shadow `Swift.KeyPath`.
public struct FilterKeyPath: Codable, Sendable, Hashable, CustomStringConvertible {
    /// One step of a key path.
    public enum Component: Codable, Sendable, Hashable, CustomStringConvertible {
        /// A member of an object.
        case key(String)
        /// `@count`: the number of items of a list.
        case count
        /// `@sum`, `@avg`, `@min`, `@max`: over a list of numbers.
        case sum, average, minimum, maximum

        /// The component in filter syntax (`tint`, `@count`, `@avg`).
        public var description: String {
            switch self {
            case .key(let name): return FilterKeyPath.needsEscape(name) ? "#" + name : name
            case .count: return "@count"
            case .sum: return "@sum"
            case .average: return "@avg"
            case .minimum: return "@min"
            case .maximum: return "@max"
            }
        }

        /// True for the collection operators (`@count`, `@sum`, ...).
        public var isCollectionOperator: Bool {
            if case .key = self { return false }
            return true
        }
    }

    /// The steps, outermost first.
    public var components: [Component]
    /// The source range of each component, in step with `components` (empty for paths built in code).
    public var componentRanges: [FilterSourceRange]

    /// Creates a key path.
    /// - Parameters:
    ///   - components: the steps, outermost first.
    ///   - componentRanges: the source range of each step, or empty.
    public init(_ components: [Component], componentRanges: [FilterSourceRange] = []) {
        self.components = components
        self.componentRanges = componentRanges
    }

    /// Creates a key path of plain keys from its dotted form (`look.tint`), with no ranges.
    public init(dotted: String) {
        self.init(dotted.split(separator: ".", omittingEmptySubsequences: false).map { .key(String($0)) })
    }

    /// The range of the whole path, when it was parsed.
    public var range: FilterSourceRange? {
        guard let first = componentRanges.first, let last = componentRanges.last else { return nil }
        return first.union(last)
    }

    /// The range of the component at `index`, falling back to the whole path.
    func range(ofComponent index: Int) -> FilterSourceRange? {
        componentRanges.indices.contains(index) ? componentRanges[index] : range
    }

    /// The dotted form (`look.tint`, `tastes.@count`); keys that are keywords carry `#`.
    public var description: String { components.map(\.description).joined(separator: ".") }

    /// The dotted form of the first `count` components (`look` for `look.tint`).
    func prefixDescription(_ count: Int) -> String {
        components.prefix(count).map(\.description).joined(separator: ".")
    }

    /// True when a key must be written with `#` to be read back as a key (a reserved word, or not
    /// an identifier).
    static func needsEscape(_ name: String) -> Bool {
        FilterKeyword(identifier: name) != nil || !FilterLexer.isIdentifier(name)
    }
}
