import FerryTestSupport
import Foundation
import Testing

/// Zip bundles on the command line: for every domain, version and data format a zip holds the
/// tar's content byte for byte, reads back to the JSON it was made from, validates, migrates and
/// inspects as the tar does; written twice (in any time zone) it is the same bytes; it is found
/// by content on standard input and without an extension; hostile archives rebuilt as zip and
/// bombs are refused with the tar's diagnostics and exit codes.
@Suite struct ZipBundleCLITests {
    typealias Dataset = BundleDataFormatTests.Dataset

    @Test(arguments: BundleDataFormatTests.datasets, BundleDataFormatTests.dataFormats)
    func aZipHoldsTheTarsContent(dataset: Dataset, dataFormat: String) throws {
        let box = try Sandbox()
        try dataset.prepare(in: box)
        let input = try box.bytes("in.json")
        let cell = "\(dataset) \(dataFormat)"
        for output in ["b.tar", "b.zip"] {
            let write = try box.ferry(["convert", dataset.source, "--data-format", dataFormat, "-o", output, "--quiet"])
            #expect(write.status == 0, "\(cell) \(output): \(write.stderr)")
        }
        #expect(Array(try box.bytes("b.zip").prefix(4)) == [0x50, 0x4B, 0x03, 0x04], "\(cell)")
        // Unpacked, the two are the same files with the same bytes.
        #expect(try box.ferry(["convert", "b.tar", "-o", "t/", "--quiet"]).status == 0)
        #expect(try box.ferry(["convert", "b.zip", "-o", "z/", "--quiet"]).status == 0)
        let files = try box.files(under: "t")
        #expect(try box.files(under: "z") == files, "\(cell)")
        #expect(files.contains("manifest.json"))
        for file in files { #expect(try box.bytes("z/" + file) == (try box.bytes("t/" + file)), "\(cell) \(file)") }

        let validate = try box.ferry(["validate", "b.zip"])
        #expect(validate.status == 0, "\(cell): \(validate.stderr)")
        #expect(validate.errors == [], "\(cell)")
        let back = try box.ferry(["convert", "b.zip", "-o", "back.json", "--quiet"])
        #expect(back.status == 0, "\(cell): \(back.stderr)")
        #expect(try box.bytes("back.json") == input, "\(cell)")

        let tarInspect = try box.ferry(["inspect", "b.tar", "--json"])
        let zipInspect = try box.ferry(["inspect", "b.zip", "--json"])
        #expect(zipInspect.status == 0)
        #expect(zipInspect.stdout == tarInspect.stdout
            .replacingOccurrences(of: "\"b.tar\"", with: "\"b.zip\"")
            .replacingOccurrences(of: "\"format\": \"tar\"", with: "\"format\": \"zip\""), "\(cell)")

        if dataset.version == 1 {
            for (from, to) in [("b.tar", "m.tar"), ("b.zip", "m.zip")] {
                let migrate = try box.ferry(["migrate", from, "--to-version", "2", "-o", to, "--quiet"])
                #expect(migrate.status == 0, "\(cell) \(from): \(migrate.stderr)")
                #expect(try box.ferry(["convert", to, "-o", to + ".json", "--quiet"]).status == 0)
            }
            #expect(try box.bytes("m.zip.json") == (try box.bytes("m.tar.json")), "\(cell)")
        }
    }

