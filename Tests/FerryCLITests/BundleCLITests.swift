import FerryTestSupport
import Foundation
import Testing

/// Issue 5, "Done when": the pet-story Documents folder to a V2 tar and its validation, tampered
/// archives, tar -> folder -> tar, notes with inline images through a bundle, reproducible
/// `.tar.gz`, and single `.json.gz` files.
@Suite struct BundleCLITests {
    static let petsMembers = [
        "manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
        "data/media/MemberImages/m1.JPG", "data/media/MemberImages/m2.png", "data/media/ProfileImages/p1.jpeg",
        "data/media/Stories/s1/clip1.MOV", "data/media/Stories/s1/photo1.jpg", "data/media/Stories/s2/bath1.png",
        "data/members.json", "data/profiles.json", "data/stories.json",
    ]

    /// A sandbox with `pets.tar` converted from the sample Documents folder.
    private func petsTar() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        let run = try box.ferry(["convert", "docs", "--to-version", "2", "-o", "pets.tar"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "docs: note: no manifest.json: read as the app's Documents folder; pet-story.json is the data and media paths are relative to the folder [assumption]",
            "docs:pet-story.json:13:5: note: calendar days (birthDate, since) are taken in time zone UTC (--time-zone) [assumption]",
            "docs: pet-story v1 -> v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings) -> pets.tar",
        ])
        return box
    }

    @Test func documentsFolderToV2TarValidates() throws {
        let box = try petsTar()
        let validate = try box.ferry(["validate", "pets.tar"])
        #expect(validate.status == 0)
        #expect(validate.stderrLines == ["pets.tar: pet-story v2: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid"])

        let tar = TarEditor(bytes: try box.bytes("pets.tar"))
        #expect(tar.members.map(\.path) == Self.petsMembers)
        // Reproducible members: mtime = the manifest's createdAt (2024-06-01T12:00:00Z), uid/gid 0, mode 0644.
        for member in tar.members {
            #expect(tar.headerField(of: member.path, offset: 136, length: 12).flatMap { Int($0.trimmingCharacters(in: .whitespaces), radix: 8) } == 1_717_243_200)
            #expect(tar.headerField(of: member.path, offset: 108, length: 8).flatMap { Int($0.trimmingCharacters(in: .whitespaces), radix: 8) } == 0)
            #expect(tar.headerField(of: member.path, offset: 100, length: 8).flatMap { Int($0.trimmingCharacters(in: .whitespaces), radix: 8) } == 0o644)
        }
        expectGolden(String(decoding: tar.data(of: "manifest.json") ?? [], as: UTF8.self), "pets-manifest.json")
        // V2 stories: media kinds filled from the files found (jpg -> photo, MOV -> video, png -> photo).
        expectGolden(String(decoding: tar.data(of: "data/stories.json") ?? [], as: UTF8.self), "pets-stories-v2.json")
        #expect(tar.data(of: "data/media/Stories/s1/clip1.MOV") == Array(try Data(contentsOf: Fixtures.sample("pet-story-v1-documents/Stories/s1/clip1.MOV"))))
    }

    @Test func flippedPhotoByteIsAChecksumMismatch() throws {
        let box = try petsTar()
        var tar = TarEditor(bytes: try box.bytes("pets.tar"))
        // The bag's manifest is checked first; manifest.json lists the same digest.
        let manifest = String(decoding: tar.data(of: "manifest-sha256.txt") ?? [], as: UTF8.self)
        let line = try #require(manifest.split(separator: "\n").first { $0.hasSuffix("  data/media/Stories/s1/photo1.jpg") })
        let manifestHash = String(line.prefix(64))
        #expect(String(decoding: tar.data(of: "manifest.json") ?? [], as: UTF8.self).contains(manifestHash))
        let flipped = tar.flipByte(of: "data/media/Stories/s1/photo1.jpg", at: 100)
        #expect(flipped)
        try box.write("flipped.tar", bytes: tar.bytes)

        let run = try box.ferry(["validate", "flipped.tar"])
        #expect(run.status == 1)
        #expect(run.errors.count == 1)
        let error = run.errors.first ?? ""
        let prefix = "flipped.tar:data/media/Stories/s1/photo1.jpg: error: SHA-256 is "
        let suffix = ", manifest-sha256.txt says \(manifestHash) [checksum-mismatch]"
        #expect(error.hasPrefix(prefix) && error.hasSuffix(suffix), "\(error)")
        let actualHash = error.dropFirst(prefix.count).dropLast(suffix.count)
        #expect(actualHash.count == 64 && actualHash != manifestHash && actualHash.allSatisfy(\.isHexDigit))
        #expect(run.stderrLines.last == "flipped.tar: pet-story v2: profiles 1, members 2, stories 2 (5 records, 1 error, 0 warnings); invalid")
    }

    @Test func deletedVideoIsMissingMediaNamingTheStory() throws {
        let box = try petsTar()
        var tar = TarEditor(bytes: try box.bytes("pets.tar"))
        let removed = tar.remove("data/media/Stories/s1/clip1.MOV")
        #expect(removed)
        try box.write("novideo.tar", bytes: tar.bytes)
        let run = try box.ferry(["validate", "novideo.tar"])
        #expect(run.status == 1)
        #expect(run.errors == [
            #"novideo.tar:data/stories.json:18:19: error: /stories/0/media/1/path: media/1/path names "media/Stories/s1/clip1.MOV", which is not in the bundle (id "s1") [missing-media]"#,
            "novideo.tar:data/media/Stories/s1/clip1.MOV: error: listed in manifest-sha256.txt but not in the bag [missing-file]",
        ])
        // Line 18, column 19 of data/stories.json is the path value of the story's second media item.
        let stories = String(decoding: tar.data(of: "data/stories.json") ?? [], as: UTF8.self)
        #expect(position(of: "\"media/Stories/s1/clip1.MOV\"", in: stories) == "18:19")
    }

    @Test func tarToFolderToTarIsByteIdentical() throws {
        let box = try petsTar()
        let toFolder = try box.ferry(["convert", "pets.tar", "-o", "pets/"])
        #expect(toFolder.status == 0)
        #expect(try box.files(under: "pets") == Self.petsMembers.sorted())
        #expect(try box.ferry(["validate", "pets/"]).status == 0)
        let back = try box.ferry(["convert", "pets/", "-o", "pets2.tar"])
        #expect(back.status == 0)
        #expect(try box.bytes("pets2.tar") == (try box.bytes("pets.tar")))
    }

    @Test func notesWithInlineImagesThroughABundle() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "-o", "notes.tar"]).status == 0)
        let tar = TarEditor(bytes: try box.bytes("notes.tar"))
        #expect(tar.members.map(\.path) == [
            "manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt",
            "data/cocktailTastingNotes.json", "data/coffeeTastingNotes.json", "data/media/notes/coffeeTastingNotes/c-001.png",
            "data/media/notes/wineTastingNotes/w-001.png", "data/whiskeyTastingNotes.json", "data/wineTastingNotes.json",
        ])
        #expect(tar.data(of: "data/media/notes/wineTastingNotes/w-001.png")?.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try box.ferry(["convert", "notes.tar", "-o", "back.json"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))

        // V1 keeps its version through the bundle.
        #expect(try box.ferry(["convert", "notes-v1.json", "--to", "json", "-o", "v1.json"]).status == 0)
        #expect(try box.ferry(["convert", "v1.json", "-o", "v1.tar"]).status == 0)
        #expect(try box.ferry(["convert", "v1.tar", "-o", "v1-back.json"]).status == 0)
        #expect(try box.bytes("v1-back.json") == (try box.bytes("v1.json")))
    }

    /// Images of our own: a JPEG and a GIF signature, an id with `/`, space and `#`.
    @Test func generatedImagesGetTypedPercentEncodedMediaNames() throws {
        let box = try Sandbox()
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF-rest".utf8)).base64EncodedString()
        let gif = Data(Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00]).base64EncodedString()
        try box.write("gen.json", """
            {"domain": "notes", "schemaVersion": 2, "coffeeTastingNotes": [
             {"id": "roast/2024 #1", "title": "Sidamo", "category": "filter", "createdAt": "2024-02-02T10:00:00Z", "imageData": "\(jpeg)", "smells": [], "tastes": [], "think": "", "rating": 4, "isFavorite": false},
             {"id": "plain", "title": "Huila", "category": "filter", "createdAt": "2024-02-03T10:00:00Z", "imageData": "\(gif)", "smells": [], "tastes": [], "think": "", "rating": 3, "isFavorite": false},
             {"id": "noimg", "title": "Bourbon", "category": "filter", "createdAt": "2024-02-04T10:00:00Z", "smells": [], "tastes": [], "think": "", "rating": 3, "isFavorite": false}
            ]}
            """)
        #expect(try box.ferry(["convert", "gen.json", "-o", "canonical.json"]).status == 0)
        #expect(try box.ferry(["convert", "canonical.json", "-o", "gen.tar"]).status == 0)
        let tar = TarEditor(bytes: try box.bytes("gen.tar"))
        #expect(tar.members.map(\.path).filter { $0.hasPrefix("data/media/") } == [
            "data/media/notes/coffeeTastingNotes/plain.gif", "data/media/notes/coffeeTastingNotes/roast%2F2024%20%231.jpg",
        ])
        // The bag's manifest writes `%` as `%25` (RFC 8493 section 2.1.3); the record keeps the file's name.
        let listed = String(decoding: tar.data(of: "manifest-sha256.txt") ?? [], as: UTF8.self)
        #expect(listed.contains("  data/media/notes/coffeeTastingNotes/roast%252F2024%2520%25231.jpg\n"), "\(listed)")
        #expect(tar.data(of: "data/media/notes/coffeeTastingNotes/roast%2F2024%20%231.jpg").map { Data($0).base64EncodedString() } == jpeg)
        // Newest record instant, 2024-02-04T10:00:00Z, is every member's mtime.
        #expect(tar.headerField(of: "manifest.json", offset: 136, length: 12).flatMap { Int($0.trimmingCharacters(in: .whitespaces), radix: 8) } == 1_707_040_800)
        #expect(try box.ferry(["validate", "gen.tar"]).status == 0)
        #expect(try box.ferry(["convert", "gen.tar", "-o", "back.json"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("canonical.json")))
    }

    @Test func tarGzOutputIsReproducible() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "-o", "a.tar.gz"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "-o", "b.tgz"]).status == 0)
        let a = try box.bytes("a.tar.gz")
        #expect(a == (try box.bytes("b.tgz")))
        // gzip magic, deflate, and no timestamp in the header (bytes 4...7).
        #expect(Array(a.prefix(8)) == [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(try box.ferry(["validate", "a.tar.gz"]).status == 0)
        #expect(try box.ferry(["convert", "a.tar.gz", "-o", "back.json"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))
        // The same bundle under SOURCE_DATE_EPOCH differs only by its clock, and is itself reproducible.
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        #expect(try box.ferry(["convert", "v2.json", "-o", "c.tar.gz"], environment: epoch).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "-o", "d.tar.gz"], environment: epoch).status == 0)
        #expect(try box.bytes("c.tar.gz") == (try box.bytes("d.tar.gz")))
        #expect(try box.bytes("c.tar.gz") != a)
    }

    @Test func gzippedJSONInAndOut() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "-o", "v2.json.gz"]).status == 0)
        #expect(Array(try box.bytes("v2.json.gz").prefix(3)) == [0x1F, 0x8B, 0x08])
        let inspect = try box.ferry(["inspect", "v2.json.gz"])
        #expect(inspect.stdout.hasPrefix("input:       v2.json.gz\nformat:      json\ndomain:      notes\nversion:     2\n"))
        #expect(try box.ferry(["validate", "v2.json.gz"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json.gz", "-o", "back.json"]).status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))

        // Migration straight from a gzipped V1 file made by gzip(1), to gzipped JSON Lines.
        guard let gzip = toolOnPath("gzip") else {
            print("skipped: gzip absent")
            return
        }
        #expect(try runTool(gzip, ["-k", "-n", "notes-v1.json"], in: box.url).status == 0)
        #expect(try box.ferry(["migrate", "notes-v1.json.gz", "--to-version", "2", "-o", "v2.jsonl.gz"]).status == 0)
        #expect(try box.ferry(["convert", "v2.jsonl.gz", "--to", "json", "-o", "from-gz.json"]).status == 0)
        #expect(try box.bytes("from-gz.json") == (try box.bytes("v2.json")))
    }
}
