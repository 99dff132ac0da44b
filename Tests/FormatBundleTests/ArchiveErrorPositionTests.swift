import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

#if canImport(Glibc)
import Glibc
#endif

/// Every corrupt-archive error says where: the byte offset in the tar stream and the header or
/// member being read (the first header, the header after the last good member, or the member
/// whose content broke off).
@Suite struct ArchiveErrorPositionTests {
    /// The errors of a bundle read, as printed, with the folder of `path` left out.
    static func errors(_ path: String) throws -> [String] {
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        _ = try? Sample.readAll(reader, log: log)
        let folder = (path as NSString).deletingLastPathComponent + "/"
        return log.diagnostics.filter { $0.severity == .error && $0.code != .missingManifest }
            .map { $0.description.replacingOccurrences(of: folder, with: "") }
    }

    /// The five corrupt tars of Go's archive/tar suite, each broken in its first header.
    static let goCorpus: [(file: String, error: String)] = [
        ("issue10968.tar", "issue10968.tar: error: unrecognized archive format at byte offset 0, the first member header [malformed-archive]"),
        ("issue11169.tar", "issue11169.tar: error: cannot read the next member header at byte offset 0, the first member header [malformed-archive]"),
        ("issue12435.tar", "issue12435.tar: error: unrecognized archive format at byte offset 0, the first member header [malformed-archive]"),
        ("neg-size.tar", "neg-size.tar: error: unrecognized archive format at byte offset 0, the first member header [malformed-archive]"),
        ("pax-path-hdr.tar", "pax-path-hdr.tar: error: the archive ends inside a member header (damaged tar archive at byte offset 0, the first member header) [truncated-archive]"),
    ]

    @Test(arguments: 0..<5)
    func goCorruptTarsNameTheHeaderAndOffset(index: Int) throws {
        guard let suite = Fixtures.corpus("tar-go-archive-tar") else {
            print("skipped: ../shared/corpus/tar-go-archive-tar absent")
            return
        }
        let (file, error) = Self.goCorpus[index]
        #expect(try Self.errors(suite.appendingPathComponent("testdata/" + file).path) == [error])
    }

    /// `a.txt` (5 bytes) and `b.txt` (700 bytes): headers at 0 and 1024, `b.txt`'s content at
    /// 1536 up to 2236, padded to 2560.
    static func twoMembers() throws -> (dir: URL, bytes: [UInt8]) {
        let dir = try makeTemporaryDirectory()
        let path = dir.appendingPathComponent("two.tar").path
        try Sample.writeTar(path, [("a.txt", Array("hello".utf8)), ("b.txt", [UInt8](repeating: 0x62, count: 700))])
        return (dir, try Sample.bytes(path))
    }

    static func write(_ bytes: [UInt8], _ url: URL) throws {
        try Data(bytes).write(to: url)
    }

    @Test func aDamagedHeaderIsTheHeaderAfterTheLastGoodMember() throws {
        var (dir, bytes) = try Self.twoMembers()
        defer { try? FileManager.default.removeItem(at: dir) }
        bytes[1024 + 148] = UInt8(ascii: "7")  // b.txt's header checksum
        let url = dir.appendingPathComponent("damaged.tar")
        try Self.write(bytes, url)
        // libarchive then tries each following block as a header (b.txt's two content blocks, at
        // 1536 and 2048): one damage, said once, where it starts.
        #expect(try Self.errors(url.path) == [
            "damaged.tar: error: damaged tar archive at byte offset 1024, the header after member \"a.txt\" [malformed-archive]"
        ])
    }

    @Test func contentCutOffNamesTheMemberAndHowFarTheArchiveWasRead() throws {
        let (dir, bytes) = try Self.twoMembers()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cut.tar")
        try Self.write(Array(bytes[0..<1800]), url)
        #expect(try Self.errors(url.path) == [
            "cut.tar:b.txt: error: truncated tar archive at byte offset 1800, in member \"b.txt\" [truncated-archive]",
        ])
    }

    @Test func aCompressedArchiveCountsTheDecompressedStream() throws {
        let (dir, bytes) = try Self.twoMembers()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cut.tar.gz")
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try ArchiveWriter(sink: FileDescriptorSink(descriptor: fd, name: url.path), name: url.path,
                                       format: .raw, compression: .gzip)
        try writer.beginEntry(path: "cut.tar", size: 1800, permissions: 0o644, modificationTime: 0)
        try bytes[0..<1800].withUnsafeBytes { try writer.write($0) }
        try writer.close()
        close(fd)
        #expect(try Self.errors(url.path) == [
            "cut.tar.gz:b.txt: error: truncated tar archive at byte offset 1800 of the decompressed archive, in member \"b.txt\" [truncated-archive]",
        ])
    }
}
