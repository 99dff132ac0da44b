import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

@Suite struct BundleVerifyTests {
    /// One run reports every problem: a flipped byte, a removed file, an extra file, an orphan and a wrong count.
    @Test func everyProblemInOneRun() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.tar").path
        try Sample.writeBundle(to: .archive(path: good, compression: .none))
        var members = try Sample.members(good).map { ($0.entry.path ?? "", $0.content) }
        // Flip one byte of the PNG, drop the JPEG, add an unlisted media file.
        let png = try #require(members.firstIndex { $0.0 == "data/media/ProfileImages/p1.png" })
        members[png].1[10] ^= 0xFF
        members.removeAll { $0.0 == "data/media/Stories/s1/c1.jpeg" }
        members.append(("data/media/Stories/s9/extra.png", Sample.png))
        let bad = dir.appendingPathComponent("bad.tar").path
        try Sample.writeTar(bad, members)

        let log = DiagnosticLog()
        let reader = try BundleReader(path: bad, log: log)
        var counts: [String: Int] = [:]
        for record in try Sample.readAll(reader, log: log) { counts[record.collection ?? "", default: 0] += 1 }
        #expect(counts == ["profiles": 1, "stories": 2])
        counts["stories"] = 3
        reader.verify(
            referencedMedia: ["data/media/ProfileImages/p1.png", "data/media/Stories/s1/c1.jpeg"], recordCounts: counts, log: log)
        #expect(log.diagnostics.map { "\($0.severity) \($0.code) \($0.location)" } == [
            "error checksum-mismatch \(bad):data/media/ProfileImages/p1.png",
            "error missing-file \(bad):data/media/Stories/s1/c1.jpeg",
            "error unlisted-file \(bad):data/media/Stories/s9/extra.png",
            "warning orphan-media \(bad):data/media/Stories/s9/extra.png",
            "error count-mismatch \(bad):data/stories.json",
        ])
        #expect(log.diagnostics.last?.location.collection == "stories")
    }

    @Test func patchedByteInsideTheArchive() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("b.tar").path
        try Sample.writeBundle(to: .archive(path: path, compression: .none))
        var bytes = try Sample.bytes(path)
        // The JPEG's content starts at a 512-byte block boundary; flip its last byte in place.
        let start = try #require(stride(from: 0, to: bytes.count, by: 512).first { Array(bytes[$0..<($0 + 4)]) == [0xFF, 0xD8, 0xFF, 0xE0] })
        bytes[start + Sample.jpeg.count - 1] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        reader.verify(referencedMedia: Set(reader.mediaFiles.map(\.path)), recordCounts: ["profiles": 1, "stories": 2],
                      log: log)
        #expect(Sample.problems(log) == ["checksum-mismatch data/media/Stories/s1/c1.jpeg"])
    }

    @Test func missingDataMemberIsReportedOnce() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.tar").path
        try Sample.writeBundle(to: .archive(path: good, compression: .none))
        let members = try Sample.members(good).map { ($0.entry.path ?? "", $0.content) }.filter { $0.0 != "data/profiles.json" }
        let bad = dir.appendingPathComponent("bad.tar").path
        try Sample.writeTar(bad, members)
        let log = DiagnosticLog()
        let reader = try BundleReader(path: bad, log: log)
        let records = try Sample.readAll(reader, log: log)
        #expect(records.count == 2)
        reader.verify(referencedMedia: Set(reader.mediaFiles.map(\.path)), recordCounts: ["stories": 2], log: log)
        #expect(Sample.problems(log) == ["missing-file data/profiles.json", "count-mismatch data/profiles.json"])
    }

    @Test func dataWithoutManifest() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.tar").path
        try Sample.writeTar(path, [("data/words.json", Array("[\n  {\"id\": \"w1\"}\n]\n".utf8))])
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        #expect(Sample.problems(log) == ["missing-manifest -"])
        let records = try Sample.readAll(reader, log: log)
        #expect(records.map { "\($0.collection ?? "-") \($0.location.member ?? "-")" } == ["words data/words.json"])
    }

    @Test func folderWithDataButNoManifest() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data("[]\n".utf8).write(to: dir.appendingPathComponent("data/words.json"))
        let log = DiagnosticLog()
        _ = try BundleReader(path: dir.path, log: log)
        #expect(log.diagnostics.map { "\($0.code) \($0.message)" } == ["missing-manifest the bundle has data/ but no manifest.json"])
    }

    @Test func documentsFolderIsReadWithoutManifest() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("Stories/s1"), withIntermediateDirectories: true)
        try fm.createDirectory(at: dir.appendingPathComponent("MemberImages"), withIntermediateDirectories: true)
        try Data(Sample.jpeg).write(to: dir.appendingPathComponent("Stories/s1/c1.JPG"))
        try Data(Sample.png).write(to: dir.appendingPathComponent("MemberImages/m1.png"))
        try Data("[\n  {\"id\": \"s1\"}\n]\n".utf8).write(to: dir.appendingPathComponent("export.json"))
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("MemberImages/escape.png").path,
                                  withDestinationPath: "../../outside.png")
        let log = DiagnosticLog()
        let reader = try BundleReader(path: dir.path, log: log)
        #expect(reader.layout == .documentsFolder(dataFile: "export.json"))
        #expect(log.diagnostics.map { "\($0.severity) \($0.code) \($0.location.member ?? "-")" } == [
            "error unsafe-path MemberImages/escape.png", "note assumption -",
        ])
        #expect(reader.mediaFiles.map(\.path) == ["MemberImages/m1.png", "Stories/s1/c1.JPG"])
        let records = try Sample.readAll(reader, log: log)
        #expect(records.map { $0.location.member } == ["export.json"])
        reader.verify(referencedMedia: ["Stories/s1/c1.JPG"], recordCounts: [:], log: log)
        #expect(Sample.problems(log) == ["unsafe-path MemberImages/escape.png", "orphan-media MemberImages/m1.png"])
    }
}
