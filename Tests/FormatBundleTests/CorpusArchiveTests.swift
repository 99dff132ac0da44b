import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// Every tar of the shared corpus is scanned without a crash and without writing outside the
/// spool; each gives exactly the (code, member) problems listed here.
@Suite struct CorpusArchiveTests {
    static let none = "missing-manifest -"

    /// suite/path -> every error and warning as "code member", in order.
    static let expected: [String: [String]] = [
        // google/safearchive
        "tar-google-safearchive/traverse.tar": ["unsafe-path /gopher.txt", "unsafe-path ../todo.txt", none],
        "tar-google-safearchive/traverse-via-links.tar": [
            "unsafe-path linktoroot", "unsafe-path linktoescape", "duplicate-member linktoescape",
            "unsafe-path linktoroot/root/.bashrc", none,
        ],
        "tar-google-safearchive/traverse-slash-at-the-end.tar": [
            "unsafe-path linktoroot", "unsafe-path linktoroot/root/.bashrc", none,
        ],
        "tar-google-safearchive/specialfiles.tar": ["unsafe-path fifo", "unsafe-path null", "unsafe-path sda", none],
        "tar-google-safearchive/specialmodes.tar": ["unsafe-path setuidstuff.txt", "unsafe-path setuidstuff2.txt", none],
        "tar-google-safearchive/case-insensitive.tar": ["unsafe-path tmp", none],
        "tar-google-safearchive/winshort.tar": [none],
        "tar-google-safearchive/xattr.tar": [none],
        // snyk zip-slip
        "tar-zip-slip/zip-slip.tar": ["unsafe-path " + String(repeating: "../", count: 40) + "tmp/evil.txt", none],
        "tar-zip-slip/zip-slip-win.tar": ["unsafe-path " + String(repeating: "..\\", count: 40) + "Temp\\evil.txt", none],
        // Go archive/tar (a cut or unreadable archive's missing manifest is no error of its own)
        "tar-go-archive-tar/testdata/writer-big.tar": ["truncated-archive tmp/16gig.txt"],
        "tar-go-archive-tar/testdata/writer-big-long.tar": [
            "truncated-archive " + String(repeating: "longname/", count: 15) + "16gig.txt",
        ],
        "tar-go-archive-tar/testdata/pax-path-hdr.tar": ["truncated-archive -"],
        "tar-go-archive-tar/testdata/hdr-only.tar": [
            "unsafe-path fifo", "unsafe-path null", "unsafe-path sda", "duplicate-member dir", "duplicate-member fifo",
            "duplicate-member file", "duplicate-member hardlink", "duplicate-member null", "duplicate-member sda",
            "duplicate-member symlink", "duplicate-member badlink", none,
        ],
        "tar-go-archive-tar/testdata/gnu-not-utf8.tar": ["invalid-encoding hi\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}bye", none],
        "tar-go-archive-tar/testdata/gnu-sparse-big.tar": ["too-large gnu-sparse", none],
        "tar-go-archive-tar/testdata/pax-sparse-big.tar": ["too-large pax-sparse", none],
        "tar-go-archive-tar/testdata/issue10968.tar": ["malformed-archive -"],
        "tar-go-archive-tar/testdata/issue11169.tar": ["malformed-archive -"],
        "tar-go-archive-tar/testdata/issue12435.tar": ["malformed-archive -"],
        "tar-go-archive-tar/testdata/neg-size.tar": ["malformed-archive -"],
        "tar-go-archive-tar/testdata/pax-bad-hdr-large.tar.bz2": ["malformed-archive -"],
        "tar-go-archive-tar/tar-split-asm-testdata/iso-8859.tar.gz": [
            "invalid-encoding data/file-with-german-umlaut-ae-\u{FFFD}", "missing-manifest -",
        ],
        // node-tar
        // A damaged header stands in no member: the archive (its message names the member before it).
        "tar-node-tar/tars/bad-cksum.tar": ["malformed-archive -"],
        "tar-node-tar/tars/path-missing.tar": ["unsafe-path ", none],
        "tar-node-tar/tars/links-invalid.tar": ["unsafe-path hardlink-2", none],
        "tar-node-tar/tars/excessively-deep.tar": ["too-large ./" + String(repeating: "a/", count: 99), none],
    ]

    /// Files accepted (NFC paths), for the name forms: GNU long names, pax paths, unicode.
    static let acceptedFiles: [String: [String]] = [
        "tar-go-archive-tar/testdata/gnu-utf8.tar": [String(repeating: "☺☻☹", count: 18)],
        "tar-go-archive-tar/testdata/ustar.tar": [String(repeating: "longname/", count: 15) + "file.txt"],
        "tar-node-tar/tars/utf8.tar": [
            "long-path/r/e/a/l/l/y/-/d/e/e/p/-/f/o/l/d/e/r/-/p/a/t/h/Ω.txt", "Ω.txt", "🌟.txt",
        ],
        "tar-node-tar/tars/long-pax.tar": ["120-byte-filename-" + String(repeating: "c", count: 102)],
        "tar-go-archive-tar/tar-split-asm-testdata/t.tar.gz": ["ermahgerd.txt", "hurr.txt"],
        "tar-go-archive-tar/testdata/sparse-formats.tar": [
            "end", "sparse-gnu", "sparse-posix-0.0", "sparse-posix-0.1", "sparse-posix-1.0",
        ],
    ]

