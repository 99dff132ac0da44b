import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// The BagIt side of bundles (RFC 8493): tag file text, and reading bags other tools made of a
/// Ferry dataset, their fixity checked through every manifest they carry.
@Suite struct BagItTests {
    @Test func manifestPathsEncodeOnlyPercentCarriageReturnAndLineFeed() {
        #expect(BagIt.encodePath("data/a%2Fb c\r\nd.png") == "data/a%252Fb c%0D%0Ad.png")
        #expect(BagIt.encodePath("data/media/Café.jpeg") == "data/media/Café.jpeg")
        // %25, %0D and %0A in either case; every other sequence is kept as listed.
        #expect(BagIt.decodePath("data/a%252Fb%0d%0A%2F%zz%") == "data/a%2Fb\r\n%2F%zz%")
        #expect(BagIt.manifest([("data/a%b", "00"), ("data/c", "11")]) == Array("00  data/a%25b\n11  data/c\n".utf8))
    }

    @Test func sha512KnownVector() throws {
        let hasher = SHA256Hasher(algorithm: .sha512)
        hasher.update(Array("abc".utf8))
        #expect(try hasher.finalize() == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    /// MD5 and SHA-1, which older bags list (bagit-python wrote MD5 by default until 2017).
    @Test func weakDigestsKnownVectors() throws {
        for (algorithm, expected) in [(BagIt.Algorithm.md5, "900150983cd24fb0d6963f7d28e17f72"),
                                      (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d")] {
            let hasher = SHA256Hasher(algorithm: algorithm)
            hasher.update(Array("abc".utf8))
            #expect(try hasher.finalize() == expected)
        }
    }

    /// The error `body` throws, as its diagnostic line, or nil.
    private func thrown(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    @Test func malformedTagFilesNameTheLine() {
        let at = SourceLocation(file: "b", member: "manifest-sha256.txt")
        #expect(thrown {
            _ = try BagIt.parseManifest(Array((String(repeating: "a", count: 64) + "  data/x\r\nabc  data/y\n").utf8),
                                        algorithm: .sha256, at: at)
        } == "b:manifest-sha256.txt:2: error: 'abc' is not a sha256 digest (64 hexadecimal digits) [invalid-value]")
        #expect(thrown {
            _ = try BagIt.parseManifest(Array((String(repeating: "a", count: 64) + "\n").utf8), algorithm: .sha256, at: at)
        } == "b:manifest-sha256.txt:1: error: manifest line has no path [invalid-value]")
        let info = SourceLocation(file: "b", member: "bag-info.txt")
        #expect(thrown { _ = try BagIt.parseTags(Array("A: 1\nno colon\n".utf8), at: info) }
            == "b:bag-info.txt:2: error: tag line has no ':' [invalid-value]")
        #expect(thrown { _ = try BagIt.parseTags([0xEF, 0xBB, 0xBF] + Array("A: 1\n".utf8), at: info) }
            == "b:bag-info.txt: error: the tag file starts with a byte-order mark, which BagIt forbids [invalid-encoding]")
        let tags = try? BagIt.parseTags(Array("Contact-Name: Ada\n  Lovelace\nPayload-Oxum: 3.1\n".utf8), at: info)
        #expect(tags?.map { "\($0.label)=\($0.value)@\($0.line)" } == ["Contact-Name=Ada Lovelace@1", "Payload-Oxum=3.1@3"])
    }

    /// The manifests a bag carries: bagit-python's default since 2017 (SHA-256 and SHA-512), its
    /// default before (MD5), SHA-1, and all four.
    struct Manifests: Sendable, CustomTestStringConvertible {
        var algorithms: [BagIt.Algorithm]
        var testDescription: String { algorithms.map(\.rawValue).joined(separator: "+") }
        static let all = [[.sha256, .sha512], [.md5], [.sha1], BagIt.Algorithm.allCases].map(Manifests.init)
    }

    /// A version 1 bundle folder bagged whole by bagit-python (`bagit.py DIR`): its
    /// `data/manifest.json` is read with its paths below `data/`, and every manifest is checked
    /// (MD5 and SHA-1 ones with a note that they are weak); then a photo changed after bagging
    /// is named once, with what each manifest says.
    @Test(arguments: ["folder", "tar"], Manifests.all)
    func aVersionOneBundleBaggedWholeIsReadAndChecked(container: String, manifests: Manifests) throws {
        let algorithms = manifests.algorithms
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var payload: [(String, [UInt8])] = [
            ("data/profiles.json", Array(BundleRoundTripTests.profilesJSON.utf8)),
            ("data/stories.json", Array(BundleRoundTripTests.storiesJSON.utf8)),
            ("media/ProfileImages/p1.png", Sample.png), ("media/Stories/s1/c1.jpeg", Sample.jpeg),
        ]
        let manifest = BundleManifest(
            bundleVersion: 1, domain: "pet-story", schemaVersion: 2, createdAt: "2024-05-01T09:30:00Z", generator: "ferry 0.1.0",
            collections: [.init(name: "profiles", path: "data/profiles.json", format: "json", count: 1),
                          .init(name: "stories", path: "data/stories.json", format: "json", count: 2)],
            files: try payload.map { .init(path: $0.0, size: Int64($0.1.count), sha256: try SHA256Hasher.hex(of: $0.1)) })
        payload.insert(("manifest.json", manifest.encoded()), at: 0)
        payload.sort { MemberPath.precedes($0.0, $1.0) }
        func digest(_ bytes: [UInt8], _ algorithm: BagIt.Algorithm) throws -> String {
            let hasher = SHA256Hasher(algorithm: algorithm)
            hasher.update(bytes)
            return try hasher.finalize()
        }
        var members: [(String, [UInt8])] = payload.map { ("data/" + $0.0, $0.1) }
        var tags: [(String, [UInt8])] = [
            ("bagit.txt", Array("BagIt-Version: 0.97\nTag-File-Character-Encoding: UTF-8\n".utf8)),
            ("bag-info.txt", Array(("Bag-Software-Agent: bagit.py v1.9.0 <https://github.com/LibraryOfCongress/bagit-python>\n"
                + "Bagging-Date: 2026-12-02\nPayload-Oxum: \(payload.reduce(0) { $0 + $1.1.count }).\(payload.count)\n").utf8)),
        ]
        for algorithm in algorithms {
            tags.append(("manifest-\(algorithm.rawValue).txt",
                         Array(try members.map { "\(try digest($0.1, algorithm))  \($0.0)\n" }.joined().utf8)))
        }
        for algorithm in algorithms {
            let listed = try tags.filter { !$0.0.hasPrefix("tagmanifest") }.map { "\(try digest($0.1, algorithm)) \($0.0)\n" }
            tags.append(("tagmanifest-\(algorithm.rawValue).txt", Array(listed.joined().utf8)))
        }
        // A photo changed after bagging.
        let png = try #require(members.firstIndex { $0.0 == "data/media/ProfileImages/p1.png" })
        let good = members
        members[png].1[12] ^= 0x01
        for (name, content) in [("good", good), ("bad", members)] {
            let path: String
            if container == "folder" {
                path = dir.appendingPathComponent(name).path
                for (member, bytes) in content + tags {
                    let url = URL(fileURLWithPath: path + "/" + member)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(bytes).write(to: url)
                }
            } else {
                path = dir.appendingPathComponent(name + ".tar").path
                try Sample.writeTar(path, tags + content)
            }
            let log = DiagnosticLog()
            let reader = try BundleReader(path: path, log: log)
            #expect(reader.isBag)
            #expect(reader.manifest?.collections.map(\.path) == ["data/data/profiles.json", "data/data/stories.json"])
            #expect(reader.mediaPaths.map { reader.datasetPath(of: $0) } == ["media/ProfileImages/p1.png", "media/Stories/s1/c1.jpeg"])
            let records = try Sample.readAll(reader, log: log)
            #expect(records.map { "\($0.collection ?? "-") \($0.location)" } == [
                "profiles \(path):data/data/profiles.json:1", "stories \(path):data/data/stories.json:1",
                "stories \(path):data/data/stories.json:2",
            ])
            reader.verify(referencedMedia: Set(reader.mediaPaths), recordCounts: ["profiles": 1, "stories": 2], log: log)
            let weak = ["manifest", "tagmanifest"].flatMap { kind in
                algorithms.filter(\.isWeak).map { algorithm in
                    "\(path):\(kind)-\(algorithm.rawValue).txt: note: \(kind)-\(algorithm.rawValue).txt lists "
                        + "\(algorithm.displayName) digests, which detect accidental changes but not deliberate ones; checked all the same [assumption]"
                }
            }
            if name == "good" {
                #expect(log.diagnostics.map(\.description) == weak)
            } else {
                let changed = try #require(members.first { $0.0 == "data/media/ProfileImages/p1.png" }?.1)
                let says = try algorithms.map { algorithm in
                    "\(algorithm.displayName) is \(try digest(changed, algorithm)), manifest-\(algorithm.rawValue).txt says "
                        + (try digest(Sample.png, algorithm))
                }
                let mismatch = "\(path):data/media/ProfileImages/p1.png: error: " + says.joined(separator: "; ") + " [checksum-mismatch]"
                #expect(log.diagnostics.map(\.description) == weak + [mismatch])
            }
        }
    }

    /// bagit-python lists a name holding `%` as it is: the name is found either way.
    @Test func aPercentNameListedUnencodedIsFound() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "data/media/notes/w/a%2Fb.png"
        let sha = try SHA256Hasher.hex(of: Sample.png)
        let path = dir.appendingPathComponent("b.tar").path
        try Sample.writeTar(path, [
            ("bagit.txt", Array("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8)),
            ("manifest-sha256.txt", Array("\(sha)  \(name)\n".utf8)),
            (name, Sample.png),
        ])
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        reader.verify(referencedMedia: [name], recordCounts: [:], log: log)
        #expect(log.diagnostics.map(\.description) == [
            "\(path): note: a BagIt bag without manifest.json: each payload file outside media folders is read as the "
                + "collection its name says [assumption]",
        ])
    }
}
