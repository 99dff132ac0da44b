import FerryCore

/// A compact binary form of `Value` for spool files (the diff's, records held back, the library's
/// streamed models): a tag byte, then LEB128 lengths and raw bytes. Equal values always encode to
/// equal bytes (object members keep their order), so the diff compares two records by their bytes
/// first and decodes them only when they differ.
package enum ValueSpoolCoding {
    private enum Tag: UInt8 {
        case null = 0, falseValue, trueValue, integer, double, number, string, array, object
    }

    /// Appends the encoding of `value` to `bytes`.
    package static func encode(_ value: Value, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .bool(let flag): bytes.append(flag ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .integer(let integer):
            bytes.append(Tag.integer.rawValue)
            appendFixed(UInt64(bitPattern: integer), into: &bytes)
        case .double(let double):
            bytes.append(Tag.double.rawValue)
            appendFixed(double.bitPattern, into: &bytes)
        case .number(let text):
            bytes.append(Tag.number.rawValue)
            appendText(text, into: &bytes)
        case .string(let text):
            bytes.append(Tag.string.rawValue)
            appendText(text, into: &bytes)
        case .array(let elements):
            bytes.append(Tag.array.rawValue)
            appendLength(elements.count, into: &bytes)
            for element in elements { encode(element, into: &bytes) }
        case .object(let object):
            bytes.append(Tag.object.rawValue)
            appendLength(object.count, into: &bytes)
            for member in object {
                appendText(member.key, into: &bytes)
                encode(member.value, into: &bytes)
            }
        }
    }

    /// Decodes one value from the start of `bytes`.
    /// - Throws: `FerryError(.internalError)` for bytes this encoder did not write (a spool file
    ///   changed under the run).
    package static func decode(_ bytes: [UInt8]) throws -> Value {
        var offset = 0
        return try bytes.withUnsafeBufferPointer { try decode($0, at: &offset) }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) throws -> Value {
        guard offset < bytes.count, let tag = Tag(rawValue: bytes[offset]) else { throw corrupt() }
        offset += 1
        switch tag {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .integer: return .integer(Int64(bitPattern: try readFixed(bytes, at: &offset)))
        case .double: return .double(Double(bitPattern: try readFixed(bytes, at: &offset)))
        case .number: return .number(try readText(bytes, at: &offset))
        case .string: return .string(try readText(bytes, at: &offset))
        case .array:
            let count = try readLength(bytes, at: &offset)
            var elements: [Value] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try decode(bytes, at: &offset)) }
            return .array(elements)
        case .object:
            let count = try readLength(bytes, at: &offset)
            var object = ValueObject()
            object.reserveCapacity(count)
            for _ in 0..<count {
                let key = try readText(bytes, at: &offset)
                object.append(key, try decode(bytes, at: &offset))
            }
            return .object(object)
        }
    }

    private static func appendFixed(_ word: UInt64, into bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    private static func appendLength(_ length: Int, into bytes: inout [UInt8]) {
        var rest = UInt64(length)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendText(_ text: String, into bytes: inout [UInt8]) {
        appendLength(text.utf8.count, into: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    private static func readFixed(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) throws -> UInt64 {
        guard offset + 8 <= bytes.count else { throw corrupt() }
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return word
    }

    private static func readLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) throws -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                guard result <= UInt64(bytes.count) else { throw corrupt() }
                return Int(result)
            }
            shift += 7
        }
        throw corrupt()
    }

    private static func readText(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) throws -> String {
        let length = try readLength(bytes, at: &offset)
        guard offset + length <= bytes.count else { throw corrupt() }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        offset += length
        return text
    }

    private static func corrupt() -> FerryError {
        FerryError(.internalError, "a diff spool file holds bytes it never wrote")
    }
}