    static let suites = ["tar-go-archive-tar", "tar-node-tar", "tar-google-safearchive", "tar-zip-slip"]

    /// Every archive file of the tar suites (relative `suite/path`).
    static func archives() -> [String] {
        var out: [String] = []
        for suite in suites {
            guard let dir = Fixtures.corpus(suite),
                  let walker = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let file as String in walker {
                let name = (file as NSString).lastPathComponent
                if name.hasSuffix(".tar") || name.hasSuffix(".gz") || name.hasSuffix(".bz2") || !name.contains(".")
                    && name.count == 64
                {
                    out.append(suite + "/" + file)
                }
            }
        }
        return out.sorted()
    }

    static func listing(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []).sorted()
    }

    @Test func everyArchiveScansSafely() throws {
        guard Fixtures.corpus("tar-google-safearchive") != nil else {
            print("skipped: corpus absent")
            return
        }
        let archives = Self.archives()
        let existedBefore = ["/tmp/evil.txt", "/gopher.txt", FileManager.default.temporaryDirectory.appendingPathComponent("todo.txt").path]
            .map { FileManager.default.fileExists(atPath: $0) }
        #expect(archives.count >= 70)
        let sandbox = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: sandbox) }
        for archive in archives {
            let source = try #require(Fixtures.corpus(String(archive.split(separator: "/")[0])))
                .deletingLastPathComponent().appendingPathComponent(archive)
            // Each archive is read from inside a sandbox folder, which must not change.
            let copy = sandbox.appendingPathComponent("in/" + source.lastPathComponent)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: source, to: copy)
            let before = Self.listing(sandbox)
            let log = DiagnosticLog()
            let reader = try BundleReader(path: copy.path, log: log)
            _ = try Sample.readAll(reader, log: log)
            #expect(Self.listing(sandbox) == before, "\(archive) wrote into the sandbox")
            let problems = Sample.problems(log)
            if let expected = Self.expected[archive] {
                #expect(problems == expected, "\(archive)")
            } else {
                #expect(problems == [Self.none], "\(archive)")
            }
            if let files = Self.acceptedFiles[archive] {
                #expect(reader.files.map(\.path) == files, "\(archive)")
            }
            for file in reader.files { #expect(file.path == MemberPath.nfc(file.path)) }
        }
        let outside = ["/tmp/evil.txt", "/gopher.txt", FileManager.default.temporaryDirectory.appendingPathComponent("todo.txt").path]
        #expect(outside.map { FileManager.default.fileExists(atPath: $0) } == existedBefore)
    }

    @Test func sizesAndHashesMatchTheBytes() throws {
        guard let dir = Fixtures.corpus("tar-go-archive-tar") else {
            print("skipped: corpus absent")
            return
        }
        let reader = try BundleReader(path: dir.appendingPathComponent("testdata/gnu.tar").path, log: DiagnosticLog())
        let small = try Sample.bytes(dir.appendingPathComponent("testdata/small.txt").path)
        let small2 = try Sample.bytes(dir.appendingPathComponent("testdata/small2.txt").path)
        #expect(reader.files == [
            BundleMember(path: "small.txt", size: 5, sha256: try SHA256Hasher.hex(of: small)),
            BundleMember(path: "small2.txt", size: 11, sha256: try SHA256Hasher.hex(of: small2)),
        ])
    }

    @Test func nfdAndNFCNamesAreOneMember() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("n.tar").path
        try Sample.writeTar(path, [("media/Cafe\u{301}.png", Sample.png), ("media/Caf\u{E9}.png", Sample.png)])
        let log = DiagnosticLog()
        let reader = try BundleReader(path: path, log: log)
        #expect(Array(reader.files.map(\.path)[0].utf8) == Array("media/Caf\u{E9}.png".utf8))
        #expect(Sample.problems(log) == ["duplicate-member media/Caf\u{E9}.png", "missing-manifest -"])
    }

    @Test func memberPathRules() {
        #expect(MemberPath.check("./data//x.json") == .safe("data/x.json"))
        #expect(MemberPath.check("./") == .root)
        #expect(MemberPath.check("a/../b") == .unsafe("the path has a '..' segment"))
        #expect(MemberPath.check("a\\..\\b") == .unsafe("the path has a '..' segment"))
        #expect(MemberPath.check("\\x") == .unsafe("the path is absolute"))
        #expect(MemberPath.check("C:x") == .unsafe("the path starts with a drive letter"))
        #expect(MemberPath.check(String(repeating: "a", count: 4097)) == .tooLong(4097))
        #expect(MemberPath.linkStaysInside(linkPath: "media/a/l", target: "../b.png", isHardLink: false))
        #expect(!MemberPath.linkStaysInside(linkPath: "media/l", target: "../../x", isHardLink: false))
        #expect(!MemberPath.linkStaysInside(linkPath: "l", target: "/", isHardLink: false))
        #expect(!MemberPath.linkStaysInside(linkPath: "a/b/l", target: "../x", isHardLink: true))
    }
}