    /// Two runs, in different time zones, give the same bytes; `SOURCE_DATE_EPOCH` is every
    /// member's time, in UTC, as python's `zipfile` reads the headers.
    @Test func aZipIsTheSameBytesEverywhere() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "a.zip", "--quiet"], environment: epoch.merging(["TZ": "America/New_York"]) { $1 }).status == 0)
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "b.zip", "--quiet"], environment: epoch.merging(["TZ": "Asia/Tokyo"]) { $1 }).status == 0)
        #expect(try box.bytes("a.zip") == (try box.bytes("b.zip")))
        guard ZipArchives.python != nil else {
            print("skipped: python3 absent")
            return
        }
        let listing = try ZipArchives.listing(box.url.appendingPathComponent("a.zip"))
        #expect(listing.map { String($0.split(separator: " ")[0]) } == [
            "manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
            "data/cocktailNotes.json", "data/coffeeNotes.json", "data/media/notes/coffeeNotes/c-001.png",
            "data/media/notes/wineNotes/w-001.png", "data/whiskeyNotes.json", "data/wineNotes.json",
        ])
        // 1700000000 is 2023-11-14T22:13:20Z; DOS times count in 2-second steps.
        #expect(Set(listing.map { String($0.split(separator: " ")[1]) }) == ["2023-11-14T22:13:20"])
        #expect(Set(listing.map { String($0.split(separator: " ")[4]) }) == ["100644"])
    }

    /// Found by its bytes: on standard input, without an extension, with `--from zip`; written
    /// by `--to zip` to any name, one zip per input in a folder.
    @Test func aZipIsFoundByContentAndNamedByFormat() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["convert", "notes-v1.json", "-o", "b.zip", "--quiet"]).status == 0)
        #expect(try box.ferry(["convert", "b.zip", "-o", "expected.json", "--quiet"]).status == 0)
        let expected = try box.bytes("expected.json")

        let stdin = try box.ferry(["convert", "-", "-o", "stdin.json", "--quiet"], stdinFile: "b.zip")
        #expect(stdin.status == 0, "\(stdin.stderr)")
        #expect(try box.bytes("stdin.json") == expected)
        let declared = try box.ferry(["convert", "-", "--from", "zip", "-o", "from.json", "--quiet"], stdinFile: "b.zip")
        #expect(declared.status == 0, "\(declared.stderr)")
        #expect(try box.bytes("from.json") == expected)
        let inspect = try box.ferry(["inspect", "-"], stdinFile: "b.zip")
        #expect(inspect.stdout.split(separator: "\n").prefix(2) == ["input:       -", "format:      zip"])

        try box.write("backup", bytes: try box.bytes("b.zip"))
        let sniffed = try box.ferry(["validate", "backup"])
        #expect(sniffed.status == 0, "\(sniffed.stderr)")

        #expect(try box.ferry(["convert", "notes-v1.json", "--to", "zip", "-o", "named", "--quiet"]).status == 0)
        #expect(try box.bytes("named") == (try box.bytes("b.zip")))
        try box.write("second.json", bytes: try box.bytes("notes-v1.json"))
        #expect(try box.ferry(["convert", "notes-v1.json", "second.json", "--to", "zip", "-o", "out/", "--quiet"]).status == 0)
        #expect(try box.list("out") == ["notes-v1.zip", "second.zip"])
        #expect(try box.bytes("out/notes-v1.zip") == (try box.bytes("b.zip")))

        let formats = try box.ferry(["formats"])
        #expect(formats.stdout.contains(
            "\nzip     .zip                  read/write bundle: manifest.json, data/<collection>.<format> and media/ in a zip archive\n"))
    }

    /// A folder of backups holding a zip validates it with the rest, each on its own.
    @Test func aFolderOfBackupsTakesItsZips() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "backups/notes.json")
        #expect(try box.ferry(["convert", "backups/notes.json", "-o", "backups/2024/notes.zip", "--quiet"]).status == 0)
        let run = try box.ferry(["validate", "backups/"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderrLines
        #expect(lines.contains { $0.hasPrefix("backups/2024/notes.zip: notes v1: ") && $0.hasSuffix("; valid") }, "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("backups/notes.json: notes v1: ") && $0.hasSuffix("; valid") }, "\(run.stderr)")
    }

    /// Tars of the shared hostile suites with nothing zip cannot hold (no hard links, fifos or
    /// backslashes), rebuilt as zip at test time: `validate` prints the tar's diagnostics, the
    /// file name aside, and exits as it does.
    @Test(arguments: [
        "tar-google-safearchive/traverse.tar", "tar-google-safearchive/traverse-via-links.tar",
        "tar-google-safearchive/specialmodes.tar", "tar-google-safearchive/case-insensitive.tar",
        "tar-zip-slip/zip-slip.tar",
    ])
    func aHostileZipIsRefusedAsTheTarIs(archive: String) throws {
        guard let corpus = Fixtures.corpus("tar-google-safearchive"), ZipArchives.python != nil else {
            print("skipped: corpus or python3 absent")
            return
        }
        let box = try Sandbox()
        let tar = corpus.deletingLastPathComponent().appendingPathComponent(archive)
        try box.write("x.tar", bytes: Array(try Data(contentsOf: tar)))
        let left = try ZipArchives.fromTar(tar, to: box.url.appendingPathComponent("x.zip"))
        #expect(left.hardLinks.isEmpty && left.fifos.isEmpty)
        let fromTar = try box.ferry(["validate", "x.tar"])
        let fromZip = try box.ferry(["validate", "x.zip"])
        #expect(fromZip.status == fromTar.status, "\(archive)")
        #expect(fromZip.status == 3, "\(archive)")
        #expect(fromZip.stderr == fromTar.stderr.replacingOccurrences(of: "x.tar", with: "x.zip"), "\(archive)")
        #expect(try box.list() == ["x.tar", "x.zip"])
    }

    @Test func aZipBombIsRefusedAtOnce() throws {
        guard ZipArchives.python != nil else {
            print("skipped: python3 absent")
            return
        }
        let box = try Sandbox()
        try ZipArchives.bomb(.zip, size: 1 << 30, to: box.url.appendingPathComponent("bomb.zip"))
        let size = try box.bytes("bomb.zip").count
        let run = try box.ferry(["validate", "bomb.zip"])
        #expect(run.status == 3)
        #expect(run.errors == [
            "bomb.zip:data/zeros.json: error: the members declare 1073741824 bytes from \(size) bytes of archive, more "
                + "than 250 times its size: a decompression bomb; not read further [too-large]",
            "bomb.zip: error: no manifest.json: this is not a Ferry bundle [missing-manifest]",
        ])
        let convert = try box.ferry(["convert", "bomb.zip", "-o", "out.json"])
        #expect(convert.status == 3)
        #expect(try box.list() == ["bomb.zip"])
    }

    /// A `.tar.gz` bomb found by content: as a file without an extension its compressed size
    /// bounds the headers (refused at once); on standard input, the compressed bytes read so far
    /// bound what comes out (refused past 256 MiB).
    @Test func aTarBombFoundByContentIsRefused() throws {
        guard ZipArchives.python != nil else {
            print("skipped: python3 absent")
            return
        }
        let box = try Sandbox()
        try ZipArchives.bomb(.tarGzip, size: 1 << 30, to: box.url.appendingPathComponent("backup"))
        let size = try box.bytes("backup").count
        let file = try box.ferry(["validate", "backup"])
        #expect(file.status == 3)
        #expect(file.errors.first == "backup:data/zeros.json: error: the members declare 1073741824 bytes from \(size) bytes "
            + "of archive, more than 250 times its size: a decompression bomb; not read further [too-large]")
        let stdin = try box.ferry(["validate", "-"], stdinFile: "backup")
        #expect(stdin.status == 3)
        let first = try #require(stdin.errors.first)
        #expect(first.hasPrefix("-:data/zeros.json: error: the members expand to "), "\(first)")
        #expect(first.hasSuffix(" bytes of archive, more than 250 times its size: a decompression bomb; not read further [too-large]"))
        #expect(try box.list() == ["backup"])
    }
}
