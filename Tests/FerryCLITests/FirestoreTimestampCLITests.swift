import FerryTestSupport
import Foundation
import Testing

/// Bare numbers in Firestore Timestamp fields (vocabulary V1).
@Suite struct FirestoreTimestampCLITests {
    static let numericBook = """
        {"wordBooks": [{"id": "b1", "title": "Book", "timestamp": 1700000000}],
         "words": [{"id": "w1", "wordBookID": "b1", "meaningText": "m", "ganaText": "g", "kanjiText": "k", "studyState": 1,
                    "timestamp": 1700000001.5}]}
        """

    /// A bare number in a Firestore Timestamp field is Unix time unless `--date-strategy` says
    /// otherwise, with one warning naming the strategy; in every data format.
    @Test(arguments: ["json", "jsonl", "xml"])
    func bareNumbersInTimestampsAreSecondsSince1970(format: String) throws {
        let box = try Sandbox()
        try box.write("book.json", Self.numericBook)
        let input = "book.\(format)"
        if format != "json" {
            let converted = try box.ferry(["convert", "book.json", "--date-strategy", "secondsSince1970", "-o", input])
            #expect(converted.status == 0, "\(converted.stderr)")
            // The V1 writer writes the Timestamp object: put the bare numbers back.
            var text = try box.text(input)
            for (seconds, nanoseconds, number) in [(1700000000, 0, "1700000000"), (1700000001, 500000000, "1700000001.5")] {
                let objects = format == "xml"
                    ? ["<timestamp>\n        <_seconds>\(seconds)</_seconds>\n        <_nanoseconds>\(nanoseconds)</_nanoseconds>\n      </timestamp>"]
                    : ["{\"_seconds\":\(seconds),\"_nanoseconds\":\(nanoseconds)}"]
                for object in objects {
                    let replacement = format == "xml" ? "<timestamp>\(number)</timestamp>" : number
                    #expect(text.contains(object), "\(format): \(text)")
                    text = text.replacingOccurrences(of: object, with: replacement)
                }
            }
            try box.write(input, text)
        }
        let text = try box.text(input)
        let run = try box.ferry(["migrate", input, "--to-version", "2", "-o", "v2.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let first = format == "xml" ? "<timestamp>1700000000" : "1700000000"
        #expect(run.diagnostics == [
            "\(input):\(position(of: first, in: text)): warning: /wordBooks/0/timestamp: a number in a Firestore Timestamp field is read as seconds since 1970-01-01T00:00:00Z (--date-strategy secondsSince1970); give --date-strategy to read it otherwise (id \"b1\") [assumption]",
        ])
        let output = try box.text("v2.json")
        #expect(output.contains("\"createdAt\": \"2023-11-14T22:13:20Z\""))
        #expect(output.contains("\"timestamp\": \"2023-11-14T22:13:21.500Z\""))

        let given = try box.ferry(["migrate", input, "--to-version", "2", "--date-strategy", "deferredToDate", "-o", "v2.json"])
        #expect(given.status == 0)
        #expect(given.diagnostics == [
            "\(input):\(position(of: first, in: text)): note: /wordBooks/0/timestamp: numeric dates read as seconds since 2001-01-01T00:00:00Z (--date-strategy deferredToDate) (id \"b1\") [assumption]",
        ])
        #expect(try box.text("v2.json").contains("\"createdAt\": \"2054-11-14T22:13:20Z\""))
    }
}
