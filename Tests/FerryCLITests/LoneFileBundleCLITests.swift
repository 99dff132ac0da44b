import FerryTestSupport
import Foundation
import Testing

/// A lone pet-story V1 file (no media catalog) written as a bundle, as Docs/bundles.md says: the
/// bundle is written without a word, and `validate` then says `missing-media` for each story
/// media id (never exported with the file); the lone file migrated to V2 makes a bundle that
/// validates, with a `media-not-found` warning per id. The same for every format of the file.
@Suite struct LoneFileBundleCLITests {
    static let missing = [
        #"ps.tar:data/stories.json:10:9: error: /stories/0/mediaContentIds/0: no file for media "photo1" ("Stories/s1/photo1.*") (id "s1") [missing-media]"#,
        #"ps.tar:data/stories.json:11:9: error: /stories/0/mediaContentIds/1: no file for media "clip1" ("Stories/s1/clip1.*") (id "s1") [missing-media]"#,
    ]

    static let notExported = [
        #"v2.tar:data/stories.json:13:19: warning: /stories/0/media/0/path: media/0/path names "media/Stories/s1/photo1", which is not in the bundle (kind unknown: not exported) (id "s1") [media-not-found]"#,
        #"v2.tar:data/stories.json:18:19: warning: /stories/0/media/1/path: media/1/path names "media/Stories/s1/clip1", which is not in the bundle (kind unknown: not exported) (id "s1") [media-not-found]"#,
    ]

    @Test(arguments: ["json", "jsonl", "csv", "xml"])
    func aLoneFileMadeABundleLacksItsMedia(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1.json", to: "sample.json")
        let input = try box.input(try box.text("sample.json"), as: format)
        let convert = try box.ferry(["convert", input, "-o", "ps.tar", "--quiet"])
        #expect(convert.stderr == "", "\(format)")
        #expect(convert.status == 0)
        let validate = try box.ferry(["validate", "ps.tar", "--quiet"])
        #expect(validate.stderrLines == Self.missing, "\(format)")
        #expect(validate.status == 1)
        let migrate = try box.ferry(["migrate", input, "--to-version", "2", "-o", "v2.tar", "--quiet"])
        #expect(migrate.status == 0, "\(format)")
        let valid = try box.ferry(["validate", "v2.tar"])
        #expect(valid.stderrLines.filter { $0.contains(": warning: ") || $0.contains(": error: ") } == Self.notExported, "\(format)")
        #expect(valid.status == 0)
    }
}
