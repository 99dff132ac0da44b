import FerryTestSupport
import Foundation
import Testing

/// A Firestore Timestamp of none of the forms SCHEMAS.md accepts: the error names every one.
@Suite struct TimestampFormsCLITests {
    /// A word book's timestamp that is an object of other members, in a JSON document,
    /// JSON Lines and XML.
    @Test(arguments: ["json", "jsonl", "xml"])
    func aTimestampOfNoAcceptedFormNamesThemAll(_ format: String) throws {
        let box = try Sandbox()
        try box.copySample("vocabulary-v1-backup-restore.json", to: "sample.json")
        let text = try box.text("sample.json")
        let value = try #require(text.range(of: #""timestamp": \{[^}]*\}"#, options: .regularExpression))
        try box.write("bad.json", text.replacingCharacters(in: value, with: #""timestamp": {"when": 1}"#))
        var input = "bad.json"
        if format != "json" {
            input = "bad.\(format)"
            #expect(try box.ferry(["convert", "bad.json", "--to", format, "-o", input, "--schema-free", "--quiet"]).status == 0)
        }
        let run = try box.ferry(["validate", input])
        #expect(run.status == 1, "\(format)")
        let error = try #require(run.errors.first { $0.hasSuffix("[type-error]") || $0.hasSuffix("[invalid-value]") }, "\(format): \(run.stderr)")
        #expect(error.contains(#"timestamp: expected a Timestamp ({"_seconds": S, "_nanoseconds": N}, {"seconds": S, "nanoseconds": N}, "#
            + #"{"__datatype__": "timestamp", "value": {"_seconds": S, "_nanoseconds": N}}, an RFC 3339 string or a number (seconds "#
            + #"since 1970 unless --date-strategy says otherwise)), found "#), "\(format): \(error)")
    }
}
