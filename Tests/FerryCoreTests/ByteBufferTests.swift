import FerryCore
import Testing

/// `ByteBuffer`, the byte buffer the JSON serializer and the CSV writer and spool append to.
@Suite struct ByteBufferTests {
    @Test func theBufferGrowsAcrossManyAppends() {
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for i in 0..<10_000 {
            let byte = UInt8(truncatingIfNeeded: i)
            buffer.append(byte)
            expected.append(byte)
            if i % 97 == 0 {
                buffer.append([1, 2, 3])
                expected += [1, 2, 3]
            }
        }
        #expect(buffer.array == expected)
        buffer.truncate(to: 5)
        #expect(buffer.array == Array(expected.prefix(5)))
    }

    @Test func varintsAreLEB128() {
        var buffer = ByteBuffer(capacity: 0)
        buffer.appendVarint(0)
        buffer.appendVarint(127)
        buffer.appendVarint(128)
        buffer.appendVarint(300)
        buffer.appendVarint(UInt64.max)
        #expect(buffer.array == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02,
                                 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    }

    @Test func removeFirstMovesTheRestToTheFront() {
        var buffer = ByteBuffer(capacity: 0)
        buffer.append("abcdef")
        buffer.removeFirst(2)
        #expect(buffer.array == Array("cdef".utf8))
        buffer.removeFirst(10)
        #expect(buffer.count == 0)
    }
}
