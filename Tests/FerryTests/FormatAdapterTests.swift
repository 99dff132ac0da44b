import Ferry
import FerryTestSupport
import Foundation
import Testing

/// An in-process format adapter registered through `FormatRegistry`, used by `Dataset.write`
/// like a built-in (the example of Docs/library.md).
@Suite struct FormatAdapterTests {
    final class IDListWriter: RecordWriter {
        let sink: any ByteSink
        init(sink: any ByteSink) { self.sink = sink }
        func write(_ record: Record) throws { try sink.write("\(record.collection ?? "-")\t\(record.id ?? "-")\n") }
        func finish() throws { try sink.flush() }
    }

    struct IDListFormat: FormatWriter {
        func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter { IDListWriter(sink: sink) }
    }

    @Test func registeredWriterWritesByExtension() throws {
        var formats = Ferry.formats
        formats.register(FormatDescriptor(
            name: "ids", extensions: ["ids"], summary: "collection and id, one record a line", reader: nil,
            writer: IDListFormat()))
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("notes.ids")
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self, registry: formats)
        try notes.migrated(to: NotesSchemaV2.self).write(to: output, registry: formats)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text == """
            wineTastingNotes\tw-001
            wineTastingNotes\tw-002
            wineTastingNotes\tbb579642-37fb-5451-ba31-77c4d3a8c3e8
            wineTastingNotes\tw-004
            coffeeTastingNotes\tc-001
            coffeeTastingNotes\tc-002
            whiskeyTastingNotes\tk-001
            cocktailTastingNotes\tt-001

            """)
    }

    /// An unknown format name is the command line's exit-4 error.
    @Test func unknownFormat() throws {
        let notes = try Dataset.read(Fixtures.sample("notes-v1.json"), as: NotesSchemaV1.self)
        do {
            try notes.write(to: URL(fileURLWithPath: "/tmp/never.written"), format: "yaml")
            Issue.record("wrote an unknown format")
        } catch {
            #expect(error.exitStatus == .unknown)
            #expect(error.diagnostic.code == .unknownFormat)
        }
    }
}
