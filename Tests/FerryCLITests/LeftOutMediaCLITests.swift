import FerryTestSupport
import Foundation
import Testing

/// A bundle output carries a media file with the records that reference it: a file that only
/// records left out reference (a record with an error under `--lenient`, or one `--where` or the
/// selection leaves out) is not written, and a `media-left-out` note names it and the record, so
/// that the output validates without an orphan. A file no record of the input references was an
/// orphan already: it is carried over when the whole dataset is written. The same for every
/// input (an app Documents folder, a tar, a zip, a bundle folder), output (tar, zip, folder),
/// version path and number of jobs.
@Suite struct LeftOutMediaCLITests {
    enum Container: String, Sendable {
        case documents, tar, zip, folder
    }

    enum Output: String, CaseIterable, Sendable {
        case tar, zip, folder

        var arguments: [String] { self == .folder ? ["--to", "tar", "-o", "out/"] : ["-o", name] }
        /// The output as the summary and `validate` name it.
        var name: String { self == .folder ? "out" : "out.\(rawValue)" }
    }

    /// An input: its container, the version it holds and the version it is written at.
    struct Input: CustomTestStringConvertible, Sendable {
        var container: Container
        var version: Int
        var target: Int

        var testDescription: String { "\(container.rawValue) v\(version) -> v\(target)" }
        /// The input's name: the Documents folder `in`, else the bundle `b`, `b.tar` or `b.zip`.
        var name: String {
            switch container {
            case .documents: "in"
            case .folder: "b"
            case .tar, .zip: "b.\(container.rawValue)"
            }
        }
        /// The member path of a media file below the dataset's `media/` folder.
        func member(_ media: String) -> String { container == .documents ? media : "data/media/" + media }
        var command: [String] { version == target ? ["convert", name] : ["migrate", name, "--to-version", String(target)] }
        var versions: String { version == target ? "v\(version)" : "v\(version) -> v\(target)" }
    }

    /// Every input kind on every version path: V1 (a Documents folder or a bundle) kept at V1 or
    /// migrated to V2, and a V2 bundle converted to V2.
    static let inputs: [Input] = [1, 2].flatMap { target in
        [Container.documents, .tar, .zip, .folder].map { Input(container: $0, version: 1, target: target) }
    } + [Container.tar, .zip, .folder].map { Input(container: $0, version: 2, target: 2) }
    static let bundleInputs = inputs.filter { $0.container != .documents }

    /// The sample's media, below `media/`.
    static let media = ["MemberImages/m1.JPG", "MemberImages/m2.png", "ProfileImages/p1.jpeg", "Stories/s1/clip1.MOV",
                        "Stories/s1/photo1.jpg", "Stories/s2/bath1.png"]

    /// Story s2's `createdAt`, and the value that makes it invalid (as long, so the manifest's
    /// sizes hold; its digests are made again all the same).
    static let created = #""createdAt": "2024-02-02T14:30:00Z""#
    static let invalid = #""createdAt": "2024-13-02T14:30:00Z""#

