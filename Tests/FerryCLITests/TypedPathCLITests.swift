import FerryTestSupport
import Foundation
import Testing

/// The typed path (issue 7) takes plain domain records from bytes to model to bytes and leaves
/// everything else to the general path: output bytes, diagnostics and exit statuses must be
/// exactly those of `--no-typed-path`, with one job or several, for inputs mixing plain records
/// with every kind of problem.
@Suite struct TypedPathCLITests {
    /// V2 notes of all four types, one per line, with a problem or an oddity on some lines.
    static func v2Notes(count: Int = 900) -> String {
        var text = "{\"domain\": \"notes\", \"schemaVersion\": 2}\n"
        for i in 0..<count {
            text += v2Line(i) + "\n"
        }
        return text
    }

    static func v2Line(_ i: Int) -> String {
        let common = "\"id\":\"n\(i)\",\"title\":\"T\\u00e9 \(i) \\\"q\\\"\",\"category\":\"red\",\"createdAt\":\"2024-01-0\(i % 9 + 1)T10:00:00\(i % 4 == 0 ? ".250" : "")Z\""
        let tail = "\"think\":\"a\\nb \(i)\",\"rating\":\(Double(i % 11) / 2),\"isFavorite\":\(i % 2 == 0)"
        var line: String
        switch i % 4 {
        case 0:
            line = "{\"$collection\":\"wineTastingNotes\",\(common),\"alcoholByVolume\":\(i % 3 == 0 ? "13.0" : "12.5"),"
                + "\"look\":{\"tint\":\"ruby\",\"note\":\"deep\"},\"smells\":[{\"label\":\"oak\"}],"
                + "\"tastes\":[{\"label\":\"body\",\"value\":0.5}],\"grape\":{\"variety\":\"Syrah\"},\(tail)}"
        case 1:
            line = "{\"$collection\":\"coffeeTastingNotes\",\(common),\"smells\":[],\"tastes\":[{\"label\":\"acidity\",\"value\":1e-1}],\(tail)}"
        case 2:
            line = "{\"$collection\":\"whiskeyTastingNotes\",\(common),\"alcoholByVolume\":40,\"look\":{\"tint\":\"amber\",\"note\":\"\"},"
                + "\"smells\":[{\"label\":\"peat\"}],\"tastes\":[],\"finish\":{\"length\":\"long\",\"note\":\"smoky\"},\(tail)}"
        default:
            line = "{\"$collection\":\"cocktailTastingNotes\",\(common),\"alcoholByVolume\":-0,\"tastes\":[],"
                + "\"ingredients\":[{\"name\":\"gin\",\"amount\":\"5 cl\"}],\"isContainsIce\":true,\(tail)}"
        }
        switch i {
        case 17: line = line.replacingOccurrences(of: "\"rating\":", with: "\"rating\":7,\"x\":")  // unknown field
        case 29: line = line.replacingOccurrences(of: "\"id\":\"n29\"", with: "\"id\":\"n1\"")  // duplicate id (coffee, as n1)
        case 41: line = "{broken"
        case 53: line = line.replacingOccurrences(of: "\"title\":\"", with: "\"title\":\"\",\"t\":\"")  // empty title, unknown
        case 65: line = line.replacingOccurrences(of: "10:00:00", with: "10:00:00.1234")  // finer than ms: lossy
        case 77: line = line.replacingOccurrences(of: "\"isFavorite\":false", with: "\"isFavorite\":null")
        case 88: line = line.replacingOccurrences(of: "\"category\":\"red\",", with: "")  // missing field
        case 99: line = line.replacingOccurrences(of: "\"id\":\"n99\",", with: "\"id\":\"n99\",\"id\":\"n99\",")  // repeated member
        case 110: line = "  " + line + "\t"
        case 121: line = line.replacingOccurrences(of: "Syrah", with: "Sy\\ud800rah")  // unpaired surrogate
        case 132: line = "[1,2]"
        default: break
        }
        return line
    }

