import FerryCore
import FerryTestSupport
import FormatXML
import Testing

/// Serves a generated dataset of `count` records without ever holding it.
final class GeneratedDatasetSource: ByteSource {
    private let count: Int
    private var produced = 0
    private var pending: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataset domain=\"notes\" schemaVersion=\"2\">\n  <wineTastingNotes>\n".utf8)
    private var offset = 0
    private var ended = false
    private(set) var totalBytes = 0

    init(count: Int) { self.count = count }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while offset == pending.count {
            pending.removeAll(keepingCapacity: true)
            offset = 0
            if produced < count {
                let text = "    <WineTastingNote>\n      <id>w\(produced)</id>\n      <title>Barolo \(produced) &amp; 장미</title>\n      <smells>\n        <item>\n          <label>tar</label>\n        </item>\n      </smells>\n      <think>\(String(repeating: "x", count: 200))</think>\n    </WineTastingNote>\n"
                pending.append(contentsOf: text.utf8)
                produced += 1
            } else if !ended {
                pending.append(contentsOf: "  </wineTastingNotes>\n</dataset>\n".utf8)
                ended = true
            } else {
                return 0
            }
        }
        let n = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + n)]))
        }
        offset += n
        totalBytes += n
        return n
    }
}

@Suite struct XMLStreamingTests {
    /// Streaming, shown without measuring memory (peak RSS is process-wide while other tests run;
    /// `make bench` measures memory): the first record comes out after a small prefix of a 27 MB
    /// input was read, and every record after it still arrives.
    @Test func recordsStreamOutBeforeTheInputIsRead() throws {
        let source = GeneratedDatasetSource(count: 80_000)
        let reader = try XMLRecordReader(source, options: ReadOptions(fileName: "big.xml"), log: DiagnosticLog())
        var count = 0
        var last: Record?
        while let record = try reader.next() {
            if count == 0 { #expect(source.totalBytes < 1_000_000, "the first record waited for \(source.totalBytes) bytes") }
            count += 1
            last = record
        }
        #expect(count == 80_000)
        #expect(source.totalBytes > 25_000_000)
        #expect(last?.location == SourceLocation(file: "big.xml", line: 4 + 79_999 * 10, column: 5,
                                                 collection: "wineTastingNotes", recordIndex: 79_999))
        #expect(last?.value.objectValue?["title"] == "Barolo 79999 & 장미")
    }
}
