/// What an encoding container has written at one place of the tree being built: a finished value,
/// an object or array that nested containers may still add to, or a `superEncoder` whose value is
/// read once the enclosing value is finished.
enum ValueEncodingSlot {
    case value(Value)
    case object(ValueEncodingObject)
    case array(ValueEncodingArray)
    case encoder(ValueEncodingNode)

    /// The finished value.
    /// - Throws: the misuse error recorded by a `superEncoder` below this slot.
    func resolve() throws -> Value {
        switch self {
        case .value(let value):
            return value
        case .object(let object):
            var result = ValueObject()
            result.reserveCapacity(object.members.count)
            for member in object.members {
                result.append(member.key, try member.slot.resolve())
            }
            return .object(result)
        case .array(let array):
            var result: [Value] = []
            result.reserveCapacity(array.elements.count)
            for element in array.elements {
                result.append(try element.resolve())
            }
            return .array(result)
        case .encoder(let node):
            // A super encoder that encoded nothing stands for an empty object, as in JSONEncoder.
            return try node.resolvedValue() ?? .object(ValueObject())
        }
    }
}

/// The members a keyed encoding container has written so far, in the order they were first
/// encoded. Encoding a key again replaces its value in place.
final class ValueEncodingObject {
    private(set) var members: [(key: String, slot: ValueEncodingSlot)] = []
    /// Member positions by key, built once the object grows past a few members (a `[String: X]`
    /// with thousands of keys would otherwise scan quadratically).
    private var positions: [String: Int]?

    private static let indexThreshold = 16

    func slot(for key: String) -> ValueEncodingSlot? {
        position(of: key).map { members[$0].slot }
    }

    func set(_ key: String, _ slot: ValueEncodingSlot) {
        if let position = position(of: key) {
            members[position].slot = slot
            return
        }
        positions?[key] = members.count
        members.append((key: key, slot: slot))
        if positions == nil, members.count > Self.indexThreshold {
            var built: [String: Int] = [:]
            built.reserveCapacity(members.count * 2)
            for (position, member) in members.enumerated() where built[member.key] == nil {
                built[member.key] = position
            }
            positions = built
        }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }
}

/// The elements an unkeyed encoding container has written so far.
final class ValueEncodingArray {
    var elements: [ValueEncodingSlot] = []
}
