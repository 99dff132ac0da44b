import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

@Suite struct BundleRoundTripTests {
    static let profilesJSON = "[\n  {\n    \"id\": \"p1\",\n    \"name\": \"Mochi\",\n    \"image\": \"media/ProfileImages/p1.png\"\n  }\n]\n"
    static let storiesJSON = "[\n  {\n    \"id\": \"s1\",\n    \"caption\": \"Walk\",\n    \"media\": [\n      \"media/Stories/s1/c1.jpeg\"\n    ]\n  },\n  {\n    \"id\": \"s2\",\n    \"caption\": \"Café\"\n  }\n]\n"

    @Test func sha256KnownVectors() throws {
        #expect(try SHA256Hasher.hex(of: Array("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try SHA256Hasher.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func manifestIsCanonicalAndFirst() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("b.tar").path
        try Sample.writeBundle(to: .archive(path: path, compression: .none))
        let members = try Sample.members(path)
        // manifest.json and the BagIt tag files first, then the payload under data/ in byte order.
        #expect(members.map { $0.entry.path ?? "" } == [
            "manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
            "data/media/ProfileImages/p1.png", "data/media/Stories/s1/c1.jpeg", "data/profiles.json", "data/stories.json",
        ])
        for (index, name) in ["manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"].enumerated() {
            let mismatch = Golden.mismatch(String(decoding: members[index].content, as: UTF8.self), golden: "bag/" + name)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
        #expect(members[5].content == Sample.png)
        #expect(members[6].content == Sample.jpeg)
        #expect(String(decoding: members[7].content, as: UTF8.self) == Self.profilesJSON)
        #expect(String(decoding: members[8].content, as: UTF8.self) == Self.storiesJSON)
        let createdAt = try #require(BundleTimestamp.epochSeconds("2024-05-01T09:30:00Z"))
        #expect(createdAt == 1_714_555_800)
        for (entry, _) in members {
            #expect(entry.modificationTime == createdAt)
            #expect(entry.uid == 0 && entry.gid == 0)
            #expect((entry.userName ?? "") == "" && (entry.groupName ?? "") == "")
            #expect(entry.permissions == 0o644)
            #expect(entry.kind == .file)
        }
    }

    @Test(arguments: [("b.tar", Compression.none), ("b.tar.gz", .gzip), ("b.tar.zst", .zstd), ("b.tar.xz", .xz), ("b.tar.bz2", .bzip2)])
    func writingTwiceGivesIdenticalBytes(name: String, compression: Compression) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("1-" + name).path
        let second = dir.appendingPathComponent("2-" + name).path
        #expect(BundleWriter.Destination.forPath(first) == .archive(path: first, compression: compression))
        try Sample.writeBundle(to: .forPath(first))
        try Sample.writeBundle(to: .forPath(second))
        let a = try Sample.bytes(first)
        #expect(!a.isEmpty)
        #expect(a == (try Sample.bytes(second)))
        if compression == .gzip {
            // RFC 1952: MTIME (bytes 4...7) zero, no FNAME flag.
            #expect(Array(a[0..<4]) == [0x1F, 0x8B, 0x08, 0x00])
            #expect(Array(a[4..<8]) == [0, 0, 0, 0])
        }
        let log = DiagnosticLog()
        let reader = try BundleReader(path: first, log: log)
        #expect(log.diagnostics.isEmpty)
        #expect(reader.manifest?.collections.map(\.name) == ["profiles", "stories"])
        #expect(reader.mediaFiles.map(\.path) == ["data/media/ProfileImages/p1.png", "data/media/Stories/s1/c1.jpeg"])
        #expect(reader.mediaFiles.map { reader.datasetPath(of: $0.path) } == ["media/ProfileImages/p1.png", "media/Stories/s1/c1.jpeg"])
    }

    @Test func tarToFolderToTarIsIdentical() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = dir.appendingPathComponent("a.tar").path
        try Sample.writeBundle(to: .archive(path: original, compression: .none))
        let folder = dir.appendingPathComponent("unpacked").path + "/"
        try Sample.copyBundle(from: original, to: .forPath(folder))
        #expect(try Sample.bytes(folder + "data/stories.json") == Array(Self.storiesJSON.utf8))
        #expect(try Sample.bytes(folder + "data/media/ProfileImages/p1.png") == Sample.png)
        let again = dir.appendingPathComponent("b.tar").path
        try Sample.copyBundle(from: folder, to: .forPath(again))
        #expect(try Sample.bytes(original) == (try Sample.bytes(again)))
    }

    @Test func recordsCarryBundleAndMemberLocations() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("b.tar.gz").path
        try Sample.writeBundle(to: .forPath(path))
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        #expect(reader.header == DatasetHeader(domain: "pet-story", schemaVersion: 2))
        let records = try Sample.readAll(reader, log: log)
        #expect(records.map { "\($0.collection ?? "-") \($0.value["/id"]?.stringValue ?? "-") \($0.location)" } == [
            "profiles p1 \(path):data/profiles.json:1",
            "stories s1 \(path):data/stories.json:1",
            "stories s2 \(path):data/stories.json:2",
        ])
        #expect(log.diagnostics.isEmpty)
    }

    @Test func timestamps() {
        #expect(BundleTimestamp.epochSeconds("1970-01-01T00:00:00Z") == 0)
        #expect(BundleTimestamp.epochSeconds("2024-05-01T09:30:00Z") == 1_714_555_800)
        #expect(BundleTimestamp.epochSeconds("2024-05-01T18:30:00.250+09:00") == 1_714_555_800)
        #expect(BundleTimestamp.epochSeconds("2024-05-01T09:30:00") == nil)
        #expect(BundleTimestamp.epochSeconds("1969-12-31T23:59:59Z") == -1)
        #expect(BundleTimestamp.epochSeconds("2016-12-31T23:59:60Z") == 1_483_228_800)
        #expect(BundleTimestamp.epochSeconds("2023-02-29T00:00:00Z") == nil)
        #expect(BundleTimestamp.epochSeconds("2024-05-01T09:30:00+24:00") == nil)
    }
}

@Suite struct NonASCIINameTests {
    @Test func unicodeNamesAreUTF8PaxPathsWithoutBinaryCharset() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("u.tar").path
        let writer = try BundleWriter(destination: .forPath(path), registry: TestArrayFormat.registry, options: Sample.options())
        // An NFD name is written NFC.
        try writer.addMedia(path: "media/Stories/s1/Cafe\u{301}-🌟.jpeg", source: MemorySource(Sample.jpeg))
        try writer.finish()
        let bytes = try Sample.bytes(path)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("hdrcharset"))
        #expect(String(decoding: bytes, as: UTF8.self).contains("path=data/media/Stories/s1/Caf\u{E9}-🌟.jpeg\n"))
        let names = try Sample.members(path).map { $0.entry.path ?? "" }
        #expect(names.first { $0.hasPrefix("data/media/") }.map { Array($0.utf8) } == Array("data/media/Stories/s1/Caf\u{E9}-🌟.jpeg".utf8))
    }
}
