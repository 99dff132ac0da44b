import FerryCore
import FerryFormats
import FerrySchemas
import FerryTestSupport
import FerryTypedPath
import FormatBundle
import Foundation
import Testing

/// A bundle's data members offer their raw records to the typed lane as their own readers do
/// (JSON Lines lines, CSV rows, JSON document elements), for the collections whose records need
/// no media catalog (notes, vocabulary) and pet-story V2's records that name no media: every command
/// gives the bytes, diagnostics and status of the general path (the goldens under
/// `Fixtures/BundleTypedLaneCLITests`), with 1, 2 and 3 jobs, for each
/// domain at both versions, each data format and container, with duplicate ids, dangling
/// references and bad values put into the members, and notes' media (external storage) present.
@Suite struct BundleTypedLaneCLITests {
    enum Container: String, CaseIterable, Sendable {
        case tar, zip, folder
    }

    struct Cell: CustomTestStringConvertible, CustomStringConvertible, Sendable {
        var domain: String
        var version: Int
        var format: String
        var container: Container
        var description: String { "\(domain) v\(version) \(format) \(container.rawValue)" }
        var testDescription: String { description }
    }

    static let cells: [Cell] = ["notes", "pet-story", "vocabulary"].flatMap { domain in
        [1, 2].flatMap { version in
            ["jsonl", "json", "csv"].flatMap { format in
                Container.allCases.map { Cell(domain: domain, version: version, format: format, container: $0) }
            }
        }
    }

    /// Text replacements made in the data members whose file name starts with the collection
    /// ("" for every member), after the bundle was written from a dataset's valid records.
    static func edits(_ domain: String, version: Int) -> [(collection: String, from: String, to: String)] {
        switch domain {
        case "notes":
            return [("", "w-002", "w-001")]  // a duplicate id
        case "pet-story":
            // A member renamed (the stories tagging it dangle), a duplicate story id, a species
            // or type no version knows.
            return [("members", "m1", "mZ"), ("stories", "s14", "s7"), ("members", "cat", "dragon")]
        default:
            // A word book renamed (its words' books dangle), a duplicate word id, and at V2 a study
            // state no version knows.
            return [("wordBooks", "b1", "bZ"), ("words", "w10", "w5")] + (version == 2 ? [("words", "fail", "sometimes")] : [])
        }
    }

