import FerryCore

/// Collects written bytes and remembers the largest single write: a writer that streams a long
/// value piece by piece never hands the sink the whole value at once.
public final class PieceRecordingSink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    /// The size in bytes of the largest `write` so far.
    public private(set) var largestWrite = 0
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        largestWrite = max(largestWrite, bytes.count)
        self.bytes.append(contentsOf: bytes)
    }
    public func flush() throws {}
}

/// Long strings for the writers' streaming of long values.
public enum LongValues {
    /// A string of exactly `byteCount` UTF-8 bytes (or one to three more, to end on a whole
    /// character): `shift` plain bytes, then `unit` repeated. Over the shifts `0..<unit.utf8.count`
    /// every byte of `unit` (inside a multi-byte character, an escape) lands on each 64 KiB piece
    /// boundary.
    public static func text(byteCount: Int, unit: String, shift: Int) -> String {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: shift)
        bytes.reserveCapacity(byteCount + unit.utf8.count)
        let unitBytes = Array(unit.utf8)
        while bytes.count < byteCount { bytes.append(contentsOf: unitBytes) }
        // Cut at `byteCount` or just after, on a character boundary.
        var end = byteCount
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The sizes the tests cover: around a piece (64 KiB), 1 MiB and 2 MiB.
    public static let sizes = [64 * 1024, 64 * 1024 + 1, 1024 * 1024 + 3, 2 * 1024 * 1024 + 7]

    /// (size, shift) cells for `text(byteCount:unit:shift:)`: every shift of `unit` at the sizes up
    /// to 1 MiB, two at 2 MiB.
    public static func cells(unit: String) -> [(Int, Int)] {
        sizes.flatMap { size in
            (size > 1024 * 1024 + 3 ? [0, 1] : Array(0..<unit.utf8.count)).map { (size, $0) }
        }
    }
}
