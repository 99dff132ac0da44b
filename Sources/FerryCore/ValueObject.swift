/// An object whose members keep the order they were read or built in.
///
/// Records hold a few dozen members at most, so lookups scan the array: cheaper than hashing every
/// key on the hot path. Duplicate keys are kept as read (a reader or validator decides what they
/// mean); `subscript` returns the first.
public struct ValueObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public typealias Member = (key: String, value: Value)

    /// The members in order.
    public private(set) var members: [Member]

    /// Creates an object from members in order.
    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.members = elements.map { (key: $0.0, value: $0.1) }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Reserves room for `count` members.
    public mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    /// The first member named `key`; setting replaces it in place or appends a new member;
    /// setting nil removes every member named `key`.
    public subscript(key: String) -> Value? {
        get {
            // By index, comparing keys in place: iterating the members would copy each one.
            for i in members.indices where members[i].key == key { return members[i].value }
            return nil
        }
        set {
            guard let first = indexOfFirst(named: key) else {
                if let newValue { members.append((key: key, value: newValue)) }
                return
            }
            if let newValue {
                members[first].value = newValue
                return
            }
            // Remove every member named `key` (usually one) with `remove(at:)`: cheaper here than
            // `removeAll(where:)`, which readers dropping `$collection` paid on every record.
            members.remove(at: first)
            var i = first
            while i < members.count {
                if members[i].key == key { members.remove(at: i) } else { i += 1 }
            }
        }
    }

    /// The index of the first member named `key`.
    private func indexOfFirst(named key: String) -> Int? {
        for i in members.indices where members[i].key == key { return i }
        return nil
    }

    /// Appends a member without looking for an existing one (readers and encoders use this).
    public mutating func append(_ key: String, _ value: Value) {
        members.append((key: key, value: value))
    }

    public static func == (lhs: ValueObject, rhs: ValueObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (l, r) in zip(lhs.members, rhs.members) where l.key != r.key || l.value != r.value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
