import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

/// A large object or array is buffered whole by one bracket scan before it is parsed, so it is
/// parsed once (parsing a growing prefix again after every read parsed it about twice over). The
/// scan only decides how much to read: records, positions and errors stay what they were.
@Suite struct JSONContainerScanTests {
    /// How far `requireContainer` reads a document served `step` bytes at a time: the bytes
    /// buffered from the start.
    private func buffered(_ text: String, step: Int, limit: Int = 1 << 20) throws -> Int {
        let input = ChunkedInput(source: TrickleSource(text, step: step), chunkSize: 4)
        try input.requireContainer(limit: limit)
        return input.end - input.pos
    }

    @Test(arguments: [1, 3, 64])
    func theScanStopsAtTheClosingBracket(step: Int) throws {
        // Brackets and an escaped quote inside strings do not count; the bytes after the close are
        // read only as far as the last read went.
        let value = #"{"a": ["}", "\"]", {"b": "\\"}], "c": [[]]}"#
        let text = value + String(repeating: " ", count: 200)
        let end = try buffered(text, step: step)
        #expect(end >= value.utf8.count)
        #expect(end < value.utf8.count + max(step, 8) + 4)
    }

    @Test func theScanStopsAtTheLimitAndAtTheEnd() throws {
        let open = "[" + String(repeating: "[1],", count: 100)
        #expect(try buffered(open, step: 10, limit: 50) < 70)
        #expect(try buffered(open, step: 10) == open.utf8.count)
    }

    /// Every record, position and error of a document is the same whatever the chunk size, with
    /// the scan reading a record whole in one go or the parser reading on piece by piece.
    @Test(arguments: [
        #"{"domain": "vocabulary", "__collections__": {"wordBooks": {"b1": {"t": "}]", "__collections__": {"words": {"w1": {"s": 1}}}}}}, "x": [1, 2]}"#,
        #"{"wordBooks": {"b1": {"t": "a", "subCollection": {"wordBooks/b1/words": {"w1": {"s": 1}, "w2": {"s": 2}}}}}}"#,
        #"{"wordBooks": {"b1": {"t": "a", "subCollection": {"wordBooks/b1/words": {"w1": {"s" 1}}}}}}"#,
        #"{"wordBooks": {"b1": {"t": "a"], "u": 1}}}"#,
        #"{"wordBooks": {"b1": {"t": "a\"}}}"#,
        #"{"wordBooks": [{"t": "a"}, {"t": "b"}]] }"#,
    ])
    func recordsAndErrorsDoNotDependOnTheChunkSize(text: String) throws {
        func read(chunkSize: Int) -> String {
            let reader = JSONDocumentReader(source: TrickleSource(text, step: 5), chunkSize: chunkSize)
            var lines: [String] = []
            do {
                while let record = try reader.next() {
                    lines.append("\(record.collection ?? "-") \(record.documentID ?? "-") \(record.location.position.map { "\($0.line):\($0.column)" } ?? "-") \(record.value)")
                }
            } catch let error as FerryError {
                lines.append(error.description)
            } catch {
                lines.append("\(error)")
            }
            return lines.joined(separator: "\n")
        }
        let whole = read(chunkSize: 1 << 16)
        #expect(!whole.isEmpty)
        for chunkSize in [1, 2, 7, 16] { #expect(read(chunkSize: chunkSize) == whole) }
    }
}
