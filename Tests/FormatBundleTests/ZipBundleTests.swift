import FerryCore
import FerryTestSupport
import Foundation
import Testing
@testable import FormatBundle

/// Bundles in zip archives: written reproducibly, read through the same checks as tar, the
/// hostile tar suites of the shared corpus rebuilt as zip contained alike, bombs refused.
@Suite struct ZipBundleTests {
    /// Every member of a zip in archive order, with content.
    static func zipMembers(_ path: String) throws -> [(path: String, content: [UInt8])] {
        let reader = try ArchiveReader(zipFile: path, name: path)
        var result: [(String, [UInt8])] = []
        while case .entry(let entry, _) = try reader.nextEntry() {
            result.append((entry.displayPath, try ArchiveMemberSource(reader: reader).readAll()))
        }
        return result
    }

    @Test func aZipHoldsWhatTheTarHolds() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tar = dir.appendingPathComponent("b.tar").path
        let zip = dir.appendingPathComponent("b.zip").path
        #expect(BundleWriter.Destination.forPath(zip) == .zip(path: zip))
        #expect(BundleWriter.Destination.forPath(dir.appendingPathComponent("b").path, container: .zip)
            == .zip(path: dir.appendingPathComponent("b").path))
        try Sample.writeBundle(to: .forPath(tar))
        try Sample.writeBundle(to: .forPath(zip))
        #expect(Array(try Sample.bytes(zip).prefix(4)) == [0x50, 0x4B, 0x03, 0x04])
        let tarMembers = try Sample.members(tar).map { ($0.entry.path ?? "", $0.content) }
        let zipMembers = try Self.zipMembers(zip)
        #expect(zipMembers.map(\.path) == tarMembers.map(\.0))
        #expect(zipMembers.map(\.content) == tarMembers.map(\.1))

        let tarLog = DiagnosticLog()
        let zipLog = DiagnosticLog()
        let tarReader = try BundleReader(path: tar, log: tarLog)
        let zipReader = try BundleReader(path: zip, log: zipLog)
        #expect(zipReader.container == .zip)
        #expect(tarReader.container == .tar)
        #expect(zipReader.layout == .archive)
        #expect(zipReader.files == tarReader.files)
        #expect(zipReader.manifest == tarReader.manifest)
        let tarRecords = try Sample.readAll(tarReader, log: tarLog).map { "\($0.collection ?? "-") \($0.value)" }
        let zipRecords = try Sample.readAll(zipReader, log: zipLog).map { "\($0.collection ?? "-") \($0.value)" }
        #expect(zipRecords == tarRecords)
        #expect(zipLog.diagnostics.isEmpty, "\(zipLog.diagnostics)")
    }

    /// Same bytes each time; every header's DOS time is `createdAt` in UTC (libarchive would write
    /// local time), mode 0644, CRCs right as python's `zipfile` checks them.
    @Test func aZipIsWrittenTheSameTwice() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("1.zip")
        let second = dir.appendingPathComponent("2.zip")
        try Sample.writeBundle(to: .forPath(first.path))
        try Sample.writeBundle(to: .forPath(second.path))
        #expect(try Sample.bytes(first.path) == (try Sample.bytes(second.path)))
        guard ZipArchives.python != nil else {
            print("skipped: python3 absent")
            return
        }
        let headerSizes = try Self.zipMembers(first.path).prefix(5).map(\.content.count)
        let sizes = headerSizes + [Sample.png.count, Sample.jpeg.count, BundleRoundTripTests.profilesJSON.utf8.count,
                                   BundleRoundTripTests.storiesJSON.utf8.count]
        let names = ["manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
                     "data/media/ProfileImages/p1.png", "data/media/Stories/s1/c1.jpeg", "data/profiles.json", "data/stories.json"]
        let listing = try ZipArchives.listing(first)
        #expect(listing.map { $0.split(separator: " ")[0] } == names.map { Substring($0) })
        for (line, size) in zip(listing, sizes) {
            let fields = line.split(separator: " ")
            #expect(fields[1] == "2024-05-01T09:30:00", "\(line)")
            #expect(fields[2] == "\(size)", "\(line)")
            #expect(fields[4] == "100644", "\(line)")
        }
    }

    @Test func dosTimesAreUTC() {
        #expect(ZipTimestamps.dosTimeAndDate(epochSeconds: 1_714_555_800) == (0x4BC0, 0x58A1))
        #expect(ZipTimestamps.dosTimeAndDate(epochSeconds: 0) == (0, 0x21))
        #expect(ZipTimestamps.dosTimeAndDate(epochSeconds: 315_532_800) == (0, 0x21))
        #expect(ZipTimestamps.dosTimeAndDate(epochSeconds: 315_532_800 + 86_399) == (0xBF7D, 0x21))
    }

    /// zip to tar gives the tar written directly, and tar to zip the zip: same bytes.
    @Test func zipAndTarConvertIntoEachOther() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tar = dir.appendingPathComponent("a.tar").path
        let zip = dir.appendingPathComponent("a.zip").path
        try Sample.writeBundle(to: .forPath(tar))
        try Sample.writeBundle(to: .forPath(zip))
        let tarFromZip = dir.appendingPathComponent("b.tar").path
        let zipFromTar = dir.appendingPathComponent("b.zip").path
        try Sample.copyBundle(from: zip, to: .forPath(tarFromZip))
        try Sample.copyBundle(from: tar, to: .forPath(zipFromTar))
        #expect(try Sample.bytes(tarFromZip) == (try Sample.bytes(tar)))
        #expect(try Sample.bytes(zipFromTar) == (try Sample.bytes(zip)))
    }

    /// A zip arriving as a stream (standard input) is spooled, then read as the file is.
    @Test func aZipStreamIsReadAsTheFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("b.zip").path
        try Sample.writeBundle(to: .forPath(zip))
        let log = DiagnosticLog()
        let reader = try BundleReader(path: "-", source: MemorySource(try Sample.bytes(zip)), log: log)
        #expect(reader.container == .zip)
        #expect(reader.files == (try BundleReader(path: zip, log: DiagnosticLog()).files))
        #expect(try Sample.readAll(reader, log: log).count == 3)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
    }

    @Test func theTotalSizeLimitCountsEveryMember() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("b.zip").path
        try Sample.writeBundle(to: .forPath(zip))
        let log = DiagnosticLog()
        // Everything up to the PNG fits; the JPEG after it does not.
        let members = try Self.zipMembers(zip)
        let limit = Int64(members.prefix(6).reduce(0) { $0 + $1.content.count })
        _ = try BundleReader(path: zip, options: BundleReader.Options(maximumTotalSize: limit), log: log)
        #expect(log.diagnostics.map { "\($0.code) \($0.location.member ?? "-") \($0.message)" } == [
            "too-large data/media/Stories/s1/c1.jpeg the members declare more than \(limit) bytes in all, the limit; "
                + "this one and the rest are not read",
        ])
    }

    /// A member with a password is named and left unread; the others are read.
    @Test func anEncryptedMemberIsNotRead() throws {
        let tool = ["/usr/bin/zip", "/bin/zip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            print("skipped: zip absent")
            return
        }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("secret".utf8).write(to: dir.appendingPathComponent("a.txt"))
        try Data("plain".utf8).write(to: dir.appendingPathComponent("b.txt"))
        for (file, password) in [("a.txt", ["-P", "pw"]), ("b.txt", [])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.currentDirectoryURL = dir
            process.arguments = ["-q", "-X"] + password + ["e.zip", file]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let log = DiagnosticLog()
        let reader = try BundleReader(path: dir.appendingPathComponent("e.zip").path, log: log)
        #expect(log.diagnostics.filter { $0.severity == .error }.map { "\($0.code) \($0.location.member ?? "-") \($0.message)" } == [
            "unreadable-input a.txt member is encrypted; not read",
            "missing-manifest - no manifest.json: this is not a Ferry bundle",
        ])
        #expect(reader.files.map(\.path) == ["b.txt"])
    }

    // MARK: - Bombs

    /// A gigabyte of zeros in about a megabyte: refused at its header, before any of it is
    /// inflated, for a zip and a `.tar.gz` alike; a zip member understating its size is refused
    /// once it inflates past what it declared.
    @Test(arguments: [
        (ZipArchives.BombKind.zip, Int64(1) << 30, "the members declare 1073741824 bytes from"),
        (.tarGzip, Int64(1) << 30, "the members declare 1073741824 bytes from"),
        (.zipUnderstated, Int64(1) << 30, "the member inflates to more than the 1000 bytes its header declares"),
    ])
    func bombsAreRefusedQuickly(kind: ZipArchives.BombKind, size: Int64, message: String) throws {
        guard ZipArchives.python != nil else {
            print("skipped: python3 absent")
            return
        }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bomb = dir.appendingPathComponent(kind == .tarGzip ? "bomb.tar.gz" : "bomb.zip")
        try ZipArchives.bomb(kind, size: size, to: bomb)
        let archiveSize = try Sample.bytes(bomb.path).count
        let log = DiagnosticLog()
        let clock = ContinuousClock()
        let started = clock.now
        let reader = try BundleReader(path: bomb.path, log: log)
        let elapsed = clock.now - started
        print("\(kind.rawValue): \(size) bytes in \(archiveSize), refused in \(elapsed)")
        #expect(elapsed < .seconds(10))
        #expect(reader.files.isEmpty)
        let problems = log.diagnostics.filter { $0.severity == .error }
        #expect(problems.map { "\($0.code) \($0.location.member ?? "-")" } == ["too-large data/zeros.json", "missing-manifest -"])
        let text = try #require(problems.first?.message)
        if kind == .zipUnderstated {
            #expect(text == message + ": a decompression bomb; not read further")
        } else {
            #expect(text == message + " \(archiveSize) bytes of archive, more than 250 times its size: "
                + "a decompression bomb; not read further")
        }
    }

    // MARK: - The hostile tar suites, rebuilt as zip

    /// The tars rebuilt: every one `tarfile` reads among the safe-archive and zip-slip suites,
    /// and the node-tar and Go ones with devices, duplicates, empty and Unicode names.
    static let rebuilt = [
        "tar-google-safearchive/case-insensitive.tar", "tar-google-safearchive/specialfiles.tar",
        "tar-google-safearchive/specialmodes.tar", "tar-google-safearchive/traverse-slash-at-the-end.tar",
        "tar-google-safearchive/traverse-via-links.tar", "tar-google-safearchive/traverse.tar",
        "tar-google-safearchive/winshort.tar", "tar-google-safearchive/xattr.tar",
        "tar-zip-slip/zip-slip.tar", "tar-zip-slip/zip-slip-win.tar",
        "tar-go-archive-tar/testdata/hdr-only.tar", "tar-node-tar/tars/utf8.tar", "tar-node-tar/tars/long-pax.tar",
    ]

    /// Each rebuilt zip gives the tar's diagnostics (severity, code, member, message) and accepts
    /// the tar's files, but for what a zip cannot say: hard links (zip has none: left out, and the
    /// tar's diagnostics naming them are not expected), fifos (libarchive reads a zip fifo as an
    /// empty regular file: accepted, harmless, as no member is ever made into a file by its name)
    /// and backslashes (libarchive reads them as `/`: the `..` segments stay and are refused).
    /// Nothing is written outside the spool.
    @Test(arguments: rebuilt)
    func aRebuiltSuiteIsContainedAsTheTarIs(archive: String) throws {
        guard let corpus = Fixtures.corpus("tar-google-safearchive"), ZipArchives.python != nil else {
            print("skipped: corpus or python3 absent")
            return
        }
        let tar = corpus.deletingLastPathComponent().appendingPathComponent(archive)
        let sandbox = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: sandbox) }
        let zip = sandbox.appendingPathComponent("in/" + tar.deletingPathExtension().lastPathComponent + ".zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (hardLinks, fifos) = try ZipArchives.fromTar(tar, to: zip)
        let before = CorpusArchiveTests.listing(sandbox)
        let outside = ["/tmp/evil.txt", "/gopher.txt"].map { FileManager.default.fileExists(atPath: $0) }

        func scan(_ path: String) throws -> (problems: [String], files: [String]) {
            let log = DiagnosticLog()
            let reader = try BundleReader(path: path, log: log)
            _ = try Sample.readAll(reader, log: log)
            let problems = log.diagnostics.map { "\($0.severity) \($0.code) \($0.location.member ?? "-"): \($0.message)" }
            return (problems, reader.files.map(\.path))
        }
        let fromTar = try scan(tar.path)
        let fromZip = try scan(zip.path)
        let expected = fromTar.problems.filter { line in
            !hardLinks.contains { line.contains(" \($0): ") } && !fifos.contains { line.hasSuffix(" \($0): fifo member; not read") }
        }.map { $0.replacingOccurrences(of: "\\", with: "/") }
        #expect(fromZip.problems == expected, "\(archive)")
        #expect(fromZip.files == (fromTar.files + Set(fifos)).sorted { MemberPath.precedes($0, $1) }, "\(archive)")
        #expect(fromZip.problems.contains { $0.hasPrefix("error ") }, "\(archive)")
        #expect(CorpusArchiveTests.listing(sandbox) == before, "\(archive) wrote into the sandbox")
        #expect(["/tmp/evil.txt", "/gopher.txt"].map { FileManager.default.fileExists(atPath: $0) } == outside)
    }
}
