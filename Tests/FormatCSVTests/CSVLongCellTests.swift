import FerryCore
import FerryTestSupport
import Testing
@testable import FormatCSV

/// Long string cells take the writer's streaming paths (a cell of 64 KiB or more goes from the
/// string to the spool file piece by piece; a record over 1 MiB is written from the file without
/// being read back whole); the bytes and errors stay those of the reference writer.
@Suite struct CSVLongCellTests {
    /// Below, at and past the streamed cell size, and past the in-file record size.
    static let lengths = [65_535, 65_536, 65_537, (1 << 20) + 3, (2 << 20) + 1]

    /// A string of `length` bytes that holds, when `special`, the delimiter, quotes, CR and LF
    /// near both ends and at a piece boundary.
    static func text(_ length: Int, special: Bool, first: Character = "x") -> String {
        var bytes = [UInt8](repeating: UInt8(ascii: "y"), count: length)
        bytes[0] = UInt8(String(first).utf8.first!)
        if special {
            for (offset, byte) in [(1, ","), (2, "\""), (65_535, "\""), (65_536, "\n"), (length - 2, "\r"), (length - 1, "\"")] where offset > 0 && offset < length {
                bytes[offset] = UInt8(ascii: Unicode.Scalar(byte)!)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: lengths, [false, true])
    func aLongCellIsWrittenAsTheReferenceWritesIt(length: Int, special: Bool) throws {
        let values: [Value] = [
            ["id": "a", "t": "short"],
            // Its members in the other order: the row puts them back in the header's order.
            ["t": .string(Self.text(length, special: special)), "id": "b", "n": .integer(7)],
            ["id": "c", "t": .string(Self.text(length / 2, special: special)), "n": .double(0.5)],
        ]
        try CSVWriterBytesTests.expectSameAsReference(values)
    }

    @Test(arguments: lengths)
    func csvSafePrefixesALongCell(length: Int) throws {
        let values: [Value] = [["t": .string(Self.text(length, special: true, first: "="))]]
        try CSVWriterBytesTests.expectSameAsReference(values, options: WriteOptions(csvSafe: true))
    }

    @Test(arguments: lengths)
    func aNaNBesideALongCellIsTheSameError(length: Int) throws {
        let values: [Value] = [
            ["id": "a", "x": .double(1)],
            ["id": "b", "t": .string(Self.text(length, special: false)), "x": .double(.nan)],
        ]
        try CSVWriterBytesTests.expectSameAsReference(values)
    }
}
