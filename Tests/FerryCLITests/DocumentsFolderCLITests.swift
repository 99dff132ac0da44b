import FerryTestSupport
import Foundation
import Testing

/// App Documents folders (SCHEMAS.md "Bundle", "media, relative to the dataset root (or its
/// `media/` folder)"): media at the root or under `media/`, other files beside the export named
/// and left out, `--domain` forcing the reading, and V1 validation finding the media the
/// migration would miss.
@Suite struct DocumentsFolderCLITests {
    /// Where the media folders lie.
    enum Layout: String, CaseIterable, Sendable {
        case root, media
    }

    static let mediaFolders = ["MemberImages", "ProfileImages", "Stories"]

    /// `docs/`: the sample Documents folder, its media folders moved under `media/` for `.media`,
    /// with `settings.json` beside the export when asked.
    static func documents(_ layout: Layout, settings: Bool = false) throws -> Sandbox {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "docs")
        if layout == .media {
            try FileManager.default.createDirectory(at: box.url.appendingPathComponent("docs/media"), withIntermediateDirectories: true)
            for folder in mediaFolders {
                try FileManager.default.moveItem(at: box.url.appendingPathComponent("docs/" + folder),
                                                 to: box.url.appendingPathComponent("docs/media/" + folder))
            }
        }
        if settings { try box.write("docs/settings.json", #"{"theme": "dark", "stories": "newest first"}"#) }
        return box
    }

    static let note = "docs: note: no manifest.json: read as the app's Documents folder; pet-story.json is the data and media paths are relative to the folder [assumption]"
    static let ignored = "docs: note: not part of the dataset, ignored: 'settings.json' [assumption]"
    static let summary = "docs: pet-story v1: profiles 1, members 2, stories 2 (5 records, 0 errors, 0 warnings); valid"
    static let media = ["media/MemberImages/m1.JPG", "media/MemberImages/m2.png", "media/ProfileImages/p1.jpeg",
                        "media/Stories/s1/clip1.MOV", "media/Stories/s1/photo1.jpg", "media/Stories/s2/bath1.png"]

    /// Validating reads the folder as one Documents dataset in every layout, with or without a
    /// second JSON file and `--domain`.
    @Test(arguments: Layout.allCases, Variant.all)
    func validatesAsADocumentsFolder(layout: Layout, variant: Variant) throws {
        let box = try Self.documents(layout, settings: variant.settings)
        let run = try box.ferry(["validate", "docs"] + (variant.domain ? ["--domain", "pet-story"] : []))
        #expect(run.status == 0)
        #expect(run.stderrLines == [Self.note] + (variant.settings ? [Self.ignored] : []) + [Self.summary])
    }

    /// Another domain's data beside the export (a notes backup named `notes.json`, which a
    /// collection and a domain's name would pick): the data file is the one naming the media.
    @Test(arguments: Layout.allCases)
    func theDataFileIsTheOneNamingTheMedia(layout: Layout) throws {
        let box = try Self.documents(layout)
        try box.copySample("notes-v1.json", to: "docs/notes.json")
        let run = try box.ferry(["validate", "docs"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [Self.note, "docs: note: not part of the dataset, ignored: 'notes.json' [assumption]", Self.summary])
    }

    /// With or without `settings.json` beside the export, and `--domain pet-story`.
    struct Variant: Sendable, CustomTestStringConvertible {
        var settings: Bool
        var domain: Bool
        var testDescription: String { "settings \(settings), --domain \(domain)" }
        static let all = [false, true].flatMap { settings in [false, true].map { Variant(settings: settings, domain: $0) } }
    }

    /// Migrating to a bundle keeps every photo, in both layouts: the V2 bundle is the same.
    @Test(arguments: Layout.allCases, [false, true])
    func migratingKeepsEveryMediaFile(layout: Layout, settings: Bool) throws {
        let box = try Self.documents(layout, settings: settings)
        let run = try box.ferry(["migrate", "docs", "--to-version", "2", "-o", "out/"])
        #expect(run.status == 0)
        #expect(!run.stderr.contains(": warning: "))
        #expect(try box.files(under: "out") == (["data/members.json", "data/profiles.json", "data/stories.json", "manifest.json"]
            + ["bag-info.txt", "bagit.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"] + Self.media.map { "data/" + $0 }).sorted())
        let reference = try Self.documents(.root)
        #expect(try reference.ferry(["migrate", "docs", "--to-version", "2", "-o", "out/", "-q"]).status == 0)
        for data in ["data/members.json", "data/profiles.json", "data/stories.json", "manifest.json"] {
            #expect(try box.text("out/" + data) == reference.text("out/" + data))
        }
    }

    /// `inspect` and `convert` read the same dataset as `validate`.
    @Test(arguments: Layout.allCases)
    func inspectAndConvertReadTheDocumentsFolder(layout: Layout) throws {
        let box = try Self.documents(layout, settings: true)
        let inspect = try box.ferry(["inspect", "docs"])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.hasPrefix("input:       docs\nformat:      app Documents folder\ndomain:      pet-story\nversion:     1\n"))
        let convert = try box.ferry(["convert", "docs", "-o", "pets.tar", "-q"])
        #expect(convert.status == 0)
        #expect(convert.stderr == "")
        let listed = try box.ferry(["inspect", "pets.tar"])
        #expect(listed.status == 0)
    }

    /// A V1 story naming a media file that is not there: validation reports what the migration
    /// reports, with the same diagnostic.
    @Test(arguments: Layout.allCases)
    func v1ValidationFindsAMissingMediaFile(layout: Layout) throws {
        let box = try Self.documents(layout)
        try box.remove((layout == .media ? "docs/media/" : "docs/") + "Stories/s1/clip1.MOV")
        let json = try box.text("docs/pet-story.json")
        let at = position(of: "\"clip1\"", in: json)
        let expected = "docs:pet-story.json:\(at): error: /stories/0/mediaContentIds/1: no file for media \"clip1\" (\"Stories/s1/clip1.*\") (id \"s1\") [missing-media]"
        let validate = try box.ferry(["validate", "docs"])
        #expect(validate.status == 1)
        #expect(validate.errors == [expected])
        let migrate = try box.ferry(["migrate", "docs", "--to-version", "2", "--dry-run"])
        #expect(migrate.status == 1)
        #expect(migrate.errors == [expected])
    }
}
