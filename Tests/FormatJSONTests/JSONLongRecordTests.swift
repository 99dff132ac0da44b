import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

/// A record of 16 MiB or more is handed to its field locator without a copy (the reader's buffer
/// becomes the locator's bytes); the records after it keep their positions, and the locator its.
@Suite struct JSONLongRecordTests {
    @Test(arguments: [1000, (16 << 20) + 5])
    func recordsAroundALongOneKeepTheirPositions(length: Int) throws {
        let long = String(repeating: "é", count: length / 2)
        let text = "{\"domain\": \"notes\", \"schemaVersion\": 2, \"wineTastingNotes\": [\n"
            + "  {\"id\": \"w0\"},\n  {\"think\": \"\(long)\",\n   \"id\": \"w1\"},\n   {\"id\": \"w2\"}\n]}\n"
        let records = try drain(JSONDocumentReader(source: MemorySource(text), options: ReadOptions(fileName: "l.json")))
        #expect(records.map { $0.location.position } == [
            TextPosition(line: 2, column: 3), TextPosition(line: 3, column: 3), TextPosition(line: 5, column: 4),
        ])
        #expect(records[1].value.objectValue?["think"] == .string(long))
        #expect(records[1].location(of: "/id").position == TextPosition(line: 4, column: 10))
        #expect(records[1].location(of: "/think").position == TextPosition(line: 3, column: 13))
    }
}
