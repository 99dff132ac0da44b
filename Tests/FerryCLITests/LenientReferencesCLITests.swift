import FerryTestSupport
import Foundation
import Testing

/// `--lenient` writes no record whose reference dangles (a story's `taggedMemberIds`, a word's
/// `wordBookID`), as it writes no record with another error: what it writes passes
/// `ferry validate`, the kept records in input order (a record naming one read later waits for
/// it), the same with one job or two; for pet-story and vocabulary at both versions, from
/// JSON Lines and from a CSV folder, converted and migrated.
@Suite struct LenientReferencesCLITests {
    typealias Dataset = ReferencingRecordsCLITests.Dataset

    /// The `($collection, id)` of every record of a JSON Lines text, in order.
    static func recordKeys(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let collection = line.firstMatch(of: /"\$collection":"([^"]*)"/)?.1,
                  let id = line.firstMatch(of: /"id":"([^"]*)"/)?.1
            else { return nil }
            return "\(collection) \(id)"
        }
    }

    /// The records `ReferencingRecordsCLITests`' dataset holds that have no error, references
    /// included, in input order: the referring records with a dangling id, the duplicate id and
    /// the unknown field left out.
    static func keptKeys(_ dataset: Dataset) -> [String] {
        if dataset.domain == "pet-story" {
            // Tags cycle every 7 records; the 5th, 6th and 7th name "mX", "" and "m7".
            let stories = (0..<40).filter { $0 % 7 < 4 && $0 != 23 && $0 != 31 }.map { "stories s\($0)" }
            return ["profiles p1"] + (0..<4).map { "members m\($0)" } + stories + ["members m9"]
        }
        // Books cycle every 5 records; the 4th names "bX".
        let words = (0..<40).filter { $0 % 5 != 3 && $0 != 27 && $0 != 33 }.map { "words w\($0)" }
        return ["wordBooks b0", "wordBooks b1"] + words + ["wordBooks b9"]
    }

    /// The referring records dropped for a dangling reference alone.
    static func danglingCount(_ dataset: Dataset) -> Int {
        dataset.domain == "pet-story" ? (0..<40).filter { $0 % 7 >= 4 }.count : (0..<40).filter { $0 % 5 == 3 }.count
    }

    /// The commands of a cell: convert to JSON Lines and, for V1, migrate to V2.
    static func commands(_ dataset: Dataset) -> [[String]] {
        var commands = [["convert", "--to", "jsonl"]]
        if dataset.version == 1 { commands.append(["migrate", "--to-version", "2", "--to", "jsonl"]) }
        return commands
    }

    @Test(arguments: ReferencingRecordsCLITests.datasets)
    func jsonLinesKeepsNoDanglingReference(_ dataset: Dataset) throws {
        let box = try Sandbox()
        try box.write("in.jsonl", dataset.text)
        for command in Self.commands(dataset) {
            let (one, two) = try box.ferryByJobs([command[0], "in.jsonl"] + command.dropFirst() + ["--lenient", "-o", "OUT"])
            #expect(one.output == two.output, "\(dataset) \(command)")
            #expect(one.stderr == two.stderr, "\(dataset) \(command)")
            #expect(Self.recordKeys(one.output) == Self.keptKeys(dataset), "\(dataset) \(command)")
            #expect(one.status == 1, "\(dataset) \(command)")
            let dangling = one.stderr.split(separator: "\n").filter { $0.contains("[dangling-reference]") }
            #expect(dangling.count == Self.danglingCount(dataset), "\(dataset) \(command)\n\(one.stderr)")
            let check = try box.ferry(["validate", "out-1.jsonl"])
            #expect(check.status == 0, "\(dataset) \(command)\n\(check.stderr)")
        }
    }

    @Test(arguments: ReferencingRecordsCLITests.datasets)
    func csvFolderKeepsNoDanglingReference(_ dataset: Dataset) throws {
        let box = try Sandbox()
        try box.write("in.jsonl", dataset.text)
        let folder = try ReferencingRecordsCLITests.csvFolder(of: dataset, in: box)
        for command in Self.commands(dataset) {
            let (one, two) = try box.ferryByJobs([command[0], folder, "--domain", dataset.domain] + command.dropFirst() + ["--lenient", "-o", "OUT"])
            #expect(one.output == two.output, "\(dataset) \(command)")
            #expect(one.stderr == two.stderr, "\(dataset) \(command)")
            // A folder is read in collection order: the referenced records come first.
            var kept = Self.keptKeys(dataset)
            let last = kept.removeLast()
            kept.insert(last, at: kept.firstIndex { $0.hasPrefix("stories") || $0.hasPrefix("words") } ?? kept.endIndex)
            #expect(Self.recordKeys(one.output) == kept, "\(dataset) \(command)")
            #expect(one.status == 1, "\(dataset) \(command)")
            let check = try box.ferry(["validate", "out-1.jsonl"])
            #expect(check.status == 0, "\(dataset) \(command)\n\(check.stderr)")
        }
        // To CSV: the written folder validates too.
        let converted = try box.ferry(["convert", folder, "--domain", dataset.domain, "--to", "csv", "--lenient", "-o", "out/"])
        #expect(converted.status == 1)
        let check = try box.ferry(["validate", "out/", "--domain", dataset.domain])
        #expect(check.status == 0, "\(dataset)\n\(check.stderr)")
    }

    /// More records wait than are held in memory (the rest are parked in a spool file): one
    /// story names a member read last, thousands follow it, one of them names none.
    @Test func manyRecordsWaitingKeepTheirOrder() throws {
        let box = try Sandbox()
        var lines = [#"{"domain": "pet-story", "schemaVersion": 2}"#,
                     #"{"$collection":"members","id":"m0","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#]
        var expected = ["members m0"]
        for i in 0..<6000 {
            let tag = i == 0 ? "m9" : i == 3000 ? "mX" : "m0"
            lines.append(#"{"$collection":"stories","id":"s\#(i)","caption":"c","createdAt":"2024-01-01T08:00:00Z","media":[],"taggedMemberIds":["\#(tag)"]}"#)
            if i != 3000 { expected.append("stories s\(i)") }
        }
        lines.append(#"{"$collection":"members","id":"m9","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#)
        expected.append("members m9")
        try box.write("in.jsonl", lines.joined(separator: "\n") + "\n")
        let (one, two) = try box.ferryByJobs(["convert", "in.jsonl", "--lenient", "-o", "OUT"])
        #expect(one.output == two.output)
        #expect(Self.recordKeys(one.output) == expected)
        #expect(one.stderr.split(separator: "\n").filter { $0.contains("[dangling-reference]") }
            == [#"in.jsonl:3003:118: error: /stories/3000/taggedMemberIds/0: taggedMemberIds[0] "mX" names no member of the dataset (id "s3000") [dangling-reference]"#])
    }

    /// `stats` profiles the records a conversion would keep: not one whose reference dangles.
    @Test func statsLeavesOutADanglingReference() throws {
        let box = try Sandbox()
        let dataset = ReferencingRecordsCLITests.petStory(version: 2)
        try box.write("in.jsonl", dataset.text)
        let stats = try box.ferry(["stats", "in.jsonl", "--report", "json"])
        let stories = Self.keptKeys(dataset).filter { $0.hasPrefix("stories") }.count
        #expect(stats.stdout.contains("\"name\": \"stories\",\n      \"records\": \(stories),\n"), "\(stats.stdout.prefix(600))")
        #expect(stats.stdout.contains("\n  \"records\": \(Self.keptKeys(dataset).count),\n"), "\(stats.stdout.prefix(600))")
    }
}
