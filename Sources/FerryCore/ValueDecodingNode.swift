/// The `Decoder` handed to a `Decodable` type by `ValueDecoder`: one value and its coding path.
final class ValueDecodingNode: Decoder {
    let context: ValueDecodingContext
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    init(context: ValueDecodingContext, value: Value, codingPath: [any CodingKey]) {
        self.context = context
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw context.mismatch([String: Any].self, "an object", value, codingPath)
        }
        return KeyedDecodingContainer(ValueKeyedDecodingContainer<Key>(context: context, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw context.mismatch([Any].self, "an array", value, codingPath)
        }
        return ValueUnkeyedDecodingContainer(context: context, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleValueDecodingContainer(node: self)
    }
}
