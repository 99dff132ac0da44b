import FerryTestSupport
import Foundation
import Testing

/// Small things a new user met: `-jN` as getopt takes it, a bundle folder named with a trailing
/// slash, `inspect` naming what a Documents folder holds besides its data.
@Suite struct ShortOptionValueTests {
    @Test func aShortOptionTakesItsValueInTheSameArgument() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        let attached = try box.ferry(["convert", "in.json", "--to", "jsonl", "-j2", "-o", "-"])
        let separate = try box.ferry(["convert", "in.json", "--to", "jsonl", "--jobs", "2", "-o", "-"])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout == separate.stdout)
        #expect(attached.stderr == separate.stderr)
        let bad = try box.ferry(["convert", "in.json", "-jx"])
        #expect(bad.stderrLines.first == "ferry convert: error: -j expects a whole number from 1 to 256, not 'x'")
        #expect(bad.status == 2)
        let unknown = try box.ferry(["convert", "in.json", "-x2"])
        #expect(unknown.stderrLines.first == "ferry convert: error: unknown option '-x2'; did you mean '-o'?")
        #expect(unknown.status == 2)
    }

    @Test(arguments: ["bundle/", "bundle//", "bundle"])
    func aBundleFolderIsNamedWithoutItsTrailingSlash(_ given: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json", to: "in.json")
        #expect(try box.ferry(["convert", "in.json", "--to", "tar", "-o", "bundle/"]).status == 0)
        let data = try box.text("bundle/data/wineNotes.json")
        let range = try #require(data.range(of: "\"rating\": 5,"))
        try box.write("bundle/data/wineNotes.json", data.replacingCharacters(in: range, with: "\"rating\": 5, \"x\": 1,"))
        let run = try box.ferry(["validate", given])
        #expect(run.errors.first == #"bundle:data/wineNotes.json:52:25: error: /wineNotes/1/x: unknown field "x" in WineNote (id "w-002") [unknown-field]"#)
        #expect(run.errors.allSatisfy { $0.hasPrefix("bundle:data/") }, "\(run.stderr)")
    }

    @Test func inspectNamesTheFilesADocumentsFolderIgnores() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        try box.write("docs/notes.json", "{}\n")
        let run = try box.ferry(["inspect", "docs"])
        #expect(run.status == 0)
        #expect(run.stderrLines == ["docs: note: not part of the dataset, ignored: 'notes.json' [assumption]"])
        #expect(run.stdout.hasPrefix("input:       docs\nformat:      app Documents folder\n"))
    }
}
