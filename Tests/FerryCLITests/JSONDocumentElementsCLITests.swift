import FerryTestSupport
import Foundation
import Testing

/// JSON documents written from elements the typed lane rendered on its workers give the bytes,
/// diagnostics and status of the general path (the goldens under
/// `Fixtures/JSONDocumentElementsCLITests`): every domain, from JSON Lines,
/// a JSON document and a CSV folder, converted at V1 and V2 and migrated from V1 to V2, with one
/// job and two, with and without `--lenient`. The records hold escapes, non-ASCII text, empty
/// lists and absent optional fields; late records are invalid (a duplicated id, an unknown field).
@Suite struct JSONDocumentElementsCLITests {
    struct Case: CustomStringConvertible {
        let domain: String
        /// `jsonl`, `json` or `csv` (a folder of one file a collection).
        let input: String
        /// `convert` at `version`, or `migrate` from V1 to V2.
        let command: String
        let version: Int
        let jobs: Int
        var description: String { "\(domain) \(input) \(command) v\(version) jobs \(jobs)" }
    }

    static let cases: [Case] = ["notes", "pet-story", "vocabulary"].flatMap { domain in
        ["jsonl", "json", "csv"].flatMap { input in
            [("convert", 1), ("convert", 2), ("migrate", 1)].flatMap { command, version in
                [1, 2].map { Case(domain: domain, input: input, command: command, version: version, jobs: $0) }
            }
        }
    }