    /// V1 notes of all four types with migration problems on some lines.
    static func v1Notes(count: Int = 900) -> String {
        var text = "{\"domain\": \"notes\", \"schemaVersion\": 1}\n"
        for i in 0..<count {
            let id = i % 97 == 5 ? "" : "\"id\":\"v\(i)\","
            let common = "\(id)\"title\":\"T \(i)\",\"category\":\"c\",\"createdAt\":\"2023-05-01T00:00:00+09:00\""
            let tail = "\"think\":\"\",\"rating\":\(i % 13 == 0 ? "5.5" : "4"),\"isFavorite\":true"
            let look = ["ruby, deep", " pale ,  thin, watery ", "", "amber"][i % 4]
            switch i % 4 {
            case 0:
                text += "{\"$collection\":\"wineNotes\",\(common),\"alcohol\":12,\"look\":\"\(look)\",\"smells\":[\"oak\",\"plum\"],"
                    + "\"tastes\":[{\"label\":\"b\",\"value\":\(i % 17 == 0 ? "1.5" : "0.25")}],\"grape\":\"Gamay\",\(tail)}\n"
            case 1:
                text += "{\"$collection\":\"coffeeNotes\",\(common),\"alcohol\":\(i % 5 == 0 ? "3" : "0"),\"look\":\"\(i % 3 == 0 ? "dark" : "")\","
                    + "\"smells\":[],\"tastes\":[],\(tail)}\n"
            case 2:
                let length = [" Long ", "short", "lingering", "MEDIUM"][i / 4 % 4]
                text += "{\"$collection\":\"whiskeyNotes\",\(common),\"alcohol\":46,\"look\":\"\(look)\",\"smells\":[],\"tastes\":[],"
                    + "\"finish\":{\"length\":\"\(length)\",\"note\":\"n\"},\(tail)}\n"
            default:
                text += "{\"$collection\":\"cocktailNotes\",\(common),\"alcohol\":8,\"look\":\"\(look)\",\"smells\":\(i % 3 == 0 ? "[\"mint\"]" : "[]"),"
                    + "\"tastes\":[],\"ingredients\":[{\"name\":\"rum\",\"amount\":\"4 cl\"}],\"isContainsIce\":false,\(tail)}\n"
            }
        }
        return text
    }

    /// Runs `arguments` (`OUT` standing for the output file) with the general path and one job,
    /// then with the typed path and 1, 2 and 3 jobs; expects the same output, stderr and status.
    private func expectSameAsGeneralPath(_ box: Sandbox, _ arguments: [String], extension ext: String = "jsonl") throws {
        var results: [(label: String, output: String, stderr: String, status: Int32)] = []
        for (label, extra) in [("general", ["--no-typed-path", "--jobs", "1"]), ("typed 1", ["--jobs", "1"]),
                               ("typed 2", ["--jobs", "2"]), ("typed 3", ["--jobs", "3"])]
        {
            let output = "out-\(results.count).\(ext)"
            let run = try box.ferry(arguments.map { $0 == "OUT" ? output : $0 } + extra)
            let written = (try? box.text(output)) ?? ""
            results.append((label, written, run.stderr.replacingOccurrences(of: output, with: "OUT"), run.status))
        }
        for result in results.dropFirst() {
            #expect(result.output == results[0].output, "\(arguments) \(result.label)")
            #expect(result.stderr == results[0].stderr, "\(arguments) \(result.label)")
            #expect(result.status == results[0].status, "\(arguments) \(result.label)")
        }
    }

