import FerryCore

/// JSON pointers held as bytes in one growing buffer, each found again by the offset `append`
/// returned: a token count, then each token's UTF-8 length and bytes (LEB128 lengths).
///
/// `IDTable` keeps the first-seen pointer of every document that is not at its record's root (a
/// Firestore export's `/__collections__/wordBooks/<id>/__collections__/words/<id>`): held as
/// `JSONPointer`s, that is one small allocation a document, kept to the end of the run and
/// scattered among the short-lived ones, which slowed every later `malloc` (measured: 0.5 s of
/// 4.3 s migrating 200,000 words) and cost about 190 bytes a pointer; here it is the pointer's
/// bytes and a few more.
struct PackedPointers {
    private var bytes: [UInt8] = []

    /// Stores `pointer`; returns the offset that `pointer(at:)` reads it back from.
    mutating func append(_ pointer: JSONPointer) -> Int {
        let offset = bytes.count
        appendLength(pointer.tokens.count)
        for token in pointer.tokens {
            var token = token
            token.withUTF8 { utf8 in
                appendLength(utf8.count)
                bytes.append(contentsOf: utf8)
            }
        }
        return offset
    }

    /// The pointer stored at `offset` (a value `append` returned).
    func pointer(at offset: Int) -> JSONPointer {
        var cursor = offset
        let count = readLength(&cursor)
        var tokens: [String] = []
        tokens.reserveCapacity(count)
        for _ in 0..<count {
            let length = readLength(&cursor)
            tokens.append(String(decoding: bytes[cursor..<(cursor + length)], as: UTF8.self))
            cursor += length
        }
        return JSONPointer(tokens: tokens)
    }

    private mutating func appendLength(_ value: Int) {
        var rest = UInt(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private func readLength(_ cursor: inout Int) -> Int {
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = bytes[cursor]
            cursor += 1
            result |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { return Int(result) }
            shift += 7
        }
    }
}
