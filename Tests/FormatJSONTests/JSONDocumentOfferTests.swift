import FerryCore
import FerryTestSupport
import Foundation
import Testing

@testable import FormatJSON

/// A JSON document batch offers each object element of a named collection array to a taker (the
/// typed path) before parsing it: what it offers (bytes, start, collection, nesting left) and
/// what it hands back for a taken element (a record with a null value at the element's place).
@Suite struct JSONDocumentOfferTests {
    /// Records every element offered as "COLLECTION LINE:COLUMN DEPTH BYTES" and takes those
    /// whose bytes contain `"take"`.
    final class Recorder: RawRecordTaker, @unchecked Sendable {
        var offers: [String] = []

        func take(_ record: RawRecord) -> TakenRecord? {
            guard case .jsonElement(let bytes, let start, let collection, let maximumDepth) = record else {
                offers.append("not an element")
                return nil
            }
            let text = String(decoding: bytes, as: UTF8.self)
            offers.append("\(collection) \(start.line):\(start.column) \(maximumDepth) \(text)")
            return text.contains("take") ? TakenRecord(collection: nil, payload: offers.count - 1) : nil
        }
    }

    static let document = """
        {"domain": "notes", "schemaVersion": 2,
          "wineTastingNotes": [
            {"id": "a", "take": 1},
            {"id": "b"},
            7,
            {
              "take": 2,
              "id": "c"
            }
          ]
        }

        """

    @Test func objectElementsAreOfferedAndTakenOnesComeBackAtTheirPlace() throws {
        let reader = JSONDocumentReader(source: MemorySource(Array(Self.document.utf8)), options: ReadOptions(fileName: "d.json"))
        let recorder = Recorder()
        var items: [String] = []
        while let batch = try reader.nextBatch(limit: 128) {
            batch.parse(offering: recorder)
            for item in reader.items(from: batch) {
                switch item {
                case .taken(let item):
                    let (record, payload) = (item.record, item.payload)
                    items.append("taken \(payload) \(record.collection ?? "-") \(record.location.recordIndex ?? -1) "
                        + "\(record.location.line ?? -1):\(record.location.column ?? -1) \(record.value)")
                case .record(let record):
                    items.append("record \(record.collection ?? "-") \(record.location.recordIndex ?? -1)")
                case .problem(let diagnostic): items.append("problem \(diagnostic)")
                case .failure(let error): items.append("failure \(error)")
                }
            }
        }
        #expect(reader.takesRawRecords)
        // The first element is read with the envelope by `next()` (the usual way), the scalar
        // element is not offered; the nesting left is the limit less the envelope and its array.
        #expect(recorder.offers == [
            #"wineTastingNotes 4:5 510 {"id": "b"}"#,
            "wineTastingNotes 6:5 510 {\n      \"take\": 2,\n      \"id\": \"c\"\n    }",
        ])
        #expect(items == [
            "record wineTastingNotes 0",
            "record wineTastingNotes 1",
            "record wineTastingNotes 2",
            "taken 1 wineTastingNotes 3 6:5 null",
        ])
    }

    /// The line of an element's `id` value: the start's line for an element on one line or with
    /// no `id`; else the line the value stands on (past escapes and nested `id` members).
    @Test func theIDLineIsTheLineOfTheIDValue() {
        let cases: [(String, Int)] = [
            (#"{"id": "a", "x": 1}"#, 10),
            ("{\n  \"x\": 1\n}", 10),
            ("{\n  \"x\": {\"id\": \"n\"},\n  \"t\": \"a\\\"id\\\"\",\n  \"id\":\n\n    \"b\"\n}", 15),
            ("{\r\n  \"id\": \"a\"\r\n}", 11),
            // The first member `id`, with space and line feeds around its colon.
            ("{\n  \"id\"\n  :\n  \"a\"\n}", 13),
            // A first key that starts as `id` does is another member.
            ("{\n  \"idx\": 1,\n  \"i\": 2,\n  \"id\": \"b\"\n}", 13),
        ]
        for (text, line) in cases {
            let found = Array(text.utf8).withUnsafeBufferPointer {
                JSONFieldLocator.idLine(in: $0, start: TextPosition(line: 10, column: 5))
            }
            #expect(found == line, "\(text)")
        }
    }
}
