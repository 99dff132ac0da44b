import FerryCore

/// Strings (RFC 8259 section 7): unescaped, surrogate pairs combined, raw bytes checked as UTF-8.
extension JSONParser {
    @inline(__always)
    static func isSpecialInString(_ byte: UInt8) -> Bool {
        byte == JSONSyntax.quote || byte == JSONSyntax.backslash || byte < 0x20
    }

    /// Parses a string with `index` at its opening quote; leaves `index` past the closing quote.
    mutating func parseString() throws -> String {
        let open = index
        index += 1
        let start = index
        var high: UInt8 = 0
        if let base = bytes.baseAddress {
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            var wide: UInt64 = 0
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if JSONSyntax.hasStringSpecial(word) { break }
                wide |= word
                index += 8
            }
            if wide & JSONSyntax.highBits != 0 { high = 0x80 }
        }
        while index < end {
            let byte = bytes[index]
            if Self.isSpecialInString(byte) { break }
            high |= byte
            index += 1
        }
        if index < end, bytes[index] == JSONSyntax.quote {
            // Fast path: no escapes, the text is the bytes themselves.
            let range = start..<index
            index += 1
            if high >= 0x80, JSONSyntax.firstInvalidUTF8(in: bytes, range) != nil {
                throw invalidUTF8(in: range)
            }
            if range.count <= 15, start + 16 <= bytes.count, let base = bytes.baseAddress {
                return InlineString.make(base, start: start, length: range.count)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < end else {
                if !isFinal { throw JSONNeedsMoreInput() }
                throw error(.malformedJSON, "unterminated string", at: open)
            }
            let byte = bytes[index]
            if byte == JSONSyntax.quote {
                index += 1
                break
            }
            if byte == JSONSyntax.backslash {
                try parseEscape(open: open)
                continue
            }
            if byte < 0x20 {
                throw error(
                    .malformedJSON, "control character U+\(hex(byte, width: 4)) must be escaped in a string", at: index)
            }
            let runStart = index
            while index < end, !Self.isSpecialInString(bytes[index]) { index += 1 }
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        }
        if JSONSyntax.firstInvalidUTF8(in: bytes, start..<(index - 1)) != nil {
            throw invalidUTF8(in: start..<(index - 1))
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    func invalidUTF8(in range: Range<Int>) -> FerryError {
        let offset = JSONSyntax.firstInvalidUTF8(in: bytes, range) ?? range.lowerBound
        return error(.invalidEncoding, "invalid UTF-8 byte 0x\(hex(bytes[offset], width: 2)) in a string", at: offset)
    }

    /// Four hexadecimal digits at `offset`, or nil.
    func hex4(at offset: Int) throws -> UInt32? {
        guard offset + 4 <= end else {
            if !isFinal { throw JSONNeedsMoreInput() }
            return nil
        }
        var result: UInt32 = 0
        for i in offset..<(offset + 4) {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case JSONSyntax.zero...JSONSyntax.nine: digit = b - JSONSyntax.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            result = result << 4 | UInt32(digit)
        }
        return result
    }

    /// Appends the unescaped form of the escape at `index` (a backslash) to `scratch`.
    mutating func parseEscape(open: Int) throws {
        guard index + 1 < end else {
            if !isFinal { throw JSONNeedsMoreInput() }
            throw error(.malformedJSON, "unterminated string", at: open)
        }
        let escape = bytes[index + 1]
        let simple: UInt8
        switch escape {
        case JSONSyntax.quote: simple = JSONSyntax.quote
        case JSONSyntax.backslash: simple = JSONSyntax.backslash
        case JSONSyntax.slash: simple = JSONSyntax.slash
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            try parseUnicodeEscape()
            return
        default:
            throw error(.malformedJSON, "invalid escape sequence '\\\(describe(at: index + 1).trimmingQuotes)' in a string", at: index)
        }
        scratch.append(simple)
        index += 2
    }

    /// `\uXXXX`, combining a high and a low surrogate escape into one scalar.
    mutating func parseUnicodeEscape() throws {
        guard let code = try hex4(at: index + 2) else {
            throw error(.malformedJSON, "invalid \\u escape: expected four hexadecimal digits", at: index)
        }
        var scalarValue = code
        var length = 6
        if code >= 0xD800 && code <= 0xDBFF {
            let next = index + 6
            var low: UInt32?
            if next + 2 > end, !isFinal, next >= end || bytes[next] == JSONSyntax.backslash {
                throw JSONNeedsMoreInput()
            }
            if next + 1 < end, bytes[next] == JSONSyntax.backslash, bytes[next + 1] == UInt8(ascii: "u") {
                guard let second = try hex4(at: next + 2) else {
                    throw error(.malformedJSON, "invalid \\u escape: expected four hexadecimal digits", at: next)
                }
                low = second
            }
            guard let low, low >= 0xDC00 && low <= 0xDFFF else {
                throw error(
                    .malformedJSON, "unpaired surrogate escape \\u\(hex(code, width: 4)) in a string (RFC 8259 section 8.2)",
                    at: index)
            }
            scalarValue = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            length = 12
        } else if code >= 0xDC00 && code <= 0xDFFF {
            throw error(
                .malformedJSON, "unpaired surrogate escape \\u\(hex(code, width: 4)) in a string (RFC 8259 section 8.2)",
                at: index)
        }
        Self.appendUTF8(scalarValue, to: &scratch)
        index += length
    }

    /// Appends the UTF-8 form of a scalar value (never a surrogate) to `bytes`.
    static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (scalar >> 6)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (scalar >> 12)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (scalar >> 18)))
            bytes.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
