import Ferry
import FerryTestSupport
import Foundation
import Testing

/// The library's facade against the command line: the same reading, migration, output bytes and
/// diagnostics, over the three domains and every output format.
@Suite struct DatasetTests {
    /// Each domain's V1 sample with its schemas (the cells shared by every domain).
    struct Cell: Sendable, CustomStringConvertible {
        var sample: String
        /// Reads the sample as V1 and migrates it to V2.
        var read: @Sendable (URL) throws -> any WritableDataset
        /// `collection/id` of each model, read whole and streamed.
        var readIDs: @Sendable (URL) throws -> [String]
        var streamIDs: @Sendable (URL) async throws -> [String]
        var description: String { sample }

        init<V1: VersionedSchema, V2: VersionedSchema>(_ sample: String, _ v1: V1.Type, _ v2: V2.Type) {
            self.sample = sample
            read = { try Dataset.read($0, as: V1.self).migrated(to: V2.self) }
            readIDs = { try Dataset.read($0, as: V1.self).models.map(Self.name) }
            streamIDs = { url in
                var names: [String] = []
                for try await model in Dataset.stream(url, as: V1.self) { names.append(Self.name(model)) }
                return names
            }
        }

        static func name(_ model: any CollectionModel) -> String {
            type(of: model).collection + "/" + (model.recordID ?? "")
        }
    }

    static let cells: [Cell] = [
        Cell("notes-v1.json", NotesSchemaV1.self, NotesSchemaV2.self),
        Cell("pet-story-v1.json", PetStorySchemaV1.self, PetStorySchemaV2.self),
        Cell("vocabulary-v1-node-firestore.json", VocabularySchemaV1.self, VocabularySchemaV2.self),
    ]

    static let formats = ["json", "jsonl", "csv", "xml", "tar"]

    /// Migrated in memory and written, every domain in every format: byte for byte what
    /// `ferry migrate --to-version 2` writes.
    @Test(arguments: cells, formats)
    func migrateAndWriteAsTheCommandLine(cell: Cell, format: String) throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.\(format)")
        let cli = folder.appendingPathComponent("cli.\(format)")
        try cell.read(Fixtures.sample(cell.sample)).write(to: library)
        let run = try runFerry(["migrate", Fixtures.sample(cell.sample).path, "--to-version", "2", "-o", cli.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: library) == Data(contentsOf: cli))
    }

    /// The issue's case: V1 notes read, migrated, the favourites kept with `#Predicate` over a
    /// capability protocol (every note type at once), written as CSV (golden; the same bytes as
    /// `ferry migrate --where 'isFavorite == true'`).
    @Test func favouriteNotesToCSV() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("favourites.csv")
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self)
        let favourites = try notes.migrated(to: NotesSchemaV2.self).filter(#Predicate<any Notable> { $0.isFavorite })
        try favourites.write(to: output)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(Golden.mismatch(text, golden: "favourite-notes.csv") == nil)
        let cli = folder.appendingPathComponent("cli.csv")
        let run = try runFerry([
            "convert", Fixtures.sample("notes-v1.json").path, "--to-version", "2", "--where", "isFavorite == true",
            "-o", cli.path, "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: cli, encoding: .utf8) == text)
    }

    /// A case-blind title search in `#Predicate` on Linux: `localizedLowercase` against a
    /// lower-case text (`localizedStandardContains` is refused by the macro there).
    @Test func caseBlindSearch() throws {
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self).migrated(to: NotesSchemaV2.self)
        let search = "pinot"
        let found = try notes.filter(#Predicate<any Notable> { $0.title.localizedLowercase.contains(search) && $0.isFavorite })
        #expect(found.models(NotesV2.WineTastingNote.self).map(\.title) == ["Pinot Noir Willamette 2019"])
        #expect(found.models.count == 1)  // every note is Notable: the others are not kept
    }

    /// A filter on one model type keeps the other collections whole.
    @Test func filterKeepsOtherTypes() throws {
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self)
        let strong = try notes.filter(#Predicate<NotesV1.WineNote> { $0.alcohol > 13 })
        #expect(strong.models(NotesV1.WineNote.self).map(\.alcohol) == [13.5])
        #expect(strong.models(NotesV1.CoffeeNote.self) == notes.models(NotesV1.CoffeeNote.self))
    }

    /// Invalid data: the error and every diagnostic, the lines `ferry validate` prints.
    @Test func invalidInputThrowsTheCommandLinesDiagnostics() throws {
        let input = Fixtures.sample("broken/notes-v2-invalid.json")
        let run = try runFerry(["validate", input.path])
        #expect(run.status == 1)
        let expected = run.stderr.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
        #expect(expected.count == 3)
        do {
            _ = try Dataset.read(input, as: NotesSchemaV2.self)
            Issue.record("read accepted invalid data")
        } catch {
            #expect(error.diagnostics.filter { $0.severity == .error }.map(\.description) == expected)
            #expect(error.diagnostic == error.diagnostics.first { $0.severity == .error })
            #expect(error.exitStatus == .invalidData)
        }
    }

    /// The wrong version is exit 4's error, as on the command line.
    @Test func wrongVersion() throws {
        #expect(throws: FerryError.self) { try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV2.self) }
    }

    /// Lossy steps of a migration are warnings on the migrated dataset, at the V1 field's pointer.
    @Test func migrationWarnings() throws {
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self)
        let v2 = try notes.migrated(to: NotesSchemaV2.self)
        #expect(v2.diagnostics.filter { $0.code == .lossyDrop }.map(\.description) == LibraryGoldens.notesLossy)
        var strict = ProcessingOptions()
        strict.mode = .strict
        #expect(throws: FerryError.self) { try notes.migrated(to: NotesSchemaV2.self, options: strict) }
    }

    /// The stream gives the models `read` gives, one at a time.
    @Test(arguments: cells) func streamMatchesRead(cell: Cell) async throws {
        let url = Fixtures.sample(cell.sample)
        let streamed = try await cell.streamIDs(url)
        #expect(streamed == (try cell.readIDs(url)))
        #expect(!streamed.isEmpty)
    }

    @Test func version() {
        #expect(Ferry.version == FerryVersion.current)
        #expect(Ferry.version.split(separator: ".").count == 3)
    }
}

/// A dataset of any schema, written (lets one parameterised test hold every domain).
protocol WritableDataset {
    @discardableResult
    func write(to url: URL, format: String?, registry: FormatRegistry) throws(FerryError) -> [Diagnostic]
}

extension WritableDataset {
    func write(to url: URL) throws { try write(to: url, format: nil, registry: Ferry.formats) }
}

extension Dataset: WritableDataset {}

enum LibraryGoldens {
    /// A dataset in memory has no file: the pointer and the id say where (the command line adds
    /// `Samples/notes-v1.json:126:15`).
    static let notesLossy = [
        #"ferry: warning: /coffeeNotes/1/look: look "thick crema, hazel" has no place in CoffeeTastingNote; dropped (id "c-002") [lossy-drop]"#,
    ]
}
