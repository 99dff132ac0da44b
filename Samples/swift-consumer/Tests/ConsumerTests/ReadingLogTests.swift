import Ferry
import Foundation
import ReadingLog
import Testing

/// The reading log, a domain of the app's own, through Ferry's public API only.
@Suite struct ReadingLogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sample = root.appendingPathComponent("Data/reading-log-v1.jsonl")
    static let golden = root.appendingPathComponent("Tests/ConsumerTests/Fixtures/reading-log-v2.jsonl")

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reading-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Diagnostics as printed, with the input's folder left out.
    static func lines(_ diagnostics: [Diagnostic], under folder: URL) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    /// V1 -> V2: `book` renamed, `author` split, a rating off the half-star grid rounded with a
    /// warning at its place in the input; the result is checked against V2's rules and written.
    @Test func migratesTheSample() throws {
        let result = try ReadingLogMigration.migrate(Self.sample)
        #expect(Self.lines(result.diagnostics, under: Self.root) == [
            #"Data/reading-log-v1.jsonl:3:129: warning: /books/2/rating: rating 4.2 rounded to 4 (V2 rates in half stars) (id "b3") [lossy-change]"#,
        ])
        #expect(result.entries.map(\.title) == ["The Left Hand of Darkness", "Middlemarch", "Der Zauberberg", "Beowulf"])
        #expect(result.entries.map(\.authorGiven) == ["Ursula K.", "George", "Thomas", ""])
        #expect(result.entries.map(\.authorFamily) == ["Le Guin", "Eliot", "Mann", "Anonymous"])
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("v2.jsonl")
        try Records(models: result.entries).write(to: output)
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.golden))
    }

    /// V2 entries to CSV, XML and a tar bundle and back: the same models, and the same JSON
    /// Lines bytes written from them.
    @Test(arguments: ["csv", "xml", "tar"]) func roundTrip(format: String) throws {
        let entries = try ReadingLogMigration.migrate(Self.sample).entries
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let converted = folder.appendingPathComponent("books.\(format)")
        try Records(models: entries).write(to: converted)
        let back = try Records.read(converted, collection: ReadingLogV2.Entry.collection)
        var diagnostics: [Diagnostic] = []
        let options = DecodingOptions(scalarsAsText: back.scalarsAreText)
        let decoded = back.records.compactMap { ReadingLogV2.Entry.decode($0, options: options, diagnostics: &diagnostics) }
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(decoded == entries)
        let again = folder.appendingPathComponent("again.jsonl")
        try Records(models: decoded).write(to: again)
        #expect(try Data(contentsOf: again) == Data(contentsOf: Self.golden))
    }

    /// A broken V1 input: every problem with its line, column, field pointer and record id; a
    /// line that is not JSON is reported and the next lines are still read.
    @Test func brokenInput() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("broken.jsonl")
        try Data("""
            {"id":"b1","book":"","author":"Ursula K. Le Guin","pages":304,"finishedOn":"2024-01-14","rating":5}
            {"id":"b2","book":"Middlemarch","author":"George Eliot","pages":"many","finishedOn":"2024-02-30","rating":7}
            {"id":"b3","book":"Beowulf",
            {"id":"b4","author":"Anonymous","pages":213,"finishedOn":"2024-08-09","rating":3}

            """.utf8).write(to: input)
        let result = try ReadingLogMigration.migrate(input)
        #expect(result.hasErrors)
        #expect(result.entries.isEmpty)
        #expect(Self.lines(result.diagnostics, under: folder) == [
            "broken.jsonl:3:29: error: unexpected end of input, expected a string key [malformed-json]",
            #"broken.jsonl:1:19: error: /books/0/book: book must not be empty (id "b1") [invalid-value]"#,
            #"broken.jsonl:2:65: error: /books/1/pages: pages: expected an integer, found "many" (id "b2") [type-error]"#,
            #"broken.jsonl:2:85: error: /books/1/finishedOn: finishedOn "2024-02-30" is not a day YYYY-MM-DD (id "b2") [invalid-value]"#,
            #"broken.jsonl:2:107: error: /books/1/rating: rating 7 is out of range 0...5 (id "b2") [out-of-range]"#,
            #"broken.jsonl:4:1: error: /books/2/book: book is missing (required in ReadingEntry) (id "b4") [missing-field]"#,
        ])
    }
}
