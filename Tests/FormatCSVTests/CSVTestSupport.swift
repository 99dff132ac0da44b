import Foundation
import FerryCore
import FerryTestSupport
@testable import FormatCSV

/// Serves a fixed number of bytes per read, to test chunk boundaries.
final class ChunkedSource: ByteSource {
    private let bytes: [UInt8]
    private let size: Int
    private var offset = 0

    init(_ bytes: [UInt8], size: Int) {
        self.bytes = bytes
        self.size = size
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(size, buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
        offset += n
        return n
    }
}

/// What reading one input gave: the records, the diagnostics, and a thrown error if any.
struct CSVReadResult {
    var records: [Record] = []
    var diagnostics: [Diagnostic] = []
    var error: FerryError?
    var headerFields: [String] = []
    var duplicateHeaders: [String] = []

    /// Every record's value as an object.
    var objects: [ValueObject] { records.compactMap { $0.value.objectValue } }

    /// `code@line:column` of each diagnostic (and of the thrown error), for exact comparisons.
    var problems: [String] {
        var all = diagnostics
        if let error { all.append(error.diagnostic) }
        return all.map { "\($0.code.rawValue)@\($0.location.line ?? 0):\($0.location.column ?? 0)" }
    }
}

func readCSV(
    _ bytes: [UInt8], options: ReadOptions = ReadOptions(), chunk: Int? = nil, expectedHeader: [String]? = nil,
    rejectsDuplicateHeaders: Bool = false, maximumRecordBytes: Int = CSVReader.maximumRecordBytes
) -> CSVReadResult {
    let log = DiagnosticLog()
    var result = CSVReadResult()
    let source: any ByteSource = chunk.map { ChunkedSource(bytes, size: $0) } ?? MemorySource(bytes)
    do {
        let reader = try CSVReader(source, options: options, log: log, rejectsDuplicateHeaders: rejectsDuplicateHeaders,
                                   expectedHeader: expectedHeader, maximumRecordBytes: maximumRecordBytes)
        result.headerFields = reader.headerFields
        result.duplicateHeaders = reader.duplicateHeaders
        while let record = try reader.next() { result.records.append(record) }
    } catch let error as FerryError {
        result.error = error
    } catch {
        result.error = FerryError(.internalError, "\(error)")
    }
    result.diagnostics = log.diagnostics
    return result
}

func readCSV(_ text: String, options: ReadOptions = ReadOptions(), chunk: Int? = nil) -> CSVReadResult {
    readCSV(Array(text.utf8), options: options, chunk: chunk)
}

/// The text of a cell: a string's text, "" for an absent member.
func cellText(_ object: ValueObject, _ key: String) -> String? {
    guard let value = object[key] else { return "" }
    return value.stringValue
}

/// Writes records with `CSVWriter` and returns the bytes as text.
func writeCSV(_ values: [Value], options: WriteOptions = WriteOptions()) throws -> String {
    let sink = MemorySink()
    let writer = try CSVWriter(sink, options: options)
    for (index, value) in values.enumerated() {
        try writer.write(Record(collection: "c", value: value, location: SourceLocation(recordIndex: index)))
    }
    try writer.finish()
    return sink.text
}

func corpusFile(_ suite: String, _ path: String) -> [UInt8]? {
    guard let dir = Fixtures.corpus(suite) else { return nil }
    return (try? Data(contentsOf: dir.appendingPathComponent(path))).map { Array($0) }
}

func corpusNames(_ suite: String, _ folder: String, ext: String) -> [String] {
    guard let dir = Fixtures.corpus(suite) else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path)) ?? []
    return names.filter { $0.hasSuffix("." + ext) }.map { String($0.dropLast(ext.count + 1)) }.sorted()
}
