#if canImport(Glibc)
import Glibc
#endif
import FerryCore
import FerryTestSupport
import Foundation
import Testing

/// `FileDescriptorSink` writes every byte in order, whatever the sizes of the writes, with and
/// without starting the writeback of its pages as it goes (`startsWriteback`, for files that are
/// synced at the end: the bench's 450 MB outputs).
@Suite struct FileDescriptorSinkTests {
    /// Writes 20 MiB in writes of odd sizes (small ones buffered, big ones written through) and
    /// reads the file back.
    static func roundTrip(startsWriteback: Bool) throws -> (written: [UInt8], read: [UInt8]) {
        let path = NSTemporaryDirectory() + "/ferry-sink-\(getpid())-\(startsWriteback).bin"
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let sink = FileDescriptorSink(descriptor: descriptor, name: path, capacity: 64 * 1024, startsWriteback: startsWriteback)
        var generator = SplitMix(seed: 3)
        var written: [UInt8] = []
        while written.count < 20 << 20 {
            let size = [1, 7, 4_093, 65_536, 300_001, 9 << 20][generator.next(6)]
            let chunk = (0..<size).map { UInt8(truncatingIfNeeded: written.count + $0) }
            try sink.write(chunk)
            written += chunk
        }
        try sink.flush()
        #expect(fsync(descriptor) == 0)
        close(descriptor)
        return (written, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(arguments: [false, true])
    func everyByteInOrder(startsWriteback: Bool) throws {
        let (written, read) = try Self.roundTrip(startsWriteback: startsWriteback)
        #expect(read.count == written.count)
        #expect(read == written)
    }
}