    /// Texts with escapes and non-ASCII characters, in turn.
    static func text(_ i: Int) -> String {
        [#"T\u00e9 \#(i) \"q\" back\\slash /"#, "日本語 🍷 한국어 \(i)", #"tab\there\nnew line \u0001 \#(i)"#, "plain \(i)"][i % 4]
    }

    /// A V1 dataset of `domain` as JSON Lines, every record valid.
    static func v1Lines(_ domain: String) -> String {
        var lines = ["{\"domain\": \"\(domain)\", \"schemaVersion\": 1}"]
        switch domain {
        case "notes":
            let kinds = ["wineNotes", "coffeeNotes", "whiskeyNotes", "cocktailNotes"]
            for i in 0..<300 {
                let smells = i % 3 == 0 ? "[]" : #"["oak","\#(text(i))"]"#
                let tastes = i % 5 == 0 ? "[]" : #"[{"label":"body","value":0.\#(i % 10)5},{"label":"\#(text(i + 1))","value":1}]"#
                var line = #"{"$collection":"\#(kinds[i % 4])","id":"n\#(i)","title":"\#(text(i))","category":"red","createdAt":"2024-01-0\#(i % 9 + 1)T10:00:00\#(i % 4 == 0 ? ".250" : "")Z","alcohol":\#(i % 7 == 0 ? "12.5" : "13"),"look":"\#(i % 2 == 0 ? "ruby, deep" : "")","smells":\#(smells),"tastes":\#(tastes),"#
                switch i % 4 {
                case 0: line += #""grape":"\#(text(i + 2))","#
                case 2: line += #""finish":{"length":"long","note":"\#(text(i + 3))"},"#
                case 3: line += #""ingredients":\#(i % 8 == 3 ? "[]" : #"[{"name":"gin","amount":"5 cl"}]"#),"isContainsIce":true,"#
                default: break
                }
                lines.append(line + #""think":"\#(text(i + 1))","rating":\#(Double(i % 11) / 2),"isFavorite":\#(i % 2 == 0)}"#)
            }
        case "pet-story":
            lines.append(#"{"$collection":"profiles","id":"p1","name":"\#(text(1))","createdAt":"2023-01-10T10:00:00Z","lastUpdatedAt":"2024-06-01T12:00:00Z"}"#)
            for i in 0..<20 {
                lines.append(#"{"$collection":"members","id":"m\#(i)","name":"\#(text(i))","since":"2010-04-03","birthDate":"2010-01-01T15:00:00Z","type":"\#(["cat", "dog", "bird"][i % 3])","sex":"\#(i % 2 == 0 ? "male" : "female")","bio":"\#(text(i + 2))","createdAt":"2023-01-10T10:05:00Z"}"#)
            }
            for i in 0..<300 {
                let tags = [#"[]"#, #"["m1"]"#, #"["m0","m3"]"#][i % 3]
                let song = i % 4 == 0 ? #""songId":"\#(text(i))","# : ""
                let place = i % 3 == 0 ? "" : #""lat":\#(Double(i) / 8),"lng":-2.5,"#
                lines.append(#"{"$collection":"stories","id":"s\#(i)","caption":"\#(text(i))","createdAt":"2024-01-01T08:00:00Z","mediaContentIds":[],\#(song)\#(place)"taggedMemberIds":\#(tags)}"#)
            }
        default:
            for b in 0..<3 {
                lines.append(#"{"$collection":"wordBooks","id":"b\#(b)","title":"\#(text(b))","timestamp":{"_seconds":1600000000,"_nanoseconds":0}}"#)
            }
            for i in 0..<300 {
                let image = i % 3 == 0 ? "" : #""meaningImageURL":"https://x.example/\#(i).png","#
                lines.append(#"{"$collection":"words","id":"w\#(i)","wordBookID":"b\#(i % 3)","meaningText":"\#(text(i))",\#(image)"ganaText":"\#(text(i + 1))","ganaImageURL":"","kanjiText":"漢字 \#(i)","kanjiImageURL":"","studyState":\#(i % 3),"timestamp":{"_seconds":\#(1_600_000_000 + i),"_nanoseconds":\#(i % 2 == 0 ? 0 : 250_000_000)}}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the case's input (`in.jsonl`, `in.json` or `csv/`), made from the V1 lines;
    /// `invalid`: with late invalid records, a duplicate of a collection's first
    /// record and (not in CSV, whose header names the fields) a record with an unknown field.
    static func writeInput(_ testCase: Case, invalid: Bool, in box: Sandbox) throws -> String {
        try box.write("v1.jsonl", v1Lines(testCase.domain))
        var source = "v1.jsonl"
        if testCase.version == 2 {
            let migrated = try box.ferry(["migrate", "v1.jsonl", "--to-version", "2", "--to", "jsonl", "-o", "v2.jsonl"])
            #expect(migrated.status == 0, "\(migrated.stderr)")
            source = "v2.jsonl"
        }
        let lines = try box.text(source).split(separator: "\n").map(String.init)
        let last = try #require(lines.last)
        let collection = String(last.dropFirst(16).prefix { $0 != "\"" })
        let first = try #require(lines.first { $0.hasPrefix(#"{"$collection":"\#(collection)","#) })
        let unknown = first.replacingOccurrences(of: #""id":""#, with: #""zzz":1,"id":"x"#)
        let late = invalid ? [first, unknown] : []
        switch testCase.input {
        case "jsonl":
            try box.write("in.jsonl", (lines + late).joined(separator: "\n") + "\n")
            return "in.jsonl"
        case "json":
            let made = try box.ferry(["convert", source, "--to", "json", "-o", "plain.json"])
            #expect(made.status == 0, "\(made.stderr)")
            var document = try box.text("plain.json")
            let close = try #require(document.range(of: "\n  ]", options: .backwards))
            let element = { (line: String) in "{" + line.dropFirst(16 + collection.utf8.count + 2) }
            document.replaceSubrange(close.lowerBound..<close.lowerBound, with: late.map { ",\n    " + element($0) }.joined())
            try box.write("in.json", document)
            return "in.json"
        default:
            let made = try box.ferry(["convert", source, "--to", "csv", "-o", "csv/"])
            #expect(made.status == 0, "\(made.stderr)")
            let file = "csv/\(collection).csv"
            let rows = try box.text(file).components(separatedBy: "\r\n")
            if invalid { try box.write(file, try box.text(file) + rows[1] + "\r\n") }
            return "csv/"
        }
    }

    @Test(arguments: cases)
    func renderedElementsGiveTheGeneralPathsDocument(_ testCase: Case) throws {
        // Valid records, and late invalid ones with and without --lenient (with it, records that
        // name others in pet-story and vocabulary wait for those they name: the lane is not used).
        // One golden for both numbers of jobs: they give the same.
        let golden = "JSONDocumentElementsCLITests/\(testCase.domain)-\(testCase.input)-\(testCase.command)-v\(testCase.version).txt"
        let runs = GoldenRuns(try Sandbox(), golden: golden, jobs: ["\(testCase.jobs)"])
        for (invalid, lenient) in [(false, false), (true, false), (true, true)] {
            let box = try Sandbox()
            runs.box = box
            let input = try Self.writeInput(testCase, invalid: invalid, in: box)
            runs.note("late invalid records: \(invalid)")
            let command = testCase.command == "migrate"
                ? ["migrate", input, "--to-version", "2", "-o", "OUT.json"] : ["convert", input, "--to", "json", "-o", "OUT.json"]
            let run = try runs.run(command + (lenient ? ["--lenient"] : []))
            let document = box.exists(runs.recorded("OUT.json")) ? try box.bytes(runs.recorded("OUT.json")) : nil
            // The late duplicate is an error: the document is written with --lenient only, less
            // the invalid records.
            #expect(run.status == (invalid ? 1 : 0), "\(testCase) invalid \(invalid) lenient \(lenient): \(run.stderr)")
            #expect(run.stderr.contains("[duplicate-id]") == invalid, "\(testCase)")
            #expect((document != nil) == (lenient || !invalid), "\(testCase) invalid \(invalid) lenient \(lenient)")
            if let document {
                #expect(document.count > 30_000, "\(testCase)")
                let text = String(decoding: document, as: UTF8.self)
                #expect(text.contains("日本語 🍷"), "\(testCase)")
                #expect(text.contains(#"\"q\" back\\slash /"#), "\(testCase)")
                #expect(text.contains(#"tab\there\nnew line \u0001"#), "\(testCase)")
                // Vocabulary's records hold no list.
                #expect(text.contains(": []") == (testCase.domain != "vocabulary"), "\(testCase)")
            }
        }
        runs.expectGolden()
    }
}
