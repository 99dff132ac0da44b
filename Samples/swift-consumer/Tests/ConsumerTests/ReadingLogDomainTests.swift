import Ferry
import Foundation
import ReadingLog
import Testing

/// The reading log registered as a domain of its own (`ReadingLogDomain`): the pipeline,
/// detection, validation, migration through its `SchemaMigrationPlan`, every format and bundle,
/// `#Predicate` filters and its JSON Schema and XSD, as Ferry's built-in domains have them.
@Suite struct ReadingLogDomainTests {
    static let root = ReadingLogTests.root
    static let fixtures = root.appendingPathComponent("Tests/ConsumerTests/Fixtures")

    init() throws { try ReadingLogDomain.register() }

    /// The expected bytes of Fixtures/`name`. With `RECORD_FIXTURES=1` in the environment the
    /// file is written from `actual` instead (then read the diff before committing it).
    static func fixture(_ name: String, recording actual: Data) throws -> Data {
        let url = fixtures.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_FIXTURES"] == "1" { try actual.write(to: url) }
        return try Data(contentsOf: url)
    }

    /// The V1 sample, read as the registered domain.
    static func readV1() throws -> Dataset<ReadingLogSchemaV1> {
        try Dataset.read(ReadingLogTests.sample, as: ReadingLogSchemaV1.self)
    }

    /// Registered once, known by name and listed after the built-in domains; a second
    /// definition under the name is refused.
    @Test func registration() throws {
        #expect(Domain(rawValue: "reading-log") == .readingLog)
        #expect(Ferry.domains.map(\.rawValue).prefix(4) == ["notes", "pet-story", "vocabulary", "reading-log"])
        try ReadingLogDomain.register()
        enum Impostor: DomainDefinition {
            static let name = "reading-log"
            static var migrationPlan: any SchemaMigrationPlan.Type { ReadingLogMigrationPlan.self }
        }
        #expect(throws: FerryError.self) { try Ferry.register(Impostor.self) }
        do {
            try Ferry.register(Impostor.self)
        } catch {
            #expect(error.diagnostic.description == #"ferry: error: domain "reading-log" is already registered (by ReadingLogDomain) [usage]"#)
        }
    }

