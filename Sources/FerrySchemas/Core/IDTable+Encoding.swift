/// How entries are written in the arena: varints and lines beside their record's index.
extension IDTable {
    /// The line as stored: 0 for none; with an index, 1 + the zigzag of their difference.
    static func encodeLine(_ line: Int?, index: Int?) -> UInt64 {
        guard let line else { return 0 }
        guard let index else { return UInt64(max(line, 0)) + 1 }
        let difference = Int64(line) - Int64(index)
        return UInt64(bitPattern: (difference << 1) ^ (difference >> 63)) + 1
    }

    static func decodeLine(_ stored: UInt64, index: Int?) -> Int? {
        guard stored > 0 else { return nil }
        guard let index else { return Int(stored - 1) }
        let zigzag = stored - 1
        let difference = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        return Int(Int64(index) + difference)
    }

    /// 7 bits a byte: the bits `value` needs (at least one), in whole bytes.
    static func varintSize(_ value: UInt64) -> Int {
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }

    /// Writes `value` as a varint at `start` (`varintSize(value)` bytes); returns the byte after.
    @discardableResult
    static func writeVarint(_ value: UInt64, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = start
        var rest = value
        while rest >= 0x80 {
            cursor.pointee = UInt8(truncatingIfNeeded: rest) | 0x80
            cursor += 1
            rest >>= 7
        }
        cursor.pointee = UInt8(rest)
        return cursor + 1
    }

    /// Reads the varint at `cursor` and moves past it. Inlined for the one-byte case (lengths and
    /// lines nearly always; each probe's confirmation and each entry put back on growing read one).
    @inline(__always)
    static func readVarint(_ cursor: inout UnsafePointer<UInt8>) -> UInt64 {
        let first = cursor.pointee
        guard first >= 0x80 else {
            cursor += 1
            return UInt64(first)
        }
        return readLongVarint(&cursor)
    }

    static func readLongVarint(_ cursor: inout UnsafePointer<UInt8>) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = cursor.pointee
            cursor += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }
}
