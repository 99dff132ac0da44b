import FerryTestSupport
import Foundation
import Testing

/// `ferry stats` counts what a separate Python count of the same file finds (Tests/FerryCLITests/
/// Fixtures/stats_count.py), on a generated file, on a multi-collection notes dataset and on the
/// CQI coffee CSV; and prints a readable table.
@Suite struct StatsCLITests {
    /// `stats --report json` of `input` and the Python count of `counted` (default `input`), both
    /// parsed; nil (after printing why) when python3 is absent.
    private static func compare(_ box: Sandbox, _ input: String, counted: String? = nil, ferry extra: [String] = [],
                                python pythonArguments: [String] = []) throws -> (ferry: NSArray, python: NSArray)? {
        guard let python = toolOnPath("python3") else {
            print("skipped: python3 absent")
            return nil
        }
        let run = try box.ferry(["stats", input, "--report", "json"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? NSDictionary
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Fixtures.url("stats_count.py").path, box.url.appendingPathComponent(counted ?? input).path] + pythonArguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let counted = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        return (report?["collections"] as? NSArray ?? [], counted?["collections"] as? NSArray ?? [])
    }

    /// Compares field by field, so a difference names its field.
    private static func expectSame(_ result: (ferry: NSArray, python: NSArray), _ label: String) {
        #expect(result.ferry.count == result.python.count, "\(label): collections")
        for (ferry, python) in zip(result.ferry, result.python) {
            guard let ferry = ferry as? NSDictionary, let python = python as? NSDictionary else { continue }
            #expect(ferry["name"] as? String == python["name"] as? String, "\(label)")
            #expect(ferry["records"] as? Int == python["records"] as? Int, "\(label) \(python["name"] ?? "")")
            let ferryFields = ferry["fields"] as? [NSDictionary] ?? []
            let pythonFields = python["fields"] as? [NSDictionary] ?? []
            #expect(ferryFields.map { $0["field"] as? String } == pythonFields.map { $0["field"] as? String }, "\(label) field order")
            for (f, p) in zip(ferryFields, pythonFields) {
                guard f["distinctExact"] as? Bool == false, let estimate = f["distinct"] as? Int, let exact = p["distinct"] as? Int else {
                    #expect(f == p, "\(label) \(p["field"] ?? "")")
                    continue
                }
                // An estimate: within three standard errors (3 x 0.81%) of the exact count, the rest exact.
                #expect(abs(estimate - exact) <= exact * 243 / 10_000, "\(label) \(p["field"] ?? ""): \(estimate) for \(exact)")
                let rest = { (d: NSDictionary) in (d.mutableCopy() as? NSMutableDictionary).map { $0.removeObject(forKey: "distinct"); return $0 } }
                #expect(rest(f) == rest(p), "\(label) \(p["field"] ?? "")")
            }
        }
    }

    /// A generated schema-free JSON Lines file of two collections with nulls, missing fields,
    /// nested objects, lists of strings and of objects, numbers, instants and enums.
    static func generated(_ count: Int) -> String {
        var random = SplitMix(seed: 20)
        let kinds = ["red", "white", "rosé", "sparkling"]
        var lines: [String] = []
        for index in 0..<count {
            let collection = random.next(5) == 0 ? "tastings" : "bottles"
            var members = ["\"$collection\":\"\(collection)\"", "\"id\":\"b-\(index)\""]
            switch random.next(10) {
            case 0: members.append("\"kind\":null")
            case 1: break
            default: members.append("\"kind\":\"\(kinds[random.next(kinds.count)])\"")
            }
            if random.next(4) != 0 { members.append("\"score\":\(random.next(3) == 0 ? String(random.next(100)) : String(Double(random.next(400)) / 4))") }
            let day = 1 + random.next(28)
            let hour = random.next(24)
            // A calendar day now and then among the instants: one range for both.
            let time = random.next(5) == 0 ? "" : "T\(hour < 10 ? "0" : "")\(hour):15:00Z"
            members.append("\"at\":\"2024-0\(1 + random.next(9))-\(day < 10 ? "0" : "")\(day)\(time)\"")
            let tags = (0..<random.next(4)).map { _ in "\"t\(random.next(12))\"" }
            members.append("\"tags\":[\(tags.joined(separator: ","))]")
            if random.next(3) != 0 {
                let notes = (0..<(1 + random.next(3))).map { _ in
                    random.next(6) == 0 ? "{\"label\":\"x\"}" : "{\"label\":\"l\(random.next(7))\",\"value\":\(Double(random.next(11)) / 10)}"
                }
                members.append("\"notes\":[\(notes.joined(separator: ","))]")
            }
            if random.next(2) == 0 { members.append("\"origin\":{\"country\":\"c\(random.next(30))\",\"ok\":\(random.next(2) == 0)}") }
            members.append("\"text\":\"\(String(repeating: "é", count: random.next(80)))\"")
            lines.append("{" + members.joined(separator: ",") + "}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A field of calendar days and instants (pet-story's `since` and `birthDate`) has one range:
    /// a day counts as its midnight UTC.
    @Test func daysAndInstantsShareARange() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1.json")
        let run = try box.ferry(["stats", "pet-story-v1.json", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"{"field": "/since", "kinds": {"string": 2}, "count": 2, "nulls": 0, "missing": 0, "distinct": 2, "distinctExact": true, "min": "2021-04-03", "max": "2022-08-31T15:00:00Z","#), "\(run.stdout)")
        #expect(run.stdout.contains(#"{"field": "/birthDate", "kinds": {"string": 2}, "count": 2, "nulls": 0, "missing": 0, "distinct": 2, "distinctExact": true, "min": "2020-12-24T15:00:00Z", "max": "2022-05-05","#), "\(run.stdout)")
    }

    @Test func aGeneratedFileCountsAsPythonCountsIt() throws {
        let box = try Sandbox()
        try box.write("gen.jsonl", Self.generated(3000))
        guard let result = try Self.compare(box, "gen.jsonl") else { return }
        #expect(result.ferry.count == 2)
        Self.expectSame(result, "gen.jsonl")
    }

    /// Wine notes made by the benchmark's generator (`../shared/bench/gen_notes.py`), read
    /// through the domain: 20,000 by default, `FERRY_STATS_RECORDS=1000000` for the million of
    /// the benchmark (ids, titles and instants are then HyperLogLog estimates, checked within 3
    /// standard errors; every other figure exact).
    @Test func generatedNotesCountAsPythonCountsThem() throws {
        let count = ProcessInfo.processInfo.environment["FERRY_STATS_RECORDS"].flatMap { Int($0) } ?? 20_000
        guard let folder = Fixtures.generatedNotes(count, version: 2) else {
            print("skipped: ../shared/bench/gen_notes.py or python3 absent")
            return
        }
        let box = try Sandbox()
        try FileManager.default.createSymbolicLink(at: box.url.appendingPathComponent("notes.jsonl"),
                                                   withDestinationURL: folder.appendingPathComponent("notes.jsonl"))
        guard let result = try Self.compare(box, "notes.jsonl") else { return }
        #expect((result.ferry.firstObject as? NSDictionary)?["records"] as? Int == count)
        Self.expectSame(result, "generated notes")
    }

    /// A notes dataset of several collections, as Ferry writes it at V2 (so the records counted,
    /// read through the domain, are the file's), counted against Python's count of that file.
    @Test func multiCollectionNotesCountAsPythonCountsThem() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "notes.json", "--quiet"]).status == 0)
        guard let result = try Self.compare(box, "notes.json") else { return }
        #expect(result.ferry.count > 1)
        Self.expectSame(result, "notes.json")
        // Migrated on the fly, the V1 file gives the same statistics as its migrated copy.
        guard let migrated = try Self.compare(box, "notes-v1.json", counted: "notes.json", ferry: ["--to-version", "2"]) else { return }
        Self.expectSame(migrated, "notes-v1.json --to-version 2")
    }

    /// The CQI arabica CSV, schema-free (every cell a string), against Python's csv module.
    @Test func theCQICoffeeCSVCountsAsPythonCountsIt() throws {
        guard let corpus = Fixtures.corpus("domain-tasting-coffee-cqi") else {
            print("skipped: corpus domain-tasting-coffee-cqi absent")
            return
        }
        let box = try Sandbox()
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("arabica_data_cleaned.csv"), to: box.url.appendingPathComponent("arabica.csv"))
        guard let result = try Self.compare(box, "arabica.csv", python: ["--csv"]) else { return }
        Self.expectSame(result, "arabica.csv")
        let fields = (result.ferry.firstObject as? NSDictionary)?["fields"] as? [NSDictionary] ?? []
        #expect((result.ferry.firstObject as? NSDictionary)?["records"] as? Int == 1311)
        let country = fields.first { $0["field"] as? String == "/Country/of/Origin" }
        #expect((country?["top"] as? [NSDictionary])?.first == ["value": "Mexico", "count": 236] as NSDictionary)
    }

