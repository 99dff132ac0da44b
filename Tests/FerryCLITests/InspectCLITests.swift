import FerryTestSupport
import Foundation
import Testing

/// `inspect` on bundles, folders and tars that are not bundles.
@Suite struct InspectCLITests {
    static let petsText = """
        collections:
          profiles: 1
          members: 2
          stories: 2
        media:       6 files, 3402 bytes (photo 5, video 1, audio 0, unknown 0); 0 missing, 0 orphans
        records:     5
        problems:    0 errors, 0 warnings

        """

    /// `inspect` lists a bundle's media, in text and JSON, for a tar, a bundle folder and an app
    /// Documents folder alike.
    @Test func inspectListsMedia() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "documents")
        #expect(try box.ferry(["migrate", "documents", "--to-version", "2", "-o", "pets.tar"]).status == 0)
        #expect(try box.ferry(["migrate", "documents", "--to-version", "2", "-o", "pets/"]).status == 0)
        for (input, format, version) in [("pets.tar", "tar", 2), ("pets", "bundle folder", 2), ("documents", "app Documents folder", 1)] {
            let run = try box.ferry(["inspect", input])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == """
                input:       \(input)
                format:      \(format)
                domain:      pet-story
                version:     \(version)

                """ + Self.petsText, "\(input)")
        }
        let json = try box.ferry(["inspect", "pets.tar", "--json"])
        #expect(json.status == 0)
        #expect(json.stdout == """
            {
              "input": "pets.tar",
              "format": "tar",
              "schemaFree": false,
              "domain": "pet-story",
              "schemaVersion": 2,
              "collections": {
                "profiles": 1,
                "members": 2,
                "stories": 2
              },
              "media": {
                "files": 6,
                "bytes": 3402,
                "byKind": {"photo": 5, "video": 1, "audio": 0, "unknown": 0},
                "missing": 0,
                "orphans": 0
              },
              "records": 5,
              "recordsRead": 5,
              "errors": 0,
              "warnings": 0
            }

            """)
        let plain = try box.ferry(["inspect", "documents/pet-story.json", "--json"])
        #expect(plain.stdout.contains("\n  \"media\": null,\n"))
        #expect(!(try box.ferry(["inspect", "documents/pet-story.json"])).stdout.contains("media:"))
    }

    /// Missing files and orphans are counted (a V1 Documents folder: the migration's media check).
    @Test func inspectCountsMissingMediaAndOrphans() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "documents")
        try box.remove("documents/Stories/s1/clip1.MOV")
        try box.write("documents/Stories/s2/extra.mp3", "xx")
        let run = try box.ferry(["inspect", "documents"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(
            "\nmedia:       6 files, 1866 bytes (photo 5, video 0, audio 1, unknown 0); 1 missing, 1 orphan\n"), "\(run.stdout)")
    }

    /// A tar that is not a bundle has nothing to inspect: exit 3, the reason on standard error.
    @Test func inspectOfATarThatIsNotABundleExits3() throws {
        let box = try Sandbox()
        try box.write("junk/a.txt", "hello\n")
        try box.write("junk/b.json", "{\"a\": 1}\n")
        let tar = try #require(toolOnPath("tar"))
        #expect(try runTool(tar, ["cf", "../junk.tar", "a.txt", "b.json"], in: box.url.appendingPathComponent("junk")).status == 0)
        let run = try box.ferry(["inspect", "junk.tar"])
        #expect(run.status == 3)
        #expect(run.stdout == "")
        #expect(run.stderr == "junk.tar: error: no manifest.json: this is not a Ferry bundle [missing-manifest]\n")
    }
}
