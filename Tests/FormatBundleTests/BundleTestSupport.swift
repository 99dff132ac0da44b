import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// Shared sample data and helpers for the bundle tests.
enum Sample {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 9, 8, 7]

    static func options(collections: [String] = ["profiles", "stories"]) -> BundleWriter.Options {
        BundleWriter.Options(
            header: DatasetHeader(domain: "pet-story", schemaVersion: 2), collections: collections,
            createdAt: "2024-05-01T09:30:00Z", generator: "ferry-test")
    }

    static func record(_ collection: String, _ value: Value) -> Record {
        Record(collection: collection, value: value, location: SourceLocation())
    }

    /// Two collections (records interleaved) and two media files.
    @discardableResult
    static func writeBundle(to destination: BundleWriter.Destination) throws -> BundleManifest? {
        let writer = try BundleWriter(destination: destination, registry: TestArrayFormat.registry, options: options())
        try writer.write(record("stories", ["id": "s1", "caption": "Walk", "media": ["media/Stories/s1/c1.jpeg"]]))
        try writer.write(record("profiles", ["id": "p1", "name": "Mochi", "image": "media/ProfileImages/p1.png"]))
        try writer.write(record("stories", ["id": "s2", "caption": "Café"]))
        try writer.addMedia(path: "media/Stories/s1/c1.jpeg", source: MemorySource(jpeg))
        try writer.addMedia(path: "media/ProfileImages/p1.png", source: MemorySource(png))
        try writer.finish()
        return writer.manifest
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Every member header of a tar, in archive order, with content.
    static func members(_ path: String) throws -> [(entry: ArchiveEntry, content: [UInt8])] {
        let reader = try ArchiveReader(path: path, mode: .tar)
        var result: [(ArchiveEntry, [UInt8])] = []
        while case .entry(let entry, _) = try reader.nextEntry() {
            result.append((entry, try ArchiveMemberSource(reader: reader).readAll()))
        }
        return result
    }

    /// Writes a plain tar with the given members (files, 0644, mtime 0), for hand-made archives.
    static func writeTar(_ path: String, _ members: [(String, [UInt8])]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let writer = try ArchiveWriter(
            sink: FileDescriptorSink(descriptor: fd, name: path), name: path, format: .tar, compression: .none)
        for (name, content) in members {
            try writer.beginEntry(path: name, size: Int64(content.count), permissions: 0o644, modificationTime: 0)
            try content.withUnsafeBytes { try writer.write($0) }
        }
        try writer.close()
    }

    /// (code, member) of every error and warning, in order.
    static func problems(_ log: DiagnosticLog) -> [String] {
        log.diagnostics.filter { $0.severity != .note }.map { "\($0.code) \($0.location.member ?? "-")" }
    }

    /// Every record of a bundle as (collection, id, member).
    static func readAll(_ reader: BundleReader, log: DiagnosticLog) throws -> [Record] {
        let records = try reader.makeRecordReader(registry: TestArrayFormat.registry, options: ReadOptions(), log: log)
        var out: [Record] = []
        while let record = try records.next() { out.append(record) }
        return out
    }

    /// Reads a bundle and writes it again: records through the content format, media as they are.
    static func copyBundle(from input: String, to destination: BundleWriter.Destination) throws {
        let log = DiagnosticLog()
        let reader = try BundleReader(path: input, log: log)
        let manifest = try #require(reader.manifest)
        var options = Sample.options(collections: manifest.collections.map(\.name))
        options.createdAt = manifest.createdAt
        options.generator = manifest.generator
        let writer = try BundleWriter(destination: destination, registry: TestArrayFormat.registry, options: options)
        var counts: [String: Int] = [:]
        for record in try Sample.readAll(reader, log: log) {
            try writer.write(record)
            counts[record.collection ?? "", default: 0] += 1
        }
        for media in reader.mediaFiles {
            try writer.addMedia(path: reader.datasetPath(of: media.path), source: try reader.open(media.path))
        }
        try writer.finish()
        reader.verify(referencedMedia: Set(reader.mediaFiles.map(\.path)), recordCounts: counts, log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
    }
}

extension ArchiveReader {
    /// Opens the file at `path`.
    convenience init(path: String, mode: Mode) throws {
        try self.init(source: try FileDescriptorSource(path: path), name: path, mode: mode)
    }
}

/// A read-only view of the current member's content, as a `ByteSource`.
final class ArchiveMemberSource: ByteSource {
    private let reader: ArchiveReader
    init(reader: ArchiveReader) { self.reader = reader }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try reader.readData(into: buffer) }
}
