import FerryCore
@testable import FormatBundle

/// A test-only content format named `json`: a data file is a JSON array of records written in the
/// manifest's canonical layout. Stands in for FormatJSON until that adapter lands.
struct TestArrayFormat: FormatReader, FormatWriter {
    static let descriptor = FormatDescriptor(
        name: "json", extensions: ["json"], summary: "test array", reader: TestArrayFormat(), writer: TestArrayFormat())
    static let registry = FormatRegistry([descriptor])

    func makeReader(_ source: any ByteSource, options: ReadOptions, log: DiagnosticLog) throws -> any RecordReader {
        let value = try ManifestJSON.parse(try source.readAll(), at: options.inputLocation)
        guard case .array(let items) = value else {
            throw FerryError(.malformedJSON, "not an array", at: options.inputLocation)
        }
        return Reader(items: items, options: options)
    }

    func makeWriter(_ sink: any ByteSink, options: WriteOptions) throws -> any RecordWriter {
        Writer(sink: sink)
    }

    final class Reader: RecordReader {
        let items: [Value]
        let options: ReadOptions
        var index = 0
        init(items: [Value], options: ReadOptions) {
            self.items = items
            self.options = options
        }
        var header: DatasetHeader { DatasetHeader() }
        func next() throws -> Record? {
            guard index < items.count else { return nil }
            defer { index += 1 }
            var location = options.inputLocation
            location.recordIndex = index
            location.line = index + 1
            return Record(collection: nil, value: items[index], location: location)
        }
    }

    final class Writer: RecordWriter {
        let sink: any ByteSink
        var count = 0
        init(sink: any ByteSink) { self.sink = sink }
        func write(_ record: Record) throws {
            var out: [UInt8] = Array((count == 0 ? "[\n  " : ",\n  ").utf8)
            ManifestJSON.encode(record.value, indent: 1, into: &out)
            try sink.write(out)
            count += 1
        }
        func finish() throws {
            try sink.write(count == 0 ? "[]\n" : "\n]\n")
            try sink.flush()
        }
    }
}
