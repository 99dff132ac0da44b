import FerryCore
import FerryTestSupport
import Testing
@testable import FormatCSV

/// The record limit holds however the input arrives: a row longer than the limit is refused even
/// when one read brings it whole (the reader used to take any row that fit in its buffer).
@Suite struct CSVRecordLimitTests {
    /// Whole input at once, and pieces smaller and larger than the limit.
    static let chunks: [Int?] = [nil, 100, 1000, 5000]

    @Test(arguments: chunks)
    func anUnquotedRowPastTheLimitIsTooLarge(chunk: Int?) {
        let text = "id,t\na," + String(repeating: "x", count: 2000) + "\nb,y\n"
        let result = readCSV(Array(text.utf8), chunk: chunk, maximumRecordBytes: 1024)
        #expect(result.error?.diagnostic.description == "2:1: error: a row is longer than 1024 bytes [too-large]")
        #expect(result.records.isEmpty)
    }

    @Test(arguments: chunks)
    func aQuotedCellThatClosesPastTheLimitIsTooLarge(chunk: Int?) {
        let text = "id,t\na,\"" + String(repeating: "x", count: 2000) + "\"\nb,y\n"
        let result = readCSV(Array(text.utf8), chunk: chunk, maximumRecordBytes: 1024)
        #expect(result.error?.diagnostic.description == "2:1: error: a row is longer than 1024 bytes [too-large]")
        #expect(result.records.isEmpty)
    }

    @Test(arguments: chunks)
    func aRowOfExactlyTheLimitIsRead(chunk: Int?) {
        // "a," and the cell: 1024 bytes before the line feed.
        let text = "id,t\na," + String(repeating: "x", count: 1022) + "\nb,\"" + String(repeating: "q", count: 1019) + "\"\n"
        let result = readCSV(Array(text.utf8), chunk: chunk, maximumRecordBytes: 1024)
        #expect(result.problems == [])
        #expect(result.objects.map { $0["id"] } == ["a", "b"])
    }
}