    @Test func v2JSONLinesConversionAndValidation() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        let general = try box.ferry(["validate", "v2.jsonl", "--no-typed-path"])
        for code in ["unknown-field", "duplicate-id", "malformed-json", "lossy-precision", "missing-field", "out-of-range"] {
            #expect(general.stderr.contains(code), "\(code)")
        }
        try expectSameAsGeneralPath(box, ["validate", "v2.jsonl"])
        // The JSON report's locations too: a duplicate's names its record's id on both paths.
        try expectSameAsGeneralPath(box, ["validate", "v2.jsonl", "--report", "json"])
        let report = try box.ferry(["validate", "v2.jsonl", "--report", "json"])
        let duplicate = report.stdout.split(separator: "\n").filter { $0.contains(#""code": "duplicate-id""#) }
        #expect(duplicate.count == 1 && duplicate[0].contains(#", "id": "n1"}}"#), "\(duplicate)")
        try expectSameAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "jsonl", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "jsonl", "--lenient", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "jsonl", "--strict", "--lenient", "-o", "OUT"])
    }

    @Test func v1MigrationOfJSONLines() throws {
        let box = try Sandbox()
        try box.write("v1.jsonl", Self.v1Notes())
        let general = try box.ferry(["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "-o", "g.jsonl", "--no-typed-path"])
        for code in ["lossy-drop", "lossy-change", "out-of-range"] {
            #expect(general.stderr.contains(code), "\(code)")
        }
        #expect(try box.text("g.jsonl").split(separator: "\n").count > 600)
        try expectSameAsGeneralPath(box, ["migrate", "v1.jsonl", "--to-version", "2", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["migrate", "v1.jsonl", "--to-version", "2", "--strict", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["validate", "v1.jsonl"])
    }

    @Test func csvConversionAndValidation() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        // One CSV file per collection, written by the general path with the bad lines dropped.
        _ = try box.ferry(["convert", "v2.jsonl", "--to", "csv", "--lenient", "-o", "csv/", "--no-typed-path"])
        var wine = try box.text("csv/wineTastingNotes.csv")
        // A few problems of CSV's own: a quoted newline, a bad number, an empty required cell.
        wine = wine.replacingOccurrences(of: "deep", with: "\"de\nep\"", options: [], range: wine.range(of: "deep"))
        wine += "n9001,T,red,2024-01-01T00:00:00Z,abc,ruby,deep,oak,body,0.5,Syrah,x,4,true\n"
        wine += "n9002,,red,2024-01-01T00:00:00Z,12,ruby,deep,oak,body,0.5,Syrah,x,4.5,false\n"
        try box.write("wineTastingNotes.csv", wine)
        let general = try box.ferry(["validate", "wineTastingNotes.csv", "--domain", "notes", "--no-typed-path"])
        // The empty title cell is "" (SCHEMAS.md "Formats: CSV"), which a title must not be.
        for code in ["type-error", "invalid-value"] {
            #expect(general.stderr.contains(code), "\(code)")
        }
        try expectSameAsGeneralPath(box, ["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "jsonl", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "jsonl", "--lenient", "-o", "OUT"])
        try expectSameAsGeneralPath(box, ["validate", "wineTastingNotes.csv", "--domain", "notes"])
        for name in ["coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes"] {
            try box.write("\(name).csv", try box.text("csv/\(name).csv"))
            try expectSameAsGeneralPath(box, ["convert", "\(name).csv", "--domain", "notes", "--to", "jsonl", "--lenient", "-o", "OUT"])
        }
    }

    /// Writers that take values (JSON documents, XML, CSV) get the typed records' canonical values,
    /// with the general path's locations: the same bytes, diagnostics and statuses.
    @Test func writersTakingValues() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        try box.write("v1.jsonl", Self.v1Notes())
        for format in ["json", "xml"] {
            try expectSameAsGeneralPath(box, ["convert", "v2.jsonl", "--to", format, "-o", "OUT"], extension: format)
            try expectSameAsGeneralPath(box, ["convert", "v2.jsonl", "--to", format, "--lenient", "-o", "OUT"], extension: format)
            try expectSameAsGeneralPath(box, ["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "--to", format, "-o", "OUT"],
                                        extension: format)
        }
        // One collection to CSV: the wine lines, the broken ones and a duplicate id.
        let lines = Self.v2Notes().split(separator: "\n", omittingEmptySubsequences: false)
        var wine = lines.filter { $0.contains("wineTastingNotes") || $0.hasPrefix("{broken") || $0.hasPrefix("{\"domain") }
        wine.append(wine[1])
        try box.write("wine.jsonl", wine.joined(separator: "\n") + "\n")
        try expectSameAsGeneralPath(box, ["convert", "wine.jsonl", "--to", "csv", "-o", "OUT"], extension: "csv")
        try expectSameAsGeneralPath(box, ["convert", "wine.jsonl", "--to", "csv", "--lenient", "-o", "OUT"], extension: "csv")
        let made = try box.ferry(["convert", "wine.jsonl", "--to", "csv", "--lenient", "-o", "wineTastingNotes.csv", "--no-typed-path"])
        #expect(made.status == 3)
        // The header and the 223 valid wine notes, each ending in CRLF (their `think` holds an LF).
        let rows = try box.text("wineTastingNotes.csv").components(separatedBy: "\r\n")
        #expect(rows.count == 1 + 223 + 1 && rows.last == "", "\(rows.count)")
        #expect(rows[1].hasPrefix("n0,") && rows[223].hasPrefix("n896,"), "\(rows[1].prefix(8)) \(rows[223].prefix(8))")
        try expectSameAsGeneralPath(box, ["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "csv", "-o", "OUT"],
                                    extension: "csv")
        try expectSameAsGeneralPath(box, ["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "json", "-o", "OUT"],
                                    extension: "json")
    }

    /// Runs `arguments` (`OUT/` standing for an output folder) with the general path and one job,
    /// then with the typed path and 1, 2 and 3 jobs; expects the same files with the same bytes,
    /// stdout, stderr and status.
    /// `files`: the names the general path must have written (nil: not checked).
    private func expectSameFolderAsGeneralPath(_ box: Sandbox, _ arguments: [String], files expected: [String]? = nil,
                                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var results: [(label: String, files: [String: [UInt8]], stdout: String, stderr: String, status: Int32)] = []
        for (label, extra) in [("general", ["--no-typed-path", "--jobs", "1"]), ("typed 1", ["--jobs", "1"]),
                               ("typed 2", ["--jobs", "2"]), ("typed 3", ["--jobs", "3"])]
        {
            let folder = "out-\(results.count)"
            let run = try box.ferry(arguments.map { $0.replacingOccurrences(of: "OUT", with: folder) } + extra)
            var files: [String: [UInt8]] = [:]
            for name in try box.files(under: folder) { files[name] = try box.bytes(folder + "/" + name) }
            results.append((label, files, run.stdout.replacingOccurrences(of: folder, with: "OUT"),
                            run.stderr.replacingOccurrences(of: folder, with: "OUT"), run.status))
        }
        if let expected {
            #expect(results[0].files.keys.sorted() == expected, "\(arguments)", sourceLocation: sourceLocation)
        }
        for result in results.dropFirst() {
            #expect(result.files.keys.sorted() == results[0].files.keys.sorted(), "\(arguments) \(result.label)", sourceLocation: sourceLocation)
            for (name, bytes) in results[0].files {
                #expect(result.files[name] == bytes, "\(arguments) \(result.label) \(name)", sourceLocation: sourceLocation)
            }
            #expect(result.stdout == results[0].stdout, "\(arguments) \(result.label)", sourceLocation: sourceLocation)
            #expect(result.stderr == results[0].stderr, "\(arguments) \(result.label)", sourceLocation: sourceLocation)
            #expect(result.status == results[0].status, "\(arguments) \(result.label)", sourceLocation: sourceLocation)
        }
    }

    /// CSV writers take the typed records' leaf streams: one file per collection in a folder (all
    /// four notes types), lists empty in the first records and long later, strings that need
    /// quotes or the csv-safe prefix, other delimiters, a first record that is invalid (no writer
    /// is open when the batches start), and one file taking several collections.
    @Test func csvWritersTakingLeafStreams() throws {
        let box = try Sandbox()
        var lines = Self.v2Notes().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longer lists later on, tricky strings here and there.
        for k in stride(from: 300, to: 900, by: 7) {
            lines[k] = lines[k].replacingOccurrences(of: "\"smells\":[{\"label\":\"oak\"}]",
                                                     with: "\"smells\":[{\"label\":\"=1+2\"},{\"label\":\"a,b\"},{\"label\":\"\\r\\n\"}]")
            lines[k] = lines[k].replacingOccurrences(of: "\"tastes\":[]", with: "\"tastes\":[{\"label\":\"-x\",\"value\":0.25},{\"label\":\"@y\",\"value\":1}]")
        }
        for k in stride(from: 2, to: 900, by: 13) {
            lines[k] = lines[k].replacingOccurrences(of: "\"category\":\"red\"", with: "\"category\":\"\"")
        }
        try box.write("v2.jsonl", lines.joined(separator: "\n"))
        try box.write("v1.jsonl", Self.v1Notes())
        let notesFiles = ["cocktailTastingNotes.csv", "coffeeTastingNotes.csv", "whiskeyTastingNotes.csv", "wineTastingNotes.csv"]
        for extra in [[], ["--lenient"], ["--csv-safe", "--lenient"], ["--delimiter", "tab", "--lenient"], ["--strict", "--lenient"]] {
            // Without --lenient the errors leave nothing written; with it, one file per collection.
            let files = extra.contains("--lenient") ? notesFiles : []
            try expectSameFolderAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "csv", "-o", "OUT/"] + extra, files: files)
            try expectSameFolderAsGeneralPath(box, ["migrate", "v1.jsonl", "--to-version", "2", "--to", "csv", "-o", "OUT/"] + extra,
                                              files: files)
        }
        try expectSameFolderAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "tsv", "-o", "OUT/", "--lenient"])
        try expectSameFolderAsGeneralPath(box, ["convert", "v1.jsonl", "--to", "csv", "-o", "OUT/", "--lenient"])
        // One file, several collections: their columns merged in it, as the general path merges them.
        try expectSameFolderAsGeneralPath(box, ["convert", "v2.jsonl", "--to", "csv", "-o", "OUT/x.csv", "--lenient"])
        // The first record invalid: the batches start before any writer is open.
        lines[1] = "{broken"
        try box.write("first.jsonl", lines.joined(separator: "\n"))
        try expectSameFolderAsGeneralPath(box, ["convert", "first.jsonl", "--to", "csv", "-o", "OUT/", "--lenient"])
        // Standard output, one collection.
        try box.write("wine.jsonl", lines.filter { $0.contains("wineTastingNotes") || $0.hasPrefix("{\"domain") }.joined(separator: "\n"))
        try expectSameFolderAsGeneralPath(box, ["convert", "wine.jsonl", "--to", "csv", "--lenient", "--csv-safe"])
    }
}
