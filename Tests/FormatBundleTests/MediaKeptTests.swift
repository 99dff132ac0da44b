import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// An archive scanned without keeping its media (`BundleReader.Options.keepsMedia`) lists the same
/// members, sizes, digests and problems as one that keeps them, reads the same records, and asks
/// once, with the manifest's domain.
@Suite struct MediaKeptTests {
    /// The domains `keepsMedia` was asked with, in order.
    final class Asked: @unchecked Sendable {
        // One scan asks, on its own thread, before the reader is returned.
        var domains: [String?] = []
    }

    @Test(arguments: ["b.tar", "b.tar.gz", "b.zip"])
    func mediaHashedAndNotKeptGiveTheSameMembers(name: String) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        try Sample.writeBundle(to: .forPath(path))
        let asked = Asked()
        var options = BundleReader.Options()
        options.keepsMedia = { domain in
            asked.domains.append(domain)
            return false
        }
        let keptLog = DiagnosticLog(), hashedLog = DiagnosticLog()
        let kept = try BundleReader(path: path, log: keptLog)
        let hashed = try BundleReader(path: path, options: options, log: hashedLog)
        #expect(asked.domains == ["pet-story"])
        #expect(hashed.files == kept.files)
        #expect(hashed.files.count == 4, "\(hashed.files.map(\.path))")
        let media = kept.files.map(\.path).filter { kept.isMediaPath($0) }
        #expect(media.count == 2, "\(kept.files.map(\.path))")
        for member in media {
            #expect(kept.storedFile(of: member) != nil)
            #expect(try kept.open(member).readAll().count > 0)
            #expect(hashed.storedFile(of: member) == nil)
            #expect(throws: FerryError.self) { try hashed.open(member) }
        }
        #expect(try Sample.readAll(hashed, log: hashedLog).map(\.value) == Sample.readAll(kept, log: keptLog).map(\.value))
        #expect(Sample.problems(hashedLog) == Sample.problems(keptLog))
    }

    @Test func withoutAManifestBeforeTheMediaTheDomainIsNotKnown() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plain.tar").path
        try Sample.writeTar(path, [("media/a.jpeg", Sample.jpeg), ("media/b.png", Sample.png), ("data/stories.json", Array("[]".utf8))])
        let asked = Asked()
        var options = BundleReader.Options()
        options.keepsMedia = { domain in
            asked.domains.append(domain)
            return true
        }
        let reader = try BundleReader(path: path, options: options, log: DiagnosticLog())
        #expect(asked.domains == [nil])
        #expect(try reader.open("media/b.png").readAll() == Sample.png)
    }
}
