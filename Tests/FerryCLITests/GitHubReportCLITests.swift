import FerryTestSupport
import Foundation
import Testing

/// GitHub annotations of bundle members.
@Suite struct GitHubReportCLITests {
    /// The sample Documents folder migrated to a V2 bundle folder `pets/`, then one member edited:
    /// a latitude that is not a number (a type error at a line of the member) whose bytes no
    /// longer match the bag's manifest (a checksum error about the member as a whole); and the same
    /// folder as a tar.
    private func editedBundle() throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "documents")
        #expect(try box.ferry(["migrate", "documents", "--to-version", "2", "-o", "pets/"]).status == 0)
        let stories = try box.text("pets/data/stories.json")
        #expect(stories.contains("\"latitude\": 35.6586"))
        try box.write("pets/data/stories.json", stories.replacingOccurrences(of: "\"latitude\": 35.6586", with: "\"latitude\": \"north\""))
        let tar = try #require(toolOnPath("tar"))
        let made = try runTool(tar, ["cf", "../pets.tar", "manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt",
                                       "tagmanifest-sha256.txt", "data"], in: box.url.appendingPathComponent("pets"))
        #expect(made.status == 0, "\(made.output)")
        return box
    }

    static let sums = "SHA-256 is 9a309d9c1c84a28dfa0ab2d0e7052e06afea62dbe8b1290cfa274180fb6754b8, manifest-sha256.txt says fb3cc591e7c42b85348f10269c37dd19ae40891f68bb182799ca8436c91d3db9"

    /// In a tar, a member's line is no line of the archive: the annotation is on the tar, with
    /// no line, and names the bundle and the member in its title and message.
    @Test func githubAnnotationsOfATarMemberNameTheBundleAndTheMember() throws {
        let box = try editedBundle()
        let run = try box.ferry(["validate", "pets.tar", "--report", "github"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            ::error file=pets.tar,title=type-error in pets.tar%3Adata/stories.json::pets.tar:data/stories.json:23:21: /stories/0/location/latitude: location/latitude: expected a number, found "north" (id "s1")
            ::error file=pets.tar,title=checksum-mismatch in pets.tar%3Adata/stories.json::pets.tar:data/stories.json: \(Self.sums)

            """)
    }

    /// In a bundle folder, the member is a file GitHub can show: the annotation is on it, at its
    /// line, and names the bundle and the member too.
    @Test func githubAnnotationsOfAFolderMemberPointAtTheMembersFile() throws {
        let box = try editedBundle()
        let run = try box.ferry(["validate", "pets", "--report", "github"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            ::error file=pets/data/stories.json,line=23,col=21,title=type-error in pets%3Adata/stories.json::pets:data/stories.json:23:21: /stories/0/location/latitude: location/latitude: expected a number, found "north" (id "s1")
            ::error file=pets/data/stories.json,title=checksum-mismatch in pets%3Adata/stories.json::pets:data/stories.json: \(Self.sums)

            """)
    }

    /// A plain file's annotations are unchanged: the file, its line and column, the code.
    @Test func githubAnnotationsOfAPlainFile() throws {
        let box = try Sandbox()
        try box.write("n.json", #"{"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [{"id": "w", "title": 5}]}"#)
        let run = try box.ferry(["validate", "n.json", "--report", "github"])
        // In line and column order: the missing fields at the record's start come first.
        #expect(run.stdout.hasPrefix("::error file=n.json,line=1,col=62,title=missing-field::/wineTastingNotes/0/category: category is missing (required in WineTastingNote) (id \"w\")\n"),
                "\(run.stdout)")
        #expect(run.stdout.contains("\n::error file=n.json,line=1,col=83,title=type-error::/wineTastingNotes/0/title: title: expected a string, found 5 (id \"w\")\n"),
                "\(run.stdout)")
    }
}
