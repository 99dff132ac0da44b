import FerryCore
import FerryTestSupport
import Foundation
import Testing

/// The one spool file of the JSON, CSV and XML writers and of `diff`: appends, ranges read back
/// and copied out, a length patched in place, its errors, and that it leaves nothing behind.
@Suite struct SpoolFileTests {
    /// `count` bytes counting up from `start` (mod 251, so no run repeats on a power of two).
    private func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8((start + $0) % 251) }
    }

    @Test func appendsReturnTheirOffsetsAndReadBack() throws {
        let spool = try SpoolFile(kind: "unit-spool")
        #expect(try spool.append([1, 2, 3]) == 0)
        #expect(try spool.append([4, 5]) == 3)
        #expect(spool.size == 5)
        #expect(try spool.bytes(at: 1, count: 3) == [2, 3, 4])
        var buffer = [UInt8](repeating: 0, count: 8)
        // Short only at the end of the file.
        #expect(try buffer.withUnsafeMutableBytes { try spool.read(at: 2, into: $0) } == 3)
        #expect(Array(buffer[0..<3]) == [3, 4, 5])
        // Appends after a read land after the bytes already there.
        #expect(try spool.append([6]) == 5)
        #expect(try spool.bytes(at: 0, count: 6) == [1, 2, 3, 4, 5, 6])
    }

    @Test func overwriteReplacesBytesInPlace() throws {
        let spool = try SpoolFile(kind: "unit-spool")
        try spool.append([0, 0, 0, 0, 9])
        var length = UInt32(0x0403_0201).littleEndian
        try withUnsafeBytes(of: &length) { try spool.overwrite($0, at: 0) }
        #expect(try spool.bytes(at: 0, count: 5) == [1, 2, 3, 4, 9])
        #expect(spool.size == 5)
    }

    /// A range far larger than the copy buffer reaches the sink whole, in writes of at most 256 KiB:
    /// a spooled 250 MB string is never in memory whole (Docs/performance.md "One long value").
    @Test func copiesRangesInBoundedPieces() throws {
        let spool = try SpoolFile(kind: "unit-spool")
        let bytes = pattern(1_100_003)
        try spool.append(Array(bytes[0..<7]))
        try spool.append(Array(bytes[7...]))
        let sink = PieceRecordingSink()
        try spool.copy(offset: 5, length: 1_000_001, to: sink)
        #expect(sink.bytes == Array(bytes[5..<1_000_006]))
        #expect(sink.largestWrite == 256 * 1024)
        let all = PieceRecordingSink()
        try spool.copyAll(to: all)
        #expect(all.bytes == bytes)
        let small = MemorySink()
        try spool.copy(offset: 1_100_000, length: 3, to: small)
        #expect(small.bytes == Array(bytes[1_100_000...]))
    }

    @Test func rangesPastTheEndAreInternalErrors() throws {
        let spool = try SpoolFile(kind: "unit-spool")
        try spool.append([1, 2, 3])
        let short = #expect(throws: FerryError.self) { try spool.bytes(at: 2, count: 2) }
        #expect(short?.diagnostic.code == .internalError)
        #expect(short?.diagnostic.message == "a temporary spool file ended early")
        let copy = #expect(throws: FerryError.self) { try spool.copy(offset: 0, length: 4, to: MemorySink()) }
        #expect(copy?.diagnostic.code == .internalError)
        #expect(copy?.diagnostic.message == "a temporary spool file ended early")
        let patch = #expect(throws: FerryError.self) {
            try [UInt8](repeating: 0, count: 2).withUnsafeBytes { try spool.overwrite($0, at: 2) }
        }
        #expect(patch?.diagnostic.code == .internalError)
        #expect(patch?.diagnostic.message == "a write past the end of a temporary spool file")
    }

    /// The file is unlinked once created: no name of it is registered or left in the folder.
    @Test func leavesNoFileBehind() throws {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: TemporaryFiles.directory))
        let spool = try SpoolFile(kind: "unit-spool-unlinked")
        try spool.append(pattern(10))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: TemporaryFiles.directory))
        #expect(after.subtracting(before).filter { $0.contains("unit-spool-unlinked") }.isEmpty)
        #expect(!TemporaryFiles.shared.paths.contains { $0.contains("unit-spool-unlinked") })
    }
}
