import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

@Suite struct CompressionTests {
    static let text = Array(String(repeating: "{\"id\": \"n1\", \"title\": \"Café\"}\n", count: 2000).utf8)

    private func compress(_ bytes: [UInt8], _ compression: Compression) throws -> [UInt8] {
        let memory = MemorySink()
        let sink = try CompressedFileSink(sink: memory, compression: compression, name: "x")
        for chunk in stride(from: 0, to: bytes.count, by: 1000) {
            try sink.write(Array(bytes[chunk..<min(chunk + 1000, bytes.count)]))
        }
        try sink.finish()
        return memory.bytes
    }

    @Test(arguments: [Compression.gzip, .zstd, .xz, .bzip2, .none])
    func roundTrip(compression: Compression) throws {
        let compressed = try compress(Self.text, compression)
        if compression != .none { #expect(compressed.count < Self.text.count / 10) }
        let back = try CompressedFileSource(source: MemorySource(compressed), name: "x").readAll()
        #expect(back == Self.text)
        #expect(try compress(Self.text, compression) == compressed)
    }

    /// Each stream ferry writes is recognised by its first bytes; plain text and a tar are not compressed.
    @Test(arguments: [Compression.gzip, .zstd, .xz, .bzip2, .none])
    func compressionIsRecognisedByContent(compression: Compression) throws {
        let compressed = try compress(Self.text, compression)
        #expect(Compression.forContent(compressed) == compression)
        #expect(Compression.forContent(compressed.prefix(3)) == (compression == .gzip ? .gzip : .none))
    }

    @Test func contentThatOnlyResemblesAMagicNumberIsNotCompressed() {
        #expect(Compression.forContent(Array("BZh".utf8)) == .none)
        #expect(Compression.forContent(Array("BZhx...".utf8)) == .none)
        #expect(Compression.forContent([0x1F]) == .none)
        #expect(Compression.forContent([UInt8]()) == .none)
        #expect(Compression.forPath("words.csv.bz2") == (.bzip2, "words.csv"))
    }

    @Test func gzipHeaderHasNoTimestampOrName() throws {
        let gz = try compress(Self.text, .gzip)
        #expect(Array(gz[0..<8]) == [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0])
    }

    @Test func truncatedGzipIsReported() throws {
        let gz = try compress(Self.text, .gzip)
        let error = try #require(throws: FerryError.self) {
            // libarchive may notice while opening (it reads ahead) or while reading.
            let source = try CompressedFileSource(source: MemorySource(Array(gz.prefix(gz.count / 2))), name: "x.json.gz")
            _ = try source.readAll()
        }
        #expect(error.diagnostic.code == .truncatedArchive)
        #expect(error.diagnostic.location.file == "x.json.gz")
    }

    @Test func pathsSplit() {
        #expect(Compression.forPath("notes.json.gz") == (.gzip, "notes.json"))
        #expect(Compression.forPath("b.TGZ") == (.gzip, "b.tar"))
        #expect(Compression.forPath("b.tar.zst") == (.zstd, "b.tar"))
        #expect(Compression.forPath("w.xml.xz") == (.xz, "w.xml"))
        #expect(Compression.forPath("w.csv") == (.none, "w.csv"))
        #expect(BundleFormat.descriptor.extensions == ["tar", "tar.gz", "tgz", "tar.zst", "tar.xz", "tar.bz2"])
        #expect(BundleFormat.descriptor.isContainer)
    }
}
