import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

@Suite struct ExternalStorageTests {
    @Test func base64ImageDataBecomesAMediaFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("out").path + "/"
        var options = BundleWriter.Options(
            header: DatasetHeader(domain: "notes", schemaVersion: 2), collections: ["wineTastingNotes"],
            createdAt: "2024-05-01T09:30:00.250Z", generator: "ferry-test",
            externalStorage: ["wineTastingNotes": ["imageData"]],
            mediaFolders: ["wineTastingNotes": "media/notes/wineTastingNotes"])
        options.writeOptions.pretty = true
        let writer = try BundleWriter(destination: .forPath(folder), registry: TestArrayFormat.registry, options: options)
        let base64 = Data(Sample.png).base64EncodedString()
        try writer.write(Sample.record("wineTastingNotes", ["id": "n1", "title": "Pinot", "imageData": .string(base64)]))
        try writer.write(Sample.record("wineTastingNotes", ["id": "a/b c", "title": "Gamay",
                                                            "imageData": .string(Data([1, 2, 3]).base64EncodedString())]))
        try writer.write(Sample.record("wineTastingNotes", ["id": "n3", "title": "Kept",
                                                            "imageData": "media/notes/wineTastingNotes/old.jpg"]))
        try writer.finish()
        #expect(try Sample.bytes(folder + "data/media/notes/wineTastingNotes/n1.png") == Sample.png)
        #expect(try Sample.bytes(folder + "data/media/notes/wineTastingNotes/a%2Fb%20c.bin") == [1, 2, 3])
        let data = String(decoding: try Sample.bytes(folder + "data/wineTastingNotes.json"), as: UTF8.self)
        #expect(data.contains("\"imageData\": \"media/notes/wineTastingNotes/n1.png\""))
        #expect(data.contains("\"imageData\": \"media/notes/wineTastingNotes/a%2Fb%20c.bin\""))
        #expect(data.contains("\"imageData\": \"media/notes/wineTastingNotes/old.jpg\""))
        #expect(writer.manifest?.files.map(\.path) == [
            "data/media/notes/wineTastingNotes/a%2Fb%20c.bin", "data/media/notes/wineTastingNotes/n1.png",
            "data/wineTastingNotes.json",
        ])
        // mtime is createdAt cut to whole seconds.
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "manifest.json")
        #expect((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_714_555_800)
    }

    @Test func signaturesAndEncoding() {
        #expect(MediaNaming.fileExtension(for: Sample.png) == "png")
        #expect(MediaNaming.fileExtension(for: Sample.jpeg) == "jpg")
        #expect(MediaNaming.fileExtension(for: Array("GIF89a..".utf8)) == "gif")
        #expect(MediaNaming.fileExtension(for: [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0]) == "heic")
        #expect(MediaNaming.fileExtension(for: [1, 2]) == "bin")
        #expect(MediaNaming.percentEncoded("..") == "%2E%2E")
        #expect(MediaNaming.percentEncoded("é/x") == "%C3%A9%2Fx")
        #expect(MediaNaming.percentEncoded("A-z_0.9~") == "A-z_0.9~")
    }

    @Test func unsafeMediaPathsAreRefused() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let writer = try BundleWriter(destination: .forPath(dir.appendingPathComponent("x.tar").path),
                                      registry: TestArrayFormat.registry, options: Sample.options())
        for path in ["../x.png", "/etc/x", "manifest.json", "data/x.json", "media\\..\\x"] {
            #expect(throws: FerryError.self) { try writer.addMedia(path: path, source: MemorySource(Sample.png)) }
        }
    }
}
