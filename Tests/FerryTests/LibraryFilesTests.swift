import Ferry
import FerryTestSupport
import Foundation
import Testing

/// The library reads and writes through the command line's converter with no file of its own in
/// between: what it reads keeps its place in the input, and a read writes (and so drops) nothing.
@Suite struct LibraryFilesTests {
    /// A backup whose records name photos and videos: the read keeps every record and reports
    /// only what reading found (nothing is written, so no media are left out), under every mode.
    @Test(arguments: [ProcessingMode.normal, .strict])
    func readingABackupWithMediaDropsNothing(mode: ProcessingMode) throws {
        var options = ProcessingOptions()
        options.mode = mode
        let input = Fixtures.sample("pet-story-v1-documents")
        let dataset = try Dataset.read(input, as: PetStorySchemaV1.self, options: options)
        #expect(dataset.models.map(DatasetTests.Cell.name) == ["profiles/p1", "members/m1", "members/m2", "stories/s1", "stories/s2"])
        #expect(dataset.diagnostics.map(\.description) == [
            "\(input.path): note: no manifest.json: read as the app's Documents folder; pet-story.json is the data and media paths are relative to the folder [assumption]",
        ])
    }

    /// A bundle's records read as plain records keep their member, line and column, and a bundle
    /// of CSV members gives text scalars as a CSV file does.
    @Test func recordsOfABundleKeepTheirMember() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("notes.tar")
        let run = try runFerry(["convert", Fixtures.sample("notes-v1.json").path, "--data-format", "csv", "-o", bundle.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let read = try Records.read(bundle)
        #expect(read.scalarsAreText)
        #expect(read.records.prefix(2).map { $0.location.description } == [
            "\(bundle.path):data/wineNotes.csv:2:1", "\(bundle.path):data/wineNotes.csv:3:1",
        ])
        #expect(read.records.map { $0.collection ?? "" } == ["wineNotes", "wineNotes", "wineNotes", "wineNotes", "coffeeNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"])
        #expect(read.diagnostics.map(\.description) == [])
    }

    /// A folder output names no format the records could keep: the write says so and writes nothing.
    @Test func aFolderOutputWithoutAFormatIsRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self)
        let output = folder.appendingPathComponent("out/")
        do {
            try notes.write(to: output)
            Issue.record("a folder output without a format was written")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "ferry: error: nothing names the output format: name it, or give the output an extension that does [unknown-format]",
            ])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