    /// Writes a dataset of `domain` at `version` into `box` and returns its name: the notes
    /// sample (migrated for V2), or `ReferencingRecordsCLITests`' pet-story or vocabulary records.
    static func writeSource(domain: String, version: Int, in box: Sandbox) throws -> String {
        switch domain {
        case "notes":
            try box.copySample("notes-v1.json")
            guard version == 2 else { return "notes-v1.json" }
            let migration = try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "--lenient", "-o", "notes-v2.jsonl", "--quiet"])
            try #require(migration.status == 0, "\(migration.stderr)")
            return "notes-v2.jsonl"
        case "pet-story":
            try box.write("in.jsonl", ReferencingRecordsCLITests.petStory(version: version).text)
        default:
            try box.write("in.jsonl", ReferencingRecordsCLITests.vocabulary(version: version).text)
        }
        return "in.jsonl"
    }

    /// Writes the cell's bundle (`b/` as a folder, then `b.tar` or `b.zip` of it) with the
    /// problems of `edits` in its members; returns its name.
    static func makeBundle(_ cell: Cell, in box: Sandbox) throws -> String {
        let source = try writeSource(domain: cell.domain, version: cell.version, in: box)
        // The valid records only: the problems come with the edits.
        let making = try box.ferry(["convert", source, "--data-format", cell.format, "--to", "tar", "-o", "b/", "--lenient", "--quiet"])
        // Exit 1: the records with problems are left out.
        try #require(making.status <= 1 && box.exists("b/manifest.json"), "\(making.stderr)")
        let members = try box.files(under: "b/data").filter { !$0.hasPrefix("media/") }
        for edit in edits(cell.domain, version: cell.version) {
            var edited = 0
            for member in members where member.hasPrefix(edit.collection) {
                let text = try box.text("b/data/\(member)")
                guard text.contains(edit.from) else { continue }
                try box.write("b/data/\(member)", text.replacingOccurrences(of: edit.from, with: edit.to))
                edited += 1
            }
            try #require(edited > 0, "\(cell): no member holds \(edit.from)")
        }
        if box.exists("b/bagit.txt") { try box.rebag("b") }
        guard cell.container != .folder else { return "b" }
        try box.pack("b", as: cell.container.rawValue)
        return "b.\(cell.container.rawValue)"
    }

    @Test(arguments: cells) func bundlesGiveTheGeneralPathsResults(_ cell: Cell) throws {
        if cell.container == .zip, toolOnPath("zip") == nil { return }
        let box = try Sandbox()
        let bundle = try Self.makeBundle(cell, in: box)
        // A tar and a zip give the same: one golden for both, the archive's name as b.ARCHIVE.
        let container = cell.container == .folder ? "folder" : "archive"
        let runs = GoldenRuns(box, golden: "BundleTypedLaneCLITests/\(cell.domain)-v\(cell.version)-\(cell.format)-\(container).txt",
                              replacing: [(bundle, cell.container == .folder ? bundle : "b.ARCHIVE")])
        let validation = try runs.run(["validate", bundle])
        #expect(validation.status == 1, "\(cell): \(validation.stderr)")
        #expect(validation.errors.contains { $0.contains("[duplicate-id]") }, "\(cell)")
        if cell.domain != "notes" {
            #expect(validation.errors.contains { $0.contains("[dangling-reference]") }, "\(cell)")
        }
        let converted = try runs.run(["convert", bundle, "--to", "jsonl", "--lenient", "-o", "OUT"])
        #expect(converted.status == 1, "\(cell): \(converted.stderr)")
        try runs.run(["convert", bundle, "--to", "jsonl", "-o", "OUT"])
        try runs.run(["convert", bundle, "--to", cell.format == "csv" ? "json" : "csv", "--lenient", "-o", "OUT/"])
        if cell.version == 1 {
            try runs.run(["migrate", bundle, "--to-version", "2", "--to", "jsonl", "--lenient", "-o", "OUT"])
        }
        runs.expectGolden()
    }

    /// Offers every batch of a bundle's `reader` to `lane`: the records it takes and those it
    /// leaves to the general path, each as "collection id", in order. A problem or failure the
    /// reader reports is an issue; a taken record must be located in a data member.
    static func offer(_ reader: any BatchRecordReader, to lane: TypedLane) throws -> (taken: [String], general: [String]) {
        var taken: [String] = []
        var general: [String] = []
        while let batch = try reader.nextBatch(limit: 128) {
            let taker = lane.batch()
            batch.parse(offering: taker)
            taker.finishTaking()
            for item in reader.items(from: batch) {
                switch item {
                case .taken(let item):
                    let (record, payload) = (item.record, item.payload)
                    #expect(record.location.member?.hasPrefix("data/") == true)
                    taken.append("\(record.collection ?? "-") \(taker.preparation(of: payload)?.id ?? "-")")
                case .record(let record):
                    general.append("\(record.collection ?? "-") \(record.value.objectValue?["id"]?.stringValue ?? "-")")
                case .problem(let diagnostic):
                    Issue.record("\(diagnostic)")
                case .failure(let error):
                    Issue.record("\(error)")
                }
            }
        }
        return (taken, general)
    }

    /// A pet-story V2 bundle, with media files or without: without, the lane takes the records
    /// that name no media file and the general path looks up those that do; with, every record
    /// goes the general path, which also counts a member's file found by its id. One story and one
    /// member name a file that the bundle with media holds, one of each a file that no bundle
    /// holds. Every command gives the general path's bytes, diagnostics and status (the goldens)
    /// with 1, 2 and 3 jobs, media copied to a bundle output included.
    @Test(arguments: ["jsonl", "json", "csv"].flatMap { format in Container.allCases.flatMap { c in [true, false].map { (format, c, $0) } } })
    func petStoryV2BundlesGiveTheGeneralPathsResults(_ format: String, _ container: Container, withMedia: Bool) throws {
        if container == .zip, toolOnPath("zip") == nil { return }
        let box = try Sandbox()
        let named = [
            #"{"$collection":"stories","id":"sm1","caption":"found","createdAt":"2024-01-01T08:00:00Z","media":[{"id":"a","kind":"photo","path":"media/Stories/sm1/a.jpg"}],"taggedMemberIds":[]}"#,
            #"{"$collection":"stories","id":"sm2","caption":"lost","createdAt":"2024-01-01T08:00:00Z","media":[{"id":"b","kind":"photo","path":"media/Stories/sm2/gone.jpg"}],"taggedMemberIds":[]}"#,
            #"{"$collection":"members","id":"mi","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z","image":{"path":"media/MemberImages/mi.png"}}"#,
            #"{"$collection":"members","id":"mj","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z","image":{"path":"media/MemberImages/mj.png"}}"#,
        ]
        try box.write("in.jsonl", ReferencingRecordsCLITests.petStory(version: 2).text + named.joined(separator: "\n") + "\n")
        // A lone file has no catalog: every record is written, the media files are added after.
        let making = try box.ferry(["convert", "in.jsonl", "--data-format", format, "--to", "tar", "-o", "b/", "--lenient", "--quiet"])
        try #require(making.status <= 1 && box.exists("b/manifest.json"), "\(making.stderr)")
        var files: [[String: Any]] = []
        // m2 names no image, but its file is found by its id.
        let media = [("data/media/MemberImages/m2.png", "png"), ("data/media/MemberImages/mi.png", "png bytes"),
                     ("data/media/Stories/sm1/a.jpg", "jpeg bytes")]
        for (path, bytes) in withMedia ? media : [] {
            try box.write("b/" + path, bytes)
            let sum = try runTool("/usr/bin/env", ["sha256sum", path], in: box.url.appendingPathComponent("b"))
            files.append(["path": path, "size": bytes.utf8.count, "sha256": String(sum.output.prefix(64))])
        }
        // Listed in the bundle's manifest as its writer lists media, then the bag made again.
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(box.bytes("b/manifest.json"))) as? [String: Any])
        let listed = (manifest["files"] as? [[String: Any]] ?? []) + files
        manifest["files"] = listed.sorted { ($0["path"] as? String ?? "") < ($1["path"] as? String ?? "") }
        try box.write("b/manifest.json", String(decoding: try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]), as: UTF8.self))
        try box.rebag("b")
        var bundle = "b"
        if container != .folder {
            let entries = try box.list("b")
            let tool = container == .tar ? ["tar", "-cf", "../b.tar"] : ["zip", "-q", "-r", "-X", "../b.zip"]
            let run = try runTool("/usr/bin/env", tool + entries, in: box.url.appendingPathComponent("b"))
            try #require(run.status == 0, "\(run.output)")
            bundle = "b.\(container.rawValue)"
        }
        // A tar and a zip give the same: one golden for both, the archive's name as b.ARCHIVE.
        let golden = "pet-story-v2-\(format)-\(container == .folder ? "folder" : "archive")-\(withMedia ? "with" : "without")-media.txt"
        let runs = GoldenRuns(box, golden: "BundleTypedLaneCLITests/" + golden,
                              replacing: [(bundle, container == .folder ? bundle : "b.ARCHIVE")])
        let validation = try runs.run(["validate", bundle])
        #expect(validation.status == 1, "\(validation.stderr)")
        let missing = validation.errors.filter { $0.contains("[missing-media]") }
        let expected = ["media/Stories/sm2/gone.jpg", "media/MemberImages/mj.png"]
            + (withMedia ? [] : ["media/Stories/sm1/a.jpg", "media/MemberImages/mi.png"])
        #expect(missing.count == expected.count, "\(missing)")
        for path in expected { #expect(missing.contains { $0.contains(path) }, "\(path)") }
        #expect(!validation.stderr.contains("unlisted"), "\(validation.stderr)")
        try runs.run(["convert", bundle, "--to", "jsonl", "--lenient", "-o", "OUT"])
        let copied = try runs.run(["convert", bundle, "--to", "tar", "--lenient", "-o", "OUT.bundle/"])
        #expect(copied.status == 1, "\(copied.stderr)")
        runs.expectGolden()
    }

    /// In a pet-story V2 bundle without media files (its catalog empty), the lane takes the records
    /// that name no media file; a story and a member that name one go the general way, which
    /// reports them `missing-media`.
    @Test func aPetStoryV2BundlesRecordsNamingNoMediaAreTakenByTheLane() throws {
        let box = try Sandbox()
        let named = [
            #"{"$collection":"stories","id":"sm2","caption":"lost","createdAt":"2024-01-01T08:00:00Z","media":[{"id":"b","kind":"photo","path":"media/Stories/sm2/gone.jpg"}],"taggedMemberIds":[]}"#,
            #"{"$collection":"members","id":"mj","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z","image":{"path":"media/MemberImages/mj.png"}}"#,
        ]
        try box.write("in.jsonl", ReferencingRecordsCLITests.petStory(version: 2).text + named.joined(separator: "\n") + "\n")
        let making = try box.ferry(["convert", "in.jsonl", "--data-format", "jsonl", "--to", "tar", "-o", "b.tar", "--lenient", "--quiet"])
        try #require(making.status <= 1, "\(making.stderr)")
        let log = DiagnosticLog()
        let bundle = try BundleReader(path: box.url.appendingPathComponent("b.tar").path, log: log)
        #expect(bundle.mediaPaths.isEmpty)
        let reader = try #require(
            try bundle.makeRecordReader(registry: .builtIn, options: ReadOptions(), log: log) as? any BatchRecordReader)
        var options = ProcessingOptions()
        options.media = ListedMediaCatalog(paths: [])
        let processor = try DatasetProcessor(domain: .petStory, sourceVersion: 2, targetVersion: 2, options: options, log: log)
        let lane = try #require(TypedLane(preparer: processor.preparer, output: .nothing))
        let (taken, general) = try Self.offer(reader, to: lane)
        // The bundle holds the records the lenient conversion kept (no duplicate, no dangling
        // reference, no unknown field): all taken but the two that name media.
        #expect(general == ["members mj", "stories sm2"])
        let stories = [0, 1, 2, 3, 7, 8, 9, 10, 14, 15, 16, 17, 21, 22, 24, 28, 29, 30, 35, 36, 37, 38].map { "stories s\($0)" }
        #expect(taken == ["profiles p1"] + ["m0", "m1", "m2", "m3", "m9"].map { "members \($0)" } + stories)
    }

    /// The records of a notes bundle's members are offered to the lane, with the media catalog
    /// set, and taken, but for those naming a media file (`imageData` with external storage),
    /// which go the general way to have their media put back.
    @Test(arguments: ["jsonl", "csv", "json"]) func aNotesBundlesRecordsAreTakenByTheLane(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        let making = try box.ferry(["convert", "notes-v1.json", "--data-format", format, "-o", "b.tar", "--quiet"])
        try #require(making.status == 0, "\(making.stderr)")
        let log = DiagnosticLog()
        let bundle = try BundleReader(path: box.url.appendingPathComponent("b.tar").path, log: log)
        let reader = try #require(
            try bundle.makeRecordReader(registry: .builtIn, options: ReadOptions(), log: log) as? any BatchRecordReader)
        #expect(reader.takesRawRecords)
        var options = ProcessingOptions()
        let media = bundle.mediaPaths.map { $0.hasPrefix("data/") ? String($0.dropFirst(5)) : $0 }
        #expect(media.count == 2, "\(media)")
        options.media = ListedMediaCatalog(paths: media)
        let processor = try DatasetProcessor(domain: .notes, sourceVersion: 1, targetVersion: 1, options: options, log: log)
        // Those naming media are declined anyway: a path is no base64 (`TypedLaneBundleTests`
        // covers `declinesMediaNames`).
        let lane = try #require(TypedLane(preparer: processor.preparer, output: .nothing))
        let (taken, general) = try Self.offer(reader, to: lane)
        #expect(log.diagnostics.filter { $0.severity != .note }.isEmpty, "\(log.diagnostics)")
        // A JSON document's first element of each collection is read with the envelope (`next()`).
        let first = format == "json" ? ["whiskeyNotes k-001", "cocktailNotes t-001"] : []
        #expect(general == ["wineNotes w-001", "coffeeNotes c-001"] + first)
        let rest = ["wineNotes w-002", "wineNotes -", "wineNotes w-004", "coffeeNotes c-002"]
        #expect(taken == rest + (format == "json" ? [] : ["whiskeyNotes k-001", "cocktailNotes t-001"]))
    }
}