    /// Through its mapping, the CQI import is coffee notes with typed ratings and instants.
    @Test func theCQICoffeeImportThroughItsMapping() throws {
        guard let corpus = Fixtures.corpus("domain-tasting-coffee-cqi") else {
            print("skipped: corpus domain-tasting-coffee-cqi absent")
            return
        }
        let box = try Sandbox()
        try box.copySample("mappings/cqi-arabica.json")
        let input = corpus.appendingPathComponent("arabica_data_cleaned.csv").path
        let run = try box.ferry(["stats", input, "--map", "mappings/cqi-arabica.json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        expectGolden(run.stdout.replacingOccurrences(of: input, with: "arabica_data_cleaned.csv"), "stats-cqi-arabica.txt")
    }

    /// The text table of a small dataset, whole.
    @Test func theTextTable() throws {
        let box = try Sandbox()
        try box.write("notes.json", SelectionCLITests.notes)
        let run = try box.ferry(["stats", "notes.json"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout == """
            input: notes.json (json, notes v2): 2 records

            wineTastingNotes: 2 records
              FIELD             KINDS   COUNT  NULL  MISSING  DISTINCT  MIN                   MAX                   LENGTH  ITEMS           TOP
              /id               string  2      0     0        2                                                     3..3
              /title            string  2      0     0        2                                                     5..8
              /category         string  2      0     0        2                                                     3..5
              /createdAt        string  2      0     0        2         2024-05-01T09:30:00Z  2024-05-02T10:00:00Z  20..20
              /alcoholByVolume  number  2      0     0        2         12                    13.5
              /look             object  2      0     0        0
              /look/tint        string  2      0     0        2                                                     4..5
              /look/note        string  2      0     0        2                                                     0..5
              /smells           list    2      0     0        0                                                             0..1 mean 0.50
              /smells/*         object  1      0     0        0
              /smells/*/label   string  1      0     0        1                                                     6..6
              /tastes           list    2      0     0        0                                                             1..2 mean 1.50
              /tastes/*         object  3      0     0        0
              /tastes/*/label   string  3      0     0        2                                                     4..7                    "acidity" 2, "body" 1
              /tastes/*/value   number  3      0     0        3         0.4                   0.9
              /grape            object  2      0     0        0
              /grape/variety    string  2      0     0        2                                                     8..10
              /think            string  2      0     0        2                                                     0..3
              /rating           number  2      0     0        2         3.5                   4
              /isFavorite       bool    2      0     0        2

            """)
    }

    /// The heading counts errors, not records, in every report form: one record with two
    /// errors is two errors and one record left out.
    @Test(arguments: ["text", "html"]) func theHeadingCountsErrors(report: String) throws {
        let box = try Sandbox()
        // w-2 twice; the second also rated out of range: two errors, one record left out.
        let notes = SelectionCLITests.notes.replacingOccurrences(of: #""rating": 3.5, "isFavorite": false}"#, with: #""rating": 3.5, "isFavorite": false}, {"id": "w-2", "title": "Again", "category": "white", "createdAt": "2024-05-02T10:00:00Z", "alcoholByVolume": 12, "look": {"tint": "straw", "note": ""}, "smells": [], "tastes": [], "grape": {"variety": "Riesling"}, "think": "", "rating": 9, "isFavorite": false}"#)
        try box.write("notes.json", notes)
        let run = try box.ferry(["stats", "notes.json", "--report", report])
        #expect(run.status == 1, "\(run.stderr)")
        let expected = report == "text"
            ? "input: notes.json (json, notes v2): 2 records of 3 read (2 errors: invalid records are left out; `ferry validate` lists them)\n"
            : "2 errors: invalid records are left out (<code>ferry validate</code> lists them)"
        #expect(run.stdout.contains(expected), "\(run.stdout)")
    }

    /// Past 100,000 distinct values a field's count is the HyperLogLog estimate: within its
    /// stated error (0.81%; here 0.40% under), the same on every run; no most frequent values.
    @Test func manyDistinctValuesAreEstimated() throws {
        let box = try Sandbox()
        try box.write("many.jsonl", (0..<120_000).map { #"{"v":"k\#($0)","e":"\#($0 % 2 == 0 ? "a" : "b")"}"# }.joined(separator: "\n") + "\n")
        let run = try box.ferry(["stats", "many.jsonl", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? NSDictionary
        let fields = ((report?["collections"] as? [NSDictionary])?.first?["fields"] as? [NSDictionary]) ?? []
        #expect(fields.map { $0["distinct"] as? Int } == [119_519, 2])
        #expect(fields.map { $0["distinctExact"] as? Bool } == [false, true])
        #expect((fields.first?["top"] as? [Any])?.isEmpty == true)
        #expect(abs(119_519 - 120_000) < Int(0.0081 * 120_000))
        let text = try box.ferry(["stats", "many.jsonl"])
        #expect(text.stdout.contains("  /v     string  120000  0     0        ~119519"), "\(text.stdout)")
    }

    /// A bundle's media by kind and size.
    @Test func aBundleListsItsMedia() throws {
        let box = try Sandbox()
        try box.copySample("pet-story-v1-documents", to: "documents")
        #expect(try box.ferry(["migrate", "documents", "--to-version", "2", "-o", "pets.tar", "--quiet"]).status == 0)
        let run = try box.ferry(["stats", "pets.tar", "--report", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? NSDictionary
        #expect(report?["media"] as? NSDictionary == [
            "files": 6, "bytes": 3402,
            "byKind": ["photo": ["files": 5, "bytes": 1864], "video": ["files": 1, "bytes": 1538], "audio": ["files": 0, "bytes": 0], "unknown": ["files": 0, "bytes": 0]],
        ] as NSDictionary)
    }

    /// `--report-file` writes what standard output would get, complete or not at all, and never
    /// over the input.
    @Test(arguments: ["text", "json", "html"]) func theReportGoesToAFile(report: String) throws {
        let box = try Sandbox()
        try box.write("notes.json", SelectionCLITests.notes)
        let printed = try box.ferry(["stats", "notes.json", "--report", report])
        #expect(printed.status == 0, "\(printed.stderr)")
        let filed = try box.ferry(["stats", "notes.json", "--report", report, "--report-file", "out/stats.\(report)"])
        #expect(filed.status == 0, "\(filed.stderr)")
        #expect(filed.stdout == "")
        #expect(try box.text("out/stats.\(report)") == printed.stdout)
        let over = try box.ferry(["stats", "notes.json", "--report", report, "--report-file", "notes.json"])
        #expect(over.status == 2)
        #expect(over.stderrLines == ["ferry stats: error: the output 'notes.json' is the input 'notes.json'; inputs are never modified [usage]"])
        #expect(try box.text("notes.json") == SelectionCLITests.notes)
    }

    /// An input that cannot be read gives no statistics: a report file is left as it was.
    @Test func anUnreadableInputLeavesTheReportFile() throws {
        let box = try Sandbox()
        try box.write("old.json", "{}\n")
        for report in ["text", "json", "html"] {
            let run = try box.ferry(["stats", "missing.json", "--report", report, "--report-file", "old.json"])
            #expect(run.status == 3)
            #expect(run.stderrLines.first == "missing.json: error: no such file or folder [unreadable-input]")
            #expect(try box.text("old.json") == "{}\n")
        }
        let dash = try box.ferry(["stats", "old.json", "--schema-free", "--report", "json", "--report-file", "-"])
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(dash.stdout.hasPrefix("{"))
        #expect(!FileManager.default.fileExists(atPath: box.url.appendingPathComponent("-").path))
    }

    /// `--report-file` naming a folder is a usage error before anything is made or read.
    @Test(arguments: ["stats", "validate", "convert"], ["out/", "."])
    func aReportFileThatIsAFolderIsRefused(command: String, folder: String) throws {
        let box = try Sandbox()
        try box.write("notes.json", SelectionCLITests.notes)
        let run = try box.ferry([command, "notes.json", "--report", "json", "--report-file", folder] + (command == "convert" ? ["-o", "n.jsonl"] : []))
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "ferry \(command): error: --report-file needs a file name, not the folder '\(folder)'")
        #expect(!FileManager.default.fileExists(atPath: box.url.appendingPathComponent("out").path))
        #expect(!FileManager.default.fileExists(atPath: box.url.appendingPathComponent("n.jsonl").path))
    }

    /// A folder of datasets names the files that are none, as validate does.
    @Test func aFolderNamesTheFilesItIgnores() throws {
        let box = try Sandbox()
        try box.write("backups/a/notes.json", SelectionCLITests.notes)
        try box.write("backups/b/notes.json", SelectionCLITests.notes)
        try box.write("backups/README.txt", "hi\n")
        let run = try box.ferry(["stats", "backups"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == ["backups: note: not part of any dataset, ignored: 'README.txt' [assumption]"])
        #expect(try box.ferry(["validate", "backups"]).stderrLines.first == run.stderrLines.first)
    }

    /// Bad options are usage errors.
    @Test func anUnknownReportIsAUsageError() throws {
        let box = try Sandbox()
        try box.write("notes.json", SelectionCLITests.notes)
        let run = try box.ferry(["stats", "notes.json", "--report", "junit"])
        #expect(run.status == 2)
        #expect(run.stderrLines.first == "ferry stats: error: unknown report format 'junit' for stats; use text, json or html")
    }
}
