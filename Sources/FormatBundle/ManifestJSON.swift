import FerryCore

/// The small JSON reader and writer that bundle manifests need: the reader keeps object member
/// order (the manifest's collection order is the reading order) and numbers as their text; the
/// writer emits the canonical form of SCHEMAS.md "Formats: JSON document" (2-space indent,
/// `"key": value`, raw UTF-8, only `"`, `\` and control characters escaped).
///
/// Manifests are small, so this works on whole byte arrays; data members go through the
/// content-format adapters instead.
enum ManifestJSON {
    /// Parses one JSON document (RFC 8259).
    /// - Throws: `FerryError(.malformedJSON)` with a byte offset in the message.
    static func parse(_ bytes: [UInt8], at location: SourceLocation) throws -> Value {
        var parser = Parser(bytes: bytes, location: location)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    /// Appends the canonical JSON text of `value` at `indent` levels.
    static func encode(_ value: Value, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let i): out += Array(String(i).utf8)
        case .double(let d): out += Array((NumberText.ecmaScript(d) ?? "null").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let s): encodeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += Array("[]".utf8); return }
            out += Array("[\n".utf8)
            for (i, item) in items.enumerated() {
                out += [UInt8](repeating: 32, count: (indent + 1) * 2)
                encode(item, indent: indent + 1, into: &out)
                out += Array((i + 1 < items.count ? ",\n" : "\n").utf8)
            }
            out += [UInt8](repeating: 32, count: indent * 2)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty { out += Array("{}".utf8); return }
            out += Array("{\n".utf8)
            for (i, member) in object.members.enumerated() {
                out += [UInt8](repeating: 32, count: (indent + 1) * 2)
                encodeString(member.key, into: &out)
                out += Array(": ".utf8)
                encode(member.value, indent: indent + 1, into: &out)
                out += Array((i + 1 < object.count ? ",\n" : "\n").utf8)
            }
            out += [UInt8](repeating: 32, count: indent * 2)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func encodeString(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private struct Parser {
        let bytes: [UInt8]
        let location: SourceLocation
        var index = 0

        init(bytes: [UInt8], location: SourceLocation) {
            self.bytes = bytes
            self.location = location
        }

        func error(_ message: String) -> FerryError {
            FerryError(.malformedJSON, "\(message) at byte \(index)", at: location)
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String, _ result: Value) throws -> Value {
            let l = Array(literal.utf8)
            guard index + l.count <= bytes.count, Array(bytes[index..<(index + l.count)]) == l else {
                throw error("unexpected character")
            }
            index += l.count
            return result
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth < 64 else { throw FerryError(.tooDeep, "manifest nesting deeper than 64", at: location) }
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var object = ValueObject()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    skipSpace()
                    object.append(key, try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [Value] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            default: return try number()
            }
        }

        mutating func number() throws -> Value {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (bytes[index] >= 48 && bytes[index] <= 57)
                || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")]
                .contains(bytes[index])
            {
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard index > digitsStart, Double(text) != nil, bytes[digitsStart] >= 48, bytes[digitsStart] <= 57 else {
                index = start
                throw error("unexpected character")
            }
            return .number(text)
        }

        mutating func string() throws -> String {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    guard let text = String(validating: out, as: UTF8.self) else {
                        throw FerryError(.invalidEncoding, "the manifest is not valid UTF-8", at: location)
                    }
                    return text
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    out.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid escape") }
                    out += Array(String(Character(unicode)).utf8)
                default:
                    throw error("invalid escape")
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 48...57: digit = UInt32(byte - 48)
                case 65...70: digit = UInt32(byte - 55)
                case 97...102: digit = UInt32(byte - 87)
                default: throw error("invalid \\u escape")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }
    }
}
