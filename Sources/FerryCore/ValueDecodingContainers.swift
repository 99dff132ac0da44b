/// The keyed container of `ValueDecoder`: the members of an `.object`, first member of a name wins.
struct ValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: ValueDecodingContext
    let object: ValueObject
    let codingPath: [any CodingKey]
    /// Member positions by name for large objects (a `[String: X]` decodes every key), first wins.
    private let positions: [String: Int]?

    private static var indexThreshold: Int { 16 }

    init(context: ValueDecodingContext, object: ValueObject, codingPath: [any CodingKey]) {
        self.context = context
        self.object = object
        self.codingPath = codingPath
        if object.count > Self.indexThreshold {
            var built: [String: Int] = [:]
            built.reserveCapacity(object.count)
            for (position, member) in object.members.enumerated() where built[member.key] == nil {
                built[member.key] = position
            }
            positions = built
        } else {
            positions = nil
        }
    }

    /// The keys of the members in order, each name once.
    var allKeys: [Key] {
        var seen = Set<String>()
        return object.members.compactMap { member in
            guard seen.insert(member.key).inserted else { return nil }
            return Key(stringValue: member.key)
        }
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }

    private func lookup(_ key: Key) -> Value? {
        if let positions {
            return positions[key.stringValue].map { object.members[$0].value }
        }
        return object[key.stringValue]
    }

    private func require(_ key: Key) throws -> Value {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: ValueCodingMessage.at(
                        codingPath + [key], "required member \(quoted: key.stringValue) is missing")))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try require(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try context.unboxBool(try require(key), at: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try context.unboxString(try require(key), at: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try context.unboxDouble(try require(key), at: path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try context.unboxFloat(try require(key), at: path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try context.unboxInteger(try require(key), as: I.self, at: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try context.unbox(try require(key), as: T.self, at: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecodingNode(context: context, value: try require(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecodingNode(context: context, value: try require(key), codingPath: path(key)).unkeyedContainer()
    }

    /// The decoder of member `super`; `.null` when absent, as in `JSONDecoder`.
    func superDecoder() throws -> any Decoder {
        let key = ValueCodingKey.super
        return ValueDecodingNode(context: context, value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }

    /// The decoder of member `key`; `.null` when absent, as in `JSONDecoder`.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecodingNode(context: context, value: lookup(key) ?? .null, codingPath: path(key))
    }
}

/// The unkeyed container of `ValueDecoder`: the elements of an `.array`, in order. An element is
/// consumed only when it decodes.
struct ValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let context: ValueDecodingContext
    let elements: [Value]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(context: ValueDecodingContext, elements: [Value], codingPath: [any CodingKey]) {
        self.context = context
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var elementPath: [any CodingKey] { codingPath + [ValueCodingKey(index: currentIndex)] }

    /// The current element.
    /// - Throws: `valueNotFound` when the array has no more elements.
    private func current(_ type: Any.Type) throws -> Value {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: elementPath,
                    debugDescription: ValueCodingMessage.at(
                        elementPath, "expected another element, the array has only \(elements.count)")))
        }
        return elements[currentIndex]
    }

    /// Decodes the current element with `unbox` and moves past it when that succeeds.
    private mutating func next<T>(_ type: T.Type, _ unbox: (Value, [any CodingKey]) throws -> T) throws -> T {
        let result = try unbox(try current(type), elementPath)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never?.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { [context] in try context.unboxBool($0, at: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { [context] in try context.unboxString($0, at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { [context] in try context.unboxDouble($0, at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { [context] in try context.unboxFloat($0, at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        try next(I.self) { [context] in try context.unboxInteger($0, as: I.self, at: $1) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { [context] in try context.unbox($0, as: T.self, at: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { [context] in
            try ValueDecodingNode(context: context, value: $0, codingPath: $1).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { [context] in
            try ValueDecodingNode(context: context, value: $0, codingPath: $1).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { [context] in ValueDecodingNode(context: context, value: $0, codingPath: $1) }
    }
}

/// The single value container of `ValueDecoder`: the node's whole value.
struct ValueSingleValueDecodingContainer: SingleValueDecodingContainer {
    let node: ValueDecodingNode

    var codingPath: [any CodingKey] { node.codingPath }
    private var context: ValueDecodingContext { node.context }
    private var value: Value { node.value }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try context.unboxBool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try context.unboxString(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try context.unboxDouble(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try context.unboxFloat(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try context.unboxInteger(value, as: type, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try context.unboxInteger(value, as: type, at: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.unbox(value, as: T.self, at: codingPath) }
}
