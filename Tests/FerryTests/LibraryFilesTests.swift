import Ferry
import FerryTestSupport
import Foundation
import Testing

/// The library reads and writes through the command line's converter with no file of its own in
/// between: what it reads keeps its place in the input, and a read writes (and so drops) nothing.
@Suite struct LibraryFilesTests {
    /// A backup whose records name photos and videos: the read keeps every record and says that
    /// the media files stay out of memory (a write would leave them out): a warning, an error
    /// under `.strict`, as a conversion to a plain data file says.
    @Test(arguments: [ProcessingMode.normal, .strict])
    func readingABackupWithMediaSaysTheFilesStayOut(mode: ProcessingMode) throws {
        var options = ProcessingOptions()
        options.mode = mode
        let input = Fixtures.sample("pet-story-v1-documents")
        let note = "\(input.path): note: no manifest.json: read as the app's Documents folder; pet-story.json is the data and media paths are relative to the folder [assumption]"
        let media = "\(input.path): \(mode == .strict ? "error" : "warning"): 6 media files (media/MemberImages/m1.JPG, media/MemberImages/m2.png, ...) "
            + "are not read into memory: the records keep their paths, and a write leaves the files out [lossy-drop]"
        do {
            let dataset = try Dataset.read(input, as: PetStorySchemaV1.self, options: options)
            #expect(mode == .normal)
            #expect(dataset.models.map(DatasetTests.Cell.name) == ["profiles/p1", "members/m1", "members/m2", "stories/s1", "stories/s2"])
            #expect(dataset.diagnostics.map(\.description) == [note, media])
        } catch {
            #expect(mode == .strict)
            #expect(error.diagnostics.map(\.description) == [note, media])
        }
    }

    /// A folder holding several datasets is not one: the read says so and reads none.
    @Test func aFolderOfDatasetsIsRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b"] {
            let sub = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.sample("notes-v1.json"), to: sub.appendingPathComponent("notes-v1.json"))
        }
        do {
            _ = try Dataset.read(folder, as: NotesSchemaV1.self)
            Issue.record("a folder of two datasets was read as one")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "\(folder.path): error: \"\(folder.path)\" holds 2 datasets (\"\(folder.path)/a/notes-v1.json\", \"\(folder.path)/b/notes-v1.json\"): read each on its own [usage]",
            ])
        }
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
        // Read as plain records, the notes' images stay files (a domain read puts them in `imageData`).
        #expect(read.diagnostics.map(\.description) == [
            "\(bundle.path): warning: 2 media files (media/notes/coffeeNotes/c-001.png, media/notes/wineNotes/w-001.png) "
                + "are not read into memory: the records keep their paths, and a write leaves the files out [lossy-drop]",
        ])
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