    /// V1 -> V2 through the plan's stage: the rounding warning at the V1 field, the dataset as JSON
    /// Lines with its domain header.
    @Test func migratesThroughThePlan() throws {
        let v2 = try Self.readV1().migrated(to: ReadingLogSchemaV2.self)
        // The dataset holds models, not their places in the input: the pointer and id position it.
        #expect(v2.diagnostics.map(\.description) == [
            #"ferry: warning: /books/2/rating: rating 4.2 rounded to 4 (V2 rates in half stars) (id "b3") [lossy-change]"#,
        ])
        let entries = v2.models(ReadingLogV2.Entry.self)
        #expect(entries.map(\.authorFamily) == ["Le Guin", "Eliot", "Mann", "Anonymous"])
        let folder = try ReadingLogTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("v2.jsonl")
        try v2.write(to: output)
        let written = try Data(contentsOf: output)
        #expect(written == (try Self.fixture("reading-log-v2.dataset.jsonl", recording: written)))
    }

    /// V2 to CSV, XML and a tar bundle, and back to the same JSON Lines bytes.
    @Test(arguments: ["csv", "xml", "tar"]) func roundTrip(format: String) throws {
        let v2 = try Self.readV1().migrated(to: ReadingLogSchemaV2.self)
        let folder = try ReadingLogTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let converted = folder.appendingPathComponent("books.\(format)")
        try v2.write(to: converted)
        let back = try Dataset.read(converted, as: ReadingLogSchemaV2.self)
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)")
        let again = folder.appendingPathComponent("again.jsonl")
        try back.write(to: again)
        let expected = try Data(contentsOf: Self.fixtures.appendingPathComponent("reading-log-v2.dataset.jsonl"))
        #expect(try Data(contentsOf: again) == expected)
    }

    /// A broken V1 input read as the registered domain: every problem positioned (line, column,
    /// pointer, record id), with the code.
    @Test func brokenInput() throws {
        let folder = try ReadingLogTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("broken.jsonl")
        try Data("""
            {"$collection":"books","id":"b1","book":"","author":"Ursula K. Le Guin","pages":304,"finishedOn":"2024-01-14","rating":5}
            {"$collection":"books","id":"b2","book":"Middlemarch","author":"George Eliot","pages":"many","finishedOn":"2024-02-30","rating":7}
            {"$collection":"books","id":"b1","author":"Anonymous","pages":213,"finishedOn":"2024-08-09","rating":3}

            """.utf8).write(to: input)
        do {
            _ = try Dataset.read(input, as: ReadingLogSchemaV1.self)
            Issue.record("a broken input was read")
        } catch {
            #expect(ReadingLogTests.lines(error.diagnostics, under: folder) == [
            #"broken.jsonl:1:41: error: /books/0/book: book must not be empty (id "b1") [invalid-value]"#,
            #"broken.jsonl:2:87: error: /books/1/pages: pages: expected an integer, found "many" (id "b2") [type-error]"#,
            #"broken.jsonl:2:107: error: /books/1/finishedOn: finishedOn "2024-02-30" is not a day YYYY-MM-DD (id "b2") [invalid-value]"#,
            #"broken.jsonl:2:129: error: /books/1/rating: rating 7 is out of range 0...5 (id "b2") [out-of-range]"#,
            #"broken.jsonl:3:1: error: /books/2/book: book is missing (required in ReadingEntry) (id "b1") [missing-field]"#,
            #"broken.jsonl:3:29: error: /books/2/id: duplicate id "b1" in books: first at line 1 (/books/0) [duplicate-id]"#,
        ])
        }
    }

    /// `ferry run`'s pipeline with the app's domain: domain and version detected (its `books`
    /// collection, V1's `book` field), filtered, migrated, written as CSV.
    @Test func pipeline() throws {
        let folder = try ReadingLogTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("pipeline.json")
        try Data("""
            {"inputs": ["\(ReadingLogTests.sample.path)"],
             "steps": [{"filter": "rating >= 4"}, {"migrate": {"toVersion": 2}}],
             "output": {"path": "out/{name}.csv"},
             "options": {"jobs": 1}}
            """.utf8).write(to: pipeline)
        let reports = try Ferry.run(pipeline: pipeline)
        #expect(reports.map { $0.domain?.rawValue ?? "" } == ["reading-log"])
        #expect(reports.map(\.sourceVersion) == [1])
        #expect(ReadingLogTests.lines(reports.flatMap(\.diagnostics), under: Self.root) == [
            #"Data/reading-log-v1.jsonl:3:129: warning: /books/2/rating: rating 4.2 rounded to 4 (V2 rates in half stars) (id "b3") [lossy-change]"#,
        ])
        let csv = try Data(contentsOf: folder.appendingPathComponent("out/reading-log-v1.csv"))
        #expect(csv == (try Self.fixture("reading-log-v2.pipeline.csv", recording: csv)))
    }

    /// A `#Predicate` on the app's own V2 model.
    @Test func predicate() throws {
        let v2 = try Self.readV1().migrated(to: ReadingLogSchemaV2.self)
        let long = try v2.filter(#Predicate<ReadingLogV2.Entry> { $0.pages > 500 && $0.rating >= 4 })
        #expect(long.models(ReadingLogV2.Entry.self).map(\.id) == ["b2", "b3"])
    }

    /// The JSON Schema and XSD of both versions, as `ferry schema` publishes a built-in domain's.
    @Test(arguments: [1, 2]) func schemas(version: Int) throws {
        let json = try Ferry.schemaDocument(for: .readingLog, version: version)
        #expect(Data(json.utf8) == (try Self.fixture("reading-log-v\(version).schema.json", recording: Data(json.utf8))))
        let xsd = try Ferry.schemaDocument(for: .readingLog, version: version, as: .xsd)
        #expect(Data(xsd.utf8) == (try Self.fixture("reading-log-v\(version).xsd", recording: Data(xsd.utf8))))
    }
}
