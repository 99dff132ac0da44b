/// The keyed container of `ValueEncoder`: members of an `.object`, in the order first encoded.
struct ValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: ValueEncodingContext
    let object: ValueEncodingObject
    let codingPath: [any CodingKey]

    private func set(_ value: Value, _ key: Key) { object.set(key.stringValue, .value(value)) }
    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try context.box(value, at: path(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try context.box(value, at: path(key)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(context.box(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(context.box(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try context.wrap(value, at: path(key)), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: ValueEncodingObject
        if case .object(let existing)? = object.slot(for: key.stringValue) {
            nested = existing
        } else {
            nested = ValueEncodingObject()
            object.set(key.stringValue, .object(nested))
        }
        return KeyedEncodingContainer(
            ValueKeyedEncodingContainer<NestedKey>(context: context, object: nested, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: ValueEncodingArray
        if case .array(let existing)? = object.slot(for: key.stringValue) {
            nested = existing
        } else {
            nested = ValueEncodingArray()
            object.set(key.stringValue, .array(nested))
        }
        return ValueUnkeyedEncodingContainer(context: context, array: nested, codingPath: path(key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: ValueCodingKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let node = ValueEncodingNode(context: context, codingPath: codingPath + [key])
        object.set(key.stringValue, .encoder(node))
        return node
    }
}

/// The unkeyed container of `ValueEncoder`: elements of an `.array`.
struct ValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let context: ValueEncodingContext
    let array: ValueEncodingArray
    let codingPath: [any CodingKey]

    var count: Int { array.elements.count }

    private func append(_ value: Value) { array.elements.append(.value(value)) }
    private var nextPath: [any CodingKey] { codingPath + [ValueCodingKey(index: count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try context.box(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try context.box(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(context.box(value)) }
    mutating func encode(_ value: Int8) throws { append(context.box(value)) }
    mutating func encode(_ value: Int16) throws { append(context.box(value)) }
    mutating func encode(_ value: Int32) throws { append(context.box(value)) }
    mutating func encode(_ value: Int64) throws { append(context.box(value)) }
    mutating func encode(_ value: UInt) throws { append(context.box(value)) }
    mutating func encode(_ value: UInt8) throws { append(context.box(value)) }
    mutating func encode(_ value: UInt16) throws { append(context.box(value)) }
    mutating func encode(_ value: UInt32) throws { append(context.box(value)) }
    mutating func encode(_ value: UInt64) throws { append(context.box(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try context.wrap(value, at: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ValueEncodingObject()
        let path = nextPath
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(ValueKeyedEncodingContainer<NestedKey>(context: context, object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ValueEncodingArray()
        let path = nextPath
        array.elements.append(.array(nested))
        return ValueUnkeyedEncodingContainer(context: context, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let node = ValueEncodingNode(context: context, codingPath: nextPath)
        array.elements.append(.encoder(node))
        return node
    }
}

/// The single value container of `ValueEncoder`: the node's whole value.
struct ValueSingleValueEncodingContainer: SingleValueEncodingContainer {
    let node: ValueEncodingNode

    var codingPath: [any CodingKey] { node.codingPath }
    private var context: ValueEncodingContext { node.context }

    mutating func encodeNil() throws { node.storeSingle(.null) }
    mutating func encode(_ value: Bool) throws { node.storeSingle(.bool(value)) }
    mutating func encode(_ value: String) throws { node.storeSingle(.string(value)) }
    mutating func encode(_ value: Double) throws { node.storeSingle(try context.box(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { node.storeSingle(try context.box(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: Int8) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: Int16) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: Int32) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: Int64) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: UInt) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: UInt8) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: UInt16) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: UInt32) throws { node.storeSingle(context.box(value)) }
    mutating func encode(_ value: UInt64) throws { node.storeSingle(context.box(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.storeSingle(try context.wrap(value, at: codingPath))
    }
}
