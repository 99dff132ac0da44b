import FerryCore

/// JSON pointers held as bytes in one growing buffer, each found again by the offset `append`
/// returned: a token count, then each token but the last as the LEB128 number of a table of the
/// distinct ones (collection names, a word book's id: the same for many pointers), then the last
/// (a document's own id, rarely repeated) as its UTF-8 length and bytes.
///
/// `IDTable` keeps the first-seen pointer of every document that is not at its record's root (a
/// Firestore export's `/__collections__/wordBooks/<id>/__collections__/words/<id>`): held as
/// `JSONPointer`s, that is an allocation of about 190 bytes a document kept to the end of the
/// run; here it is about the last token's bytes and one byte for each other token.
struct PackedPointers {
    private var bytes: [UInt8] = []
    /// The tokens before the last, each once, and their numbers.
    private var tokens: [String] = []
    private var numbers: [String: Int] = [:]
    /// The tokens before the last of the pointer appended last, and their numbers: the next
    /// pointer (the next document of the same collection) shares them without a lookup.
    private var previous: [(token: String, number: Int)] = []

    /// Stores `pointer`; returns the offset that `pointer(at:)` reads it back from.
    mutating func append(_ pointer: JSONPointer) -> Int {
        let offset = bytes.count
        appendLength(pointer.tokens.count)
        guard var last = pointer.tokens.last else { return offset }
        for (i, token) in pointer.tokens.dropLast().enumerated() {
            if i < previous.count, previous[i].token == token {
                appendLength(previous[i].number)
                continue
            }
            let number: Int
            if let known = numbers[token] {
                number = known
            } else {
                number = tokens.count
                numbers[token] = number
                tokens.append(token)
            }
            appendLength(number)
            if i < previous.count { previous[i] = (token, number) } else { previous.append((token, number)) }
        }
        last.withUTF8 { utf8 in
            appendLength(utf8.count)
            bytes.append(contentsOf: utf8)
        }
        return offset
    }

    /// The pointer stored at `offset` (a value `append` returned).
    func pointer(at offset: Int) -> JSONPointer {
        var cursor = offset
        let count = readLength(&cursor)
        guard count > 0 else { return .root }
        var result: [String] = []
        result.reserveCapacity(count)
        for _ in 1..<count { result.append(tokens[readLength(&cursor)]) }
        let length = readLength(&cursor)
        result.append(String(decoding: bytes[cursor..<(cursor + length)], as: UTF8.self))
        return JSONPointer(tokens: result)
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
