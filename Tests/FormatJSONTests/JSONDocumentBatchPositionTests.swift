import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// The line and column of every element a JSON document batch cuts: the reader places only a
/// batch's first element and the batch counts the others' from it while parsing, so each is
/// checked by hand here, on pretty, compact, CRLF and multi-line inputs, with batches of every
/// size and chunks that end anywhere (inside an element, a string, a line break, a UTF-8 sequence).
@Suite struct JSONDocumentBatchPositionTests {
    /// Records the place and first bytes of every element offered, taking none.
    final class Offers: RawRecordTaker, @unchecked Sendable {
        var seen: [String] = []

        func take(_ record: RawRecord) -> TakenRecord? {
            if case .jsonElement(let bytes, let start, _, _) = record {
                seen.append("\(start.line):\(start.column) \(String(decoding: bytes.prefix(2), as: UTF8.self))")
            }
            return nil
        }
    }

    /// Every record as "INDEX LINE:COLUMN ID-POSITION" and the error that ended the reading as
    /// "failure DESCRIPTION"; then, after "offered", what the taker was offered.
    private static func read(_ text: String, chunk: Int, limit: Int) -> [String] {
        let reader = JSONDocumentReader(
            source: MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "d.json"), chunkSize: chunk)
        let offers = Offers()
        var events: [String] = []
        func describe(_ record: Record) -> String {
            "\(record.location.recordIndex ?? -1) \(record.location.line ?? -1):\(record.location.column ?? -1) "
                + (record.locator?.position(of: JSONPointer(tokens: ["id"]))?.description ?? "-")
        }
        do {
            while let batch = try reader.nextBatch(limit: limit) {
                batch.parse(offering: offers)
                for item in reader.items(from: batch) {
                    switch item {
                    case .record(let record): events.append(describe(record))
                    case .failure(let error): throw error
                    case .taken, .problem: events.append("unexpected \(item)")
                    }
                }
            }
        } catch {
            events.append("failure \(error)")
        }
        return events + ["offered"] + offers.seen
    }

    /// Reads `text` with chunks of 1 to 9 bytes and of 64 KiB, in batches of 1, 2 and 128
    /// elements, and expects `expected` from every reading.
    private static func expectEverywhere(_ text: String, _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for chunk in Array(1...9) + [64 * 1024] {
            for limit in [1, 2, 128] {
                let got = read(text, chunk: chunk, limit: limit)
                #expect(got == expected, "chunk \(chunk) limit \(limit)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func prettyPrinted() {
        let text = """
            {
              "domain": "notes",
              "c": [
                {"id": "a"},
                {
                  "id": "b"
                },
                {"x": "é", "id": "c"},
                {"id": "d"}
              ]
            }

            """
        Self.expectEverywhere(text, [
            "0 4:5 4:12", "1 5:5 6:13", "2 8:5 8:22", "3 9:5 9:12",
            // The first element is read with the envelope by `next()`, not offered.
            "offered", "5:5 {\n", "8:5 {\"", "9:5 {\"",
        ])
    }

    @Test func compactOnOneLine() {
        // Columns count characters: "é" and "샤" are one each (two and three bytes).
        let text = #"{"domain":"notes","c":[{"id":"a"},{"é":"샤","id":"b"},{"id":"c"},{"id":"d"}]}"#
        Self.expectEverywhere(text, [
            "0 1:24 1:30", "1 1:35 1:49", "2 1:54 1:60", "3 1:65 1:71",
            "offered", "1:35 {\"", "1:54 {\"", "1:65 {\"",
        ])
    }

    @Test func crlfLineBreaks() {
        // A CR is a character of its line: lines end at the LF.
        let text = "{\r\n  \"domain\": \"notes\",\r\n  \"c\": [\r\n    {\"id\": \"a\"},\r\n    {\r\n      \"id\": \"b\"\r\n    },\r\n"
            + "    {\"id\": \"c\"}\r\n  ]\r\n}\r\n"
        Self.expectEverywhere(text, [
            "0 4:5 4:12", "1 5:5 6:13", "2 8:5 8:12",
            "offered", "5:5 {\r", "8:5 {\"",
        ])
    }

    @Test func stringsWithEscapedLineBreaksAndElementsOverManyLines() {
        // "\n" escapes inside strings are no line breaks; an element spans lines of every length.
        let text = "{\"domain\": \"notes\", \"c\": [{\"t\": \"a\\nb\\r\\n\", \"id\": \"a\"},\n"
            + "{\"t\": \"\\n\\n\\n\",\n\n\n \"id\":\n   \"b\"}, {\"id\": \"c\", \"t\": \"\(String(repeating: "x", count: 150))\"},\n"
            + "  {\"id\": \"d\"}]}\n"
        Self.expectEverywhere(text, [
            "0 1:27 1:51", "1 2:1 6:4", "2 6:10 6:17", "3 7:3 7:10",
            "offered", "2:1 {\"", "6:10 {\"", "7:3 {\"",
        ])
    }

    @Test func aLineBreakInsideAStringFailsWhereNextWouldFail() {
        // A raw line break in a string is no JSON: the element after it is never reached.
        let text = "{\"domain\": \"notes\", \"c\": [\n  {\"id\": \"a\"},\n  {\"id\": \"b\"},\n  {\"id\": \"c\n\"},\n  {\"id\": \"d\"}]}\n"
        var failure = "no failure"
        let reader = JSONDocumentReader(source: MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "d.json"))
        do {
            while try reader.next() != nil {}
        } catch {
            failure = "failure \(error)"
        }
        #expect(failure.contains("d.json:4:"), "\(failure)")
        Self.expectEverywhere(text, [
            "0 2:3 2:10", "1 3:3 3:10", failure,
            "offered", "3:3 {\"", "4:3 {\"",
        ])
    }
}
