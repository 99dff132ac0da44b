import FerryTestSupport
import Foundation
import Testing

/// Records that name other records (a story's `taggedMemberIds`, a word's `wordBookID`) take the
/// typed lane like any other and carry their references to the commit: every command gives the
/// bytes, diagnostics (`dangling-reference` with its line, column and pointer included) and
/// status of the general path (the goldens under `Fixtures/ReferencingRecordsCLITests`), with one
/// job or several, for pet-story and vocabulary at both versions, in JSON Lines and CSV.
@Suite struct ReferencingRecordsCLITests {
    /// A domain's dataset: the referenced collection first (with one record after the records
    /// that name it), then the referring records with known, later, unknown and empty ids, a
    /// duplicate id and a record with a problem of its own.
    struct Dataset: CustomStringConvertible {
        let domain: String
        let version: Int
        let text: String
        var description: String { "\(domain) v\(version)" }
    }

    static func petStory(version: Int) -> Dataset {
        var lines = ["{\"domain\": \"pet-story\", \"schemaVersion\": \(version)}",
                     #"{"$collection":"profiles","id":"p1","name":"Home","createdAt":"2023-01-10T10:00:00Z","lastUpdatedAt":"2024-06-01T12:00:00Z"}"#]
        func member(_ id: String) -> String {
            version == 1
                ? #"{"$collection":"members","id":"\#(id)","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01T15:00:00Z","type":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
                : #"{"$collection":"members","id":"\#(id)","name":"Pet","since":"2010-04-03","birthDate":"2010-01-01","species":"cat","sex":"male","bio":"","createdAt":"2023-01-10T10:05:00Z"}"#
        }
        for i in 0..<4 { lines.append(member("m\(i)")) }
        let tags = [#"[]"#, #"["m1"]"#, #"["m0","m3"]"#, #"["m9"]"#, #"["m1","mX","m2"]"#, #"[""]"#, #"["m7"]"#]
        for i in 0..<40 {
            let id = i == 23 ? "s5" : "s\(i)"  // s5 twice
            let tagged = tags[i % tags.count]
            var line = version == 1
                ? #"{"$collection":"stories","id":"\#(id)","caption":"c \#(i)","createdAt":"2024-01-01T08:00:00Z","mediaContentIds":[],"lat":1.5,"lng":2.5,"taggedMemberIds":\#(tagged)}"#
                : #"{"$collection":"stories","id":"\#(id)","caption":"c \#(i)","createdAt":"2024-01-01T08:00:00Z","media":[],"location":{"latitude":1.5,"longitude":2.5},"taggedMemberIds":\#(tagged)}"#
            if i == 31 { line = line.replacingOccurrences(of: #""caption""#, with: #""x":1,"caption""#) }  // unknown field
            lines.append(line)
        }
        lines.append(member("m9"))  // named before it is read: no dangling reference
        return Dataset(domain: "pet-story", version: version, text: lines.joined(separator: "\n") + "\n")
    }

    static func vocabulary(version: Int) -> Dataset {
        var lines = ["{\"domain\": \"vocabulary\", \"schemaVersion\": \(version)}"]
        func book(_ id: String) -> String {
            version == 1
                ? #"{"$collection":"wordBooks","id":"\#(id)","title":"Book","timestamp":{"_seconds":1600000000,"_nanoseconds":0}}"#
                : #"{"$collection":"wordBooks","id":"\#(id)","title":"Book","createdAt":"2020-09-13T12:26:40Z"}"#
        }
        lines.append(book("b0"))
        lines.append(book("b1"))
        let books = ["b0", "b1", "b9", "bX", "b0"]
        for i in 0..<40 {
            let id = i == 27 ? "w3" : "w\(i)"  // w3 twice
            let state = version == 1 ? "\(i % 3)" : "\"\(["undefined", "fail", "success"][i % 3])\""
            let time = version == 1 ? #"{"_seconds":1600000000,"_nanoseconds":250000000}"# : #""2020-09-13T12:26:40.250Z""#
            var line = #"{"$collection":"words","id":"\#(id)","wordBookID":"\#(books[i % books.count])","meaningText":"m \#(i)","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":\#(state),"timestamp":\#(time)}"#
            if i == 33 { line = line.replacingOccurrences(of: #""ganaText""#, with: #""x":1,"ganaText""#) }  // unknown field
            lines.append(line)
        }
        lines.append(book("b9"))
        return Dataset(domain: "vocabulary", version: version, text: lines.joined(separator: "\n") + "\n")
    }

    static let datasets = [petStory(version: 1), petStory(version: 2), vocabulary(version: 1), vocabulary(version: 2)]

    @Test(arguments: datasets)
    func jsonLinesGiveTheGeneralPathsResults(_ dataset: Dataset) throws {
        let box = try Sandbox()
        try box.write("in.jsonl", dataset.text)
        let runs = GoldenRuns(box, golden: "ReferencingRecordsCLITests/jsonl-\(dataset.domain)-v\(dataset.version).txt")
        let validation = try runs.run(["validate", "in.jsonl"])
        // The unknown and empty ids dangle; the one read later does not.
        let dangling = validation.errors.filter { $0.contains("[dangling-reference]") }
        let noun = dataset.domain == "pet-story" ? "member" : "word book"
        let unknown = dataset.domain == "pet-story" ? ["mX", "", "m7"] : ["bX"]
        for id in unknown { #expect(dangling.contains { $0.contains("\"\(id)\" names no \(noun) of the dataset") }, "\(dataset) \(id)") }
        #expect(!dangling.contains { $0.contains("\"m9\"") || $0.contains("\"b9\"") }, "\(dataset)")
        #expect(validation.errors.contains { $0.contains("[duplicate-id]") }, "\(dataset)")
        #expect(validation.status == 1)
        try runs.run(["convert", "in.jsonl", "--to", "jsonl", "-o", "OUT"])
        try runs.run(["convert", "in.jsonl", "--to", "jsonl", "--lenient", "-o", "OUT"])
        try runs.run(["convert", "in.jsonl", "--to", "csv", "--lenient", "-o", "OUT/"])
        try runs.run(["convert", "in.jsonl", "--to", "json", "--lenient", "-o", "OUT"])
        if dataset.version == 1 {
            try runs.run(["migrate", "in.jsonl", "--to-version", "2", "--lenient", "-o", "OUT"])
            try runs.run(["migrate", "in.jsonl", "--to-version", "2", "-o", "OUT"])
        }
        runs.expectGolden()
    }

    /// The dataset as a folder of one CSV file a collection (`csv/`), the records with problems
    /// of their own left out and its dangling references kept: written from the dataset with the
    /// records they name, whose rows are then taken out.
    static func csvFolder(of dataset: Dataset, in box: Sandbox) throws -> String {
        let (referenced, ids) = dataset.domain == "pet-story" ? ("members", ["mX", "m7"]) : ("wordBooks", ["bX"])
        let added = ids.map { id in
            String(dataset.text.split(separator: "\n").first { $0.contains(#""$collection":"\#(referenced)""#) }!)
                .replacing(#/"id":"[^"]*"/#, with: #""id":"\#(id)""#)
        }
        try box.write("complete.jsonl", dataset.text + added.joined(separator: "\n") + "\n")
        _ = try box.ferry(["convert", "complete.jsonl", "--to", "csv", "--lenient", "-o", "csv/"])
        // CSV rows end in CRLF (RFC 4180), one Character to Swift.
        let rows = try box.text("csv/\(referenced).csv").split(separator: "\r\n")
        try box.write("csv/\(referenced).csv", rows.filter { row in !ids.contains { row.split(separator: ",").contains(Substring($0)) } }
            .map { $0 + "\r\n" }.joined())
        return "csv/"
    }

    @Test(arguments: datasets)
    func csvGivesTheGeneralPathsResults(_ dataset: Dataset) throws {
        let box = try Sandbox()
        _ = try Self.csvFolder(of: dataset, in: box)
        let referring = dataset.domain == "pet-story" ? "stories" : "words"
        #expect(try box.text("csv/\(referring).csv").split(whereSeparator: \.isNewline).count > 30, "\(dataset)")
        let runs = GoldenRuns(box, golden: "ReferencingRecordsCLITests/csv-\(dataset.domain)-v\(dataset.version).txt")
        let validation = try runs.run(["validate", "csv/", "--domain", dataset.domain])
        #expect(validation.errors.contains { $0.contains("[dangling-reference]") && $0.contains("column '") }, "\(dataset)")
        try runs.run(["convert", "csv/", "--domain", dataset.domain, "--to", "jsonl", "--lenient", "-o", "OUT"])
        try runs.run(["convert", "csv/", "--domain", dataset.domain, "--to", "csv", "--lenient", "-o", "OUT/"])
        if dataset.version == 1 {
            try runs.run(["migrate", "csv/", "--domain", dataset.domain, "--to-version", "2", "--lenient", "-o", "OUT"])
        }
        runs.expectGolden()
    }

    /// A vocabulary line holding a Firestore layout (a word book with its words under
    /// `__collections__`) is split by the general path; the lane, which serves flat records
    /// only, leaves it there.
    @Test func aFirestoreLayoutInALineGoesTheGeneralPath() throws {
        let box = try Sandbox()
        let text = """
            {"domain": "vocabulary", "schemaVersion": 2}
            {"$collection":"wordBooks","id":"b0","title":"Book","createdAt":"2020-09-13T12:26:40Z","__collections__":{"words":{"w1":{"meaningText":"m","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:40Z"}}}}
            {"$collection":"words","id":"w2","wordBookID":"b0","meaningText":"m","meaningImageURL":"","ganaText":"g","ganaImageURL":"","kanjiText":"k","kanjiImageURL":"","studyState":"fail","timestamp":"2020-09-13T12:26:40Z"}

            """
        try box.write("in.jsonl", text)
        let runs = GoldenRuns(box, golden: "ReferencingRecordsCLITests/firestore-layout-in-a-line.txt")
        let converted = try runs.run(["convert", "in.jsonl", "--to", "jsonl", "-o", "-"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.components(separatedBy: "\n").filter { $0.contains(#""$collection":"words""#) }.count == 2)
        runs.expectGolden()
    }
}