    /// Writes `input` from the Documents-folder sample (at V2 a bundle ferry migrated it into),
    /// with `edit` applied to the text of its stories and the files `extra` (below `media/`)
    /// added; a bundle's manifest and bag are made to agree with the edits.
    static func makeInput(_ input: Input, in box: Sandbox, edit: (String) -> String, extra: [String] = []) throws {
        if input.container == .documents {
            try box.copySample("pet-story-v1-documents", to: "in")
            try box.write("in/pet-story.json", edit(try box.text("in/pet-story.json")))
            for file in extra { try box.write("in/" + file, "extra bytes") }
            return
        }
        try box.copySample("pet-story-v1-documents", to: "clean")
        let making = input.version == 1
            ? try box.ferry(["convert", "clean", "--to", "tar", "-o", "b/", "--quiet"])
            : try box.ferry(["migrate", "clean", "--to-version", "2", "--to", "tar", "-o", "b/", "--quiet"])
        try #require(making.status == 0, "\(making.stderr)")
        try box.write("b/data/stories.json", edit(try box.text("b/data/stories.json")))
        for file in extra { try box.write("b/data/media/" + file, "extra bytes") }
        // The manifest lists each payload file with its size and digest, as the writer lists them.
        let changed = ["data/stories.json"] + extra.map { "data/media/" + $0 }
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(box.bytes("b/manifest.json"))) as? [String: Any])
        var files = (manifest["files"] as? [[String: Any]] ?? []).filter { !changed.contains($0["path"] as? String ?? "") }
        for path in changed {
            let sum = try runTool("/usr/bin/env", ["sha256sum", path], in: box.url.appendingPathComponent("b"))
            files.append(["path": path, "size": try box.bytes("b/" + path).count, "sha256": String(sum.output.prefix(64))])
        }
        manifest["files"] = files.sorted { ($0["path"] as? String ?? "") < ($1["path"] as? String ?? "") }
        try box.write("b/manifest.json", String(decoding: try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]), as: UTF8.self))
        try box.rebag("b")
        switch input.container {
        case .tar: try box.pack("b", as: "tar")
        case .zip: try box.pack("b", as: "zip")
        case .documents, .folder: break
        }
    }

    /// The members of the output in their order (a folder's files sorted).
    static func listing(_ output: Output, in box: Sandbox) throws -> [String] {
        switch output {
        case .tar: TarEditor(bytes: try box.bytes("out.tar")).members.map(\.path)
        case .zip: try ZipArchives.listing(box.url.appendingPathComponent("out.zip")).map { String($0.split(separator: " ")[0]) }
        case .folder: try box.files(under: "out")
        }
    }

    /// The members of a pet-story bundle holding `media` (below `media/`), in the order of `listing`.
    static func expectedListing(_ media: [String], _ output: Output) -> [String] {
        let tags = ["manifest.json", "bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"]
        let payload = (media.map { "data/media/" + $0 } + ["data/members.json", "data/profiles.json", "data/stories.json"])
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return output == .folder ? (tags + payload).sorted() : tags + payload
    }

    static func note(_ input: Input, _ media: String, id: String, _ why: String) -> String {
        "\(input.name):\(input.member(media)): note: media file left out of the output \(why) (id \"\(id)\") [media-left-out]"
    }

    static var canRun: Bool { toolOnPath("zip") != nil && ZipArchives.python != nil }

    @Test(arguments: inputs, Output.allCases)
    func aFileOnlyARecordWithErrorsReferencesIsNotWritten(input: Input, output: Output) throws {
        guard Self.canRun else { return }
        let box = try Sandbox()
        try Self.makeInput(input, in: box, edit: { $0.replacingOccurrences(of: Self.created, with: Self.invalid) })
        for jobs in ["1", "2"] {
            try? box.remove(output.name)
            let run = try box.ferry(input.command + output.arguments + ["--lenient", "--jobs", jobs])
            #expect(run.status == 1, "\(jobs) jobs: \(run.stderr)")
            #expect(run.errors.count == 1 && run.errors.first?.hasSuffix(#"does not exist (id "s2") [invalid-value]"#) == true,
                    "\(jobs) jobs: \(run.stderr)")
            #expect(run.stderrLines.filter { $0.hasSuffix("[media-left-out]") } == [
                Self.note(input, "Stories/s2/bath1.png", id: "s2", "with the record referencing it, which --lenient leaves out"),
            ], "\(jobs) jobs")
            #expect(run.stderrLines.last == "\(input.name): pet-story \(input.versions): profiles 1, members 2, stories 1 "
                + "(4 of 5 records passed, 1 error, 0 warnings) -> \(output.name)", "\(jobs) jobs")
            #expect(try Self.listing(output, in: box) == Self.expectedListing(Array(Self.media.dropLast()), output), "\(jobs) jobs")
            let check = try box.ferry(["validate", output.name])
            #expect(check.status == 0, "\(jobs) jobs: \(check.stderr)")
            #expect(check.stderrLines == ["\(output.name): pet-story v\(input.target): profiles 1, members 2, stories 1 "
                + "(4 records, 0 errors, 0 warnings); valid"], "\(jobs) jobs")
        }
    }

    /// `--report json` carries the note with the file and the record.
    @Test func theReportCarriesTheNote() throws {
        let box = try Sandbox()
        let input = Input(container: .documents, version: 1, target: 2)
        try Self.makeInput(input, in: box, edit: { $0.replacingOccurrences(of: Self.created, with: Self.invalid) })
        let run = try box.ferry(input.command + ["-o", "out.tar", "--lenient", "--report", "json"])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnostics = ((report["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]]) ?? []
        let notes = diagnostics.filter { $0["code"] as? String == "media-left-out" }
        #expect(notes.count == 1)
        #expect(notes.first?["severity"] as? String == "note")
        #expect(notes.first?["message"] as? String == "media file left out of the output with the record referencing it, which --lenient leaves out")
        let location = notes.first?["location"] as? [String: String]
        #expect(location == ["file": "in", "member": "Stories/s2/bath1.png", "collection": "stories", "id": "s2"])
    }

    /// A file a written record references too is written (a V2 story left out names the photo of
    /// one written: V1 stories have folders of their own), and a file no record of the input
    /// references is carried over: `validate` warns about it in the output as in the input.
    @Test(arguments: inputs, Output.allCases)
    func sharedFilesAndTheInputsOrphansAreWritten(input: Input, output: Output) throws {
        guard Self.canRun else { return }
        let box = try Sandbox()
        let orphan = "Stories/s9/extra.png"
        try Self.makeInput(input, in: box, edit: { text in
            text.replacingOccurrences(of: Self.created, with: Self.invalid).replacingOccurrences(
                of: #""path": "media/Stories/s2/bath1.png""#,
                with: #""path": "media/Stories/s2/bath1.png"}, {"id": "photo1", "kind": "photo", "path": "media/Stories/s1/photo1.jpg""#)
        }, extra: [orphan])
        let before = try box.ferry(["validate", input.name])
        #expect(before.stderrLines.filter { $0.hasSuffix("[orphan-media]") } == [
            "\(input.name):\(input.member(orphan)): warning: no record references this media file [orphan-media]",
        ])
        for jobs in ["1", "2"] {
            try? box.remove(output.name)
            let run = try box.ferry(input.command + output.arguments + ["--lenient", "--jobs", jobs])
            #expect(run.status == 1, "\(jobs) jobs: \(run.stderr)")
            #expect(run.stderrLines.filter { $0.hasSuffix("[media-left-out]") } == [
                Self.note(input, "Stories/s2/bath1.png", id: "s2", "with the record referencing it, which --lenient leaves out"),
            ], "\(jobs) jobs")
            #expect(try Self.listing(output, in: box) == Self.expectedListing(Array(Self.media.dropLast()) + [orphan], output), "\(jobs) jobs")
            let check = try box.ferry(["validate", output.name])
            #expect(check.status == 0, "\(jobs) jobs: \(check.stderr)")
            #expect(check.stderrLines.filter { $0.contains(": warning: ") } == [
                "\(output.name):data/media/\(orphan): warning: no record references this media file [orphan-media]",
            ], "\(jobs) jobs")
        }
    }

    /// `--where` and the selection leave out the files of the records they leave out, each with
    /// the note, as `--lenient` does; picking records, they leave out the input's orphans too (a
    /// file no record references is picked by none).
    @Test(arguments: [
        (["--where", #"id != "s2""#], Array(media.dropLast()),
         [("Stories/s2/bath1.png", "s2", "with the record referencing it, which --where leaves out")]),
        (["--limit", "1"], ["MemberImages/m1.JPG", "ProfileImages/p1.jpeg", "Stories/s1/clip1.MOV", "Stories/s1/photo1.jpg"],
         [("MemberImages/m2.png", "m2", "with the record referencing it, which --skip, --limit or --sample leaves out"),
          ("Stories/s2/bath1.png", "s2", "with the record referencing it, which --skip, --limit or --sample leaves out")]),
        (["--select", "id,caption,createdAt"], ["MemberImages/m1.JPG", "MemberImages/m2.png", "ProfileImages/p1.jpeg"],
         ["Stories/s1/clip1.MOV", "Stories/s1/photo1.jpg", "Stories/s2/bath1.png"].map {
             ($0, String($0.dropFirst(8).prefix(2)), "as the record referencing it is written without the field naming it (--select)")
         }),
        (["--lenient", "--where", #"id != "s1""#], ["MemberImages/m1.JPG", "MemberImages/m2.png", "ProfileImages/p1.jpeg"],
         [("Stories/s1/clip1.MOV", "s1", "with the record referencing it, which --where leaves out"),
          ("Stories/s1/photo1.jpg", "s1", "with the record referencing it, which --where leaves out"),
          ("Stories/s2/bath1.png", "s2", "with the record referencing it, which --lenient leaves out")]),
    ] as [([String], [String], [(String, String, String)])])
    func selectionsLeaveOutTheFilesOfTheRecordsTheyLeaveOut(options: [String], written: [String], leftOut: [(String, String, String)]) throws {
        let box = try Sandbox()
        let input = Input(container: .documents, version: 1, target: 2)
        let lenient = options.contains("--lenient")
        try Self.makeInput(input, in: box, edit: { lenient ? $0.replacingOccurrences(of: Self.created, with: Self.invalid) : $0 },
                           extra: ["Stories/s9/extra.png"])
        for jobs in ["1", "2"] {
            try? box.remove("out.tar")
            let run = try box.ferry(input.command + ["-o", "out.tar", "--jobs", jobs] + options)
            #expect(run.status == (lenient ? 1 : 0), "\(jobs) jobs: \(run.stderr)")
            #expect(run.stderrLines.filter { $0.hasSuffix("[media-left-out]") } == leftOut.map { Self.note(input, $0.0, id: $0.1, $0.2) },
                    "\(options) \(jobs) jobs")
            #expect(try Self.listing(.tar, in: box) == Self.expectedListing(written, .tar), "\(options) \(jobs) jobs")
            let check = try box.ferry(["validate", "out.tar"])
            #expect(!check.stderr.contains("[orphan-media]"), "\(options) \(jobs) jobs: \(check.stderr)")
        }
    }
}
