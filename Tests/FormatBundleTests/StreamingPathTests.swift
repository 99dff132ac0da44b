import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// Issue 7's fast paths give exactly the bytes and digests of the general ones: the unblocked plain
/// tar writer, the one-pass pack (media hashed while written, manifest rewritten in place), the
/// zero-copy archive scan, the deferred digests of a folder without a manifest, and the hashing
/// pipeline shared by streams.
@Suite struct StreamingPathTests {
    /// Sizes around the pipeline's 1 MiB chunk and the tar's 512-byte records.
    static let sizes = [0, 1, 511, 512, 513, HashPipeline.chunkSize - 1, HashPipeline.chunkSize,
                        HashPipeline.chunkSize + 1, 3 * HashPipeline.chunkSize + 517]

    static func content(_ size: Int, seed: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 131) &+ ($0 >> 9) &+ seed &* 7) }
    }

    static func sha(_ bytes: [UInt8]) throws -> String { try SHA256Hasher.hex(of: bytes) }

    /// Files named after their size, under `Stories/sN/` (an app Documents folder), with `export.json`.
    static func makeDocumentsFolder(_ dir: URL) throws -> [(path: String, bytes: [UInt8])] {
        let fm = FileManager.default
        var files: [(String, [UInt8])] = []
        for (i, size) in sizes.enumerated() {
            let path = "Stories/s\(i)/m\(size).jpeg"
            try fm.createDirectory(at: dir.appendingPathComponent("Stories/s\(i)"), withIntermediateDirectories: true)
            let bytes = content(size, seed: i)
            try Data(bytes).write(to: dir.appendingPathComponent(path))
            files.append((path, bytes))
        }
        try Data("[]\n".utf8).write(to: dir.appendingPathComponent("export.json"))
        return files
    }

    @Test func unblockedPlainTarEqualsLibarchiveBlocking() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var outputs: [[UInt8]] = []
        for blocks in [true, false] {
            let path = dir.appendingPathComponent("t\(blocks).tar").path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let writer = try ArchiveWriter(sink: FileDescriptorSink(descriptor: fd, name: path), name: path, format: .tar,
                                           compression: .none, blocksPlainTar: blocks)
            for (i, size) in Self.sizes.enumerated() {
                let name = i == 3 ? String(repeating: "long-name/", count: 20) + "x.bin" : "m\(i).bin"
                try writer.beginEntry(path: name, size: Int64(size), permissions: 0o644, modificationTime: 1_700_000_000)
                try Self.content(size, seed: i).withUnsafeBytes { try writer.write($0) }
            }
            try writer.close()
            close(fd)
            outputs.append(try Sample.bytes(path))
        }
        #expect(outputs[0].count % ArchiveWriter.blockSize == 0)
        #expect(outputs[0] == outputs[1])
    }

    @Test func onePassPackEqualsPackWithKnownDigests() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("Documents")
        let files = try Self.makeDocumentsFolder(folder)
        let log = DiagnosticLog()
        let reader = try BundleReader(path: folder.path, log: log)
        for file in files {
            let stored = try #require(reader.storedFile(of: file.path))
            #expect(stored.sha256 == nil)  // left for the writer
            #expect(stored.size == Int64(file.bytes.count))
        }
        for ending in ["tar", "tar.gz", "folder/"] {
            var outputs: [String] = []
            var manifests: [BundleManifest?] = []
            for knowsDigests in [false, true] {
                let path = dir.path + "/\(knowsDigests)-\(ending)"
                let writer = try BundleWriter(destination: .forPath(path), registry: TestArrayFormat.registry,
                                              options: Sample.options())
                for file in files {
                    let stored = try #require(reader.storedFile(of: file.path))
                    try writer.addMedia(path: "media/" + file.path, storedAt: stored.path, size: stored.size,
                                        sha256: knowsDigests ? try Self.sha(file.bytes) : stored.sha256)
                }
                try writer.finish()
                outputs.append(path)
                manifests.append(writer.manifest)
            }
            #expect(manifests[0] == manifests[1])
            let media = manifests[0]?.files.filter { $0.path.hasPrefix("data/media/") }
            #expect(media?.map(\.sha256) == (try files.map { try Self.sha($0.bytes) }))
            if ending.hasSuffix("/") {
                let read = try Sample.bytes(outputs[0] + "manifest.json")
                #expect(read == (try Sample.bytes(outputs[1] + "manifest.json")))
            } else {
                #expect(try Sample.bytes(outputs[0]) == (try Sample.bytes(outputs[1])))
            }
        }
        #expect(log.diagnostics.map(\.code) == [.assumption])
    }

    @Test func aFileThatChangedSizeIsNotPacked() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let media = dir.appendingPathComponent("m.jpeg")
        try Data(Self.content(1000, seed: 1)).write(to: media)
        for claimed in [999, 1001] {
            let path = dir.appendingPathComponent("out\(claimed).tar").path
            let writer = try BundleWriter(destination: .forPath(path), registry: TestArrayFormat.registry,
                                          options: Sample.options())
            try writer.addMedia(path: "media/m.jpeg", storedAt: media.path, size: Int64(claimed), sha256: nil)
            #expect(throws: FerryError.self) { try writer.finish() }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func zeroCopyScanGivesTheSameDigestsAsTheCopyingScan() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = Self.sizes.enumerated().map { ("media/m\($0.offset).bin", Self.content($0.element, seed: $0.offset)) }
        let plain = dir.appendingPathComponent("a.tar").path
        try Sample.writeTar(plain, files + [("other/x.bin", Self.content(2 * HashPipeline.chunkSize + 3, seed: 9))])
        let gzip = dir.appendingPathComponent("a.tar.gz")
        let fd = open(gzip.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let compressor = try CompressedFileSink(sink: FileDescriptorSink(descriptor: fd, name: gzip.path), compression: .gzip,
                                                name: gzip.path)
        try compressor.write(try Sample.bytes(plain))
        try compressor.finish()
        close(fd)
        var expected = try files.map { BundleMember(path: $0.0, size: Int64($0.1.count), sha256: try Self.sha($0.1)) }
        expected.append(BundleMember(path: "other/x.bin", size: Int64(2 * HashPipeline.chunkSize + 3),
                                     sha256: try Self.sha(Self.content(2 * HashPipeline.chunkSize + 3, seed: 9))))
        expected.sort { MemberPath.precedes($0.path, $1.path) }
        for path in [plain, gzip.path] {
            let reader = try BundleReader(path: path, log: DiagnosticLog())
            #expect(reader.files == expected)
            for (name, bytes) in files { #expect(try reader.open(name).readAll() == bytes) }
        }
    }

    @Test func folderDigestsAreComputedWhenAskedFor() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.makeDocumentsFolder(dir)
        let reader = try BundleReader(path: dir.path, log: DiagnosticLog())
        #expect(reader.mediaPaths == files.map(\.path).sorted { MemberPath.precedes($0, $1) })
        let expected = try files.map { BundleMember(path: $0.path, size: Int64($0.bytes.count), sha256: try Self.sha($0.bytes)) }
        #expect(reader.mediaFiles == expected.sorted { MemberPath.precedes($0.path, $1.path) })
        // Once computed, the stored files carry them.
        #expect(reader.storedFile(of: files[0].path)?.sha256 == (try Self.sha(files[0].bytes)))
    }

    @Test func aFolderWithAManifestIsHashedByTheScan() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("bundle").path + "/"
        try Sample.writeBundle(to: .forPath(folder))
        let reader = try BundleReader(path: folder, log: DiagnosticLog())
        #expect(reader.storedFile(of: "data/media/ProfileImages/p1.png")?.sha256 == (try Self.sha(Sample.png)))
    }

    @Test(arguments: [1, 3]) func pipelineDigestsInterleavedStreams(lanes: Int) throws {
        let pipeline = HashPipeline(chunks: 2, lanes: lanes)
        var started: [(PendingDigest, [UInt8])] = []
        for (i, size) in Self.sizes.enumerated() {
            let bytes = Self.content(size, seed: i)
            let source = MemorySource(bytes)
            var copied: [UInt8] = []
            let (count, digest) = try pipeline.copy(read: { try source.read(into: $0) }) { copied.append(contentsOf: $0) }
            #expect(count == Int64(size))
            #expect(copied == bytes)
            started.append((digest, bytes))
        }
        for (digest, bytes) in started { #expect(try digest.value() == (try Self.sha(bytes))) }
        let source = MemorySource(Self.content(100, seed: 0))
        #expect(throws: FerryError.self) { _ = try pipeline.copy(limit: 99, read: { try source.read(into: $0) }, write: nil) }
    }
}
