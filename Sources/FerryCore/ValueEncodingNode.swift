/// The `Encoder` handed to an `Encodable` value by `ValueEncoder`: it holds what that value encodes
/// at one coding path.
final class ValueEncodingNode: Encoder {
    let context: ValueEncodingContext
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    /// What the value has encoded so far; nil until it asks for a container and writes.
    var storage: ValueEncodingSlot?
    /// Set when the value asks for two different kinds of container (JSONEncoder traps there);
    /// thrown when the value is finished.
    private var misuse: EncodingError?

    init(context: ValueEncodingContext, codingPath: [any CodingKey]) {
        self.context = context
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ValueEncodingObject
        if case .object(let existing)? = storage {
            object = existing
        } else {
            if storage != nil { recordMisuse("a keyed container") }
            object = ValueEncodingObject()
            storage = .object(object)
        }
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<Key>(context: context, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ValueEncodingArray
        if case .array(let existing)? = storage {
            array = existing
        } else {
            if storage != nil { recordMisuse("an unkeyed container") }
            array = ValueEncodingArray()
            storage = .array(array)
        }
        return ValueUnkeyedEncodingContainer(context: context, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueSingleValueEncodingContainer(node: self)
    }

    /// Stores a single value, recording misuse when a container was asked for before.
    func storeSingle(_ value: Value) {
        switch storage {
        case .object?, .array?, .encoder?: recordMisuse("a single value container")
        case .value?, nil: break
        }
        storage = .value(value)
    }

    /// The finished value, or nil when nothing was encoded.
    /// - Throws: the recorded misuse error, or one from a `superEncoder` below.
    func resolvedValue() throws -> Value? {
        if let misuse { throw misuse }
        return try storage?.resolve()
    }

    /// Encodes the top-level value into this node; nil when it encodes nothing.
    func wrapTopLevel<T: Encodable>(_ value: T) throws -> Value? {
        if let special = try context.wrapSpecial(value, at: codingPath) { return special }
        try value.encode(to: self)
        return try resolvedValue().map { context.orderedIfDictionary($0, T.self) }
    }

    private func recordMisuse(_ kind: String) {
        guard misuse == nil else { return }
        misuse = EncodingError.invalidValue(
            kind,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: ValueCodingMessage.at(
                    codingPath, "\(kind) was asked for after a different kind of container had been used")))
    }
}
