import FerryTestSupport
import Foundation
import Testing

/// The typed path (issue 7) takes plain domain records from bytes to model to bytes and leaves
/// everything else to the general path: output bytes, diagnostics and exit statuses must be
/// exactly those of the general path (the goldens under `Fixtures/TypedPathCLITests`), with one
/// job or several, for inputs mixing plain records with every kind of problem.
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

    @Test func v2JSONLinesConversionAndValidation() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        let runs = GoldenRuns(box, golden: "TypedPathCLITests/v2-jsonl.txt")
        let validation = try runs.run(["validate", "v2.jsonl"])
        for code in ["unknown-field", "duplicate-id", "malformed-json", "lossy-precision", "missing-field", "out-of-range"] {
            #expect(validation.stderr.contains(code), "\(code)")
        }
        // The JSON report's locations too: a duplicate's names its record's id.
        let report = try runs.run(["validate", "v2.jsonl", "--report", "json"])
        let duplicate = report.stdout.split(separator: "\n").filter { $0.contains(#""code": "duplicate-id""#) }
        #expect(duplicate.count == 1 && duplicate[0].contains(#", "id": "n1"}}"#), "\(duplicate)")
        try runs.run(["convert", "v2.jsonl", "--to", "jsonl", "-o", "OUT.jsonl"])
        try runs.run(["convert", "v2.jsonl", "--to", "jsonl", "--lenient", "-o", "OUT.jsonl"])
        try runs.run(["convert", "v2.jsonl", "--to", "jsonl", "--strict", "--lenient", "-o", "OUT.jsonl"])
        runs.expectGolden()
    }

    @Test func v1MigrationOfJSONLines() throws {
        let box = try Sandbox()
        try box.write("v1.jsonl", Self.v1Notes())
        let runs = GoldenRuns(box, golden: "TypedPathCLITests/v1-jsonl.txt")
        try runs.run(["migrate", "v1.jsonl", "--to-version", "2", "-o", "OUT.jsonl"])
        let lenient = try runs.run(["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "-o", "OUT.jsonl"])
        for code in ["lossy-drop", "lossy-change", "out-of-range"] {
            #expect(lenient.stderr.contains(code), "\(code)")
        }
        #expect(try box.text(runs.recorded("OUT.jsonl")).split(separator: "\n").count == 819)
        try runs.run(["migrate", "v1.jsonl", "--to-version", "2", "--strict", "-o", "OUT.jsonl"])
        try runs.run(["validate", "v1.jsonl"])
        runs.expectGolden()
    }

    @Test func csvConversionAndValidation() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        // One CSV file per collection, the bad lines dropped.
        _ = try box.ferry(["convert", "v2.jsonl", "--to", "csv", "--lenient", "-o", "csv/"])
        var wine = try box.text("csv/wineTastingNotes.csv")
        // A few problems of CSV's own: a quoted newline, a bad number, an empty required cell.
        wine = wine.replacingOccurrences(of: "deep", with: "\"de\nep\"", options: [], range: wine.range(of: "deep"))
        wine += "n9001,T,red,2024-01-01T00:00:00Z,abc,ruby,deep,oak,body,0.5,Syrah,x,4,true\n"
        wine += "n9002,,red,2024-01-01T00:00:00Z,12,ruby,deep,oak,body,0.5,Syrah,x,4.5,false\n"
        try box.write("wineTastingNotes.csv", wine)
        let runs = GoldenRuns(box, golden: "TypedPathCLITests/csv.txt")
        let validation = try runs.run(["validate", "wineTastingNotes.csv", "--domain", "notes"])
        // The empty title cell is "" (SCHEMAS.md "Formats: CSV"), which a title must not be.
        for code in ["type-error", "invalid-value"] {
            #expect(validation.stderr.contains(code), "\(code)")
        }
        try runs.run(["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "jsonl", "-o", "OUT.jsonl"])
        try runs.run(["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "jsonl", "--lenient", "-o", "OUT.jsonl"])
        for name in ["coffeeTastingNotes", "whiskeyTastingNotes", "cocktailTastingNotes"] {
            try box.write("\(name).csv", try box.text("csv/\(name).csv"))
            try runs.run(["convert", "\(name).csv", "--domain", "notes", "--to", "jsonl", "--lenient", "-o", "OUT.jsonl"])
        }
        runs.expectGolden()
    }

    /// Writers that take values (JSON documents, XML, CSV) get the typed records' canonical values,
    /// with the general path's locations: the same bytes, diagnostics and statuses.
    @Test func writersTakingValues() throws {
        let box = try Sandbox()
        try box.write("v2.jsonl", Self.v2Notes())
        try box.write("v1.jsonl", Self.v1Notes())
        let runs = GoldenRuns(box, golden: "TypedPathCLITests/writers-taking-values.txt")
        for format in ["json", "xml"] {
            try runs.run(["convert", "v2.jsonl", "--to", format, "-o", "OUT.\(format)"])
            try runs.run(["convert", "v2.jsonl", "--to", format, "--lenient", "-o", "OUT.\(format)"])
            try runs.run(["migrate", "v1.jsonl", "--to-version", "2", "--lenient", "--to", format, "-o", "OUT.\(format)"])
        }
        // One collection to CSV: the wine lines, the broken ones and a duplicate id.
        let lines = Self.v2Notes().split(separator: "\n", omittingEmptySubsequences: false)
        var wine = lines.filter { $0.contains("wineTastingNotes") || $0.hasPrefix("{broken") || $0.hasPrefix("{\"domain") }
        wine.append(wine[1])
        try box.write("wine.jsonl", wine.joined(separator: "\n") + "\n")
        try runs.run(["convert", "wine.jsonl", "--to", "csv", "-o", "OUT.csv"])
        try runs.run(["convert", "wine.jsonl", "--to", "csv", "--lenient", "-o", "OUT.csv"])
        let made = try box.ferry(["convert", "wine.jsonl", "--to", "csv", "--lenient", "-o", "wineTastingNotes.csv"])
        #expect(made.status == 3)
        // The header and the 223 valid wine notes, each ending in CRLF (their `think` holds an LF).
        let rows = try box.text("wineTastingNotes.csv").components(separatedBy: "\r\n")
        #expect(rows.count == 1 + 223 + 1 && rows.last == "", "\(rows.count)")
        #expect(rows[1].hasPrefix("n0,") && rows[223].hasPrefix("n896,"), "\(rows[1].prefix(8)) \(rows[223].prefix(8))")
        try runs.run(["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "csv", "-o", "OUT.csv"])
        try runs.run(["convert", "wineTastingNotes.csv", "--domain", "notes", "--to", "json", "-o", "OUT.json"])
        runs.expectGolden()
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
        let runs = GoldenRuns(box, golden: "TypedPathCLITests/csv-leaf-streams.txt")
        for extra in [[], ["--lenient"], ["--csv-safe", "--lenient"], ["--delimiter", "tab", "--lenient"], ["--strict", "--lenient"]] {
            // Without --lenient the errors leave nothing written; with it, one file per collection;
            // --strict with --lenient is a usage error.
            let files = extra.contains("--lenient") && !extra.contains("--strict") ? notesFiles : []
            try runs.run(["convert", "v2.jsonl", "--to", "csv", "-o", "OUT/"] + extra)
            #expect(try box.files(under: runs.recorded("OUT")) == files, "convert \(extra)")
            try runs.run(["migrate", "v1.jsonl", "--to-version", "2", "--to", "csv", "-o", "OUT/"] + extra)
            #expect(try box.files(under: runs.recorded("OUT")) == files, "migrate \(extra)")
        }
        try runs.run(["convert", "v2.jsonl", "--to", "tsv", "-o", "OUT/", "--lenient"])
        try runs.run(["convert", "v1.jsonl", "--to", "csv", "-o", "OUT/", "--lenient"])
        // One file, several collections: their columns merged in it, as the general path merges them.
        try runs.run(["convert", "v2.jsonl", "--to", "csv", "-o", "OUT/x.csv", "--lenient"])
        // The first record invalid: the batches start before any writer is open.
        lines[1] = "{broken"
        try box.write("first.jsonl", lines.joined(separator: "\n"))
        try runs.run(["convert", "first.jsonl", "--to", "csv", "-o", "OUT/", "--lenient"])
        // Standard output, one collection.
        try box.write("wine.jsonl", lines.filter { $0.contains("wineTastingNotes") || $0.hasPrefix("{\"domain") }.joined(separator: "\n"))
        try runs.run(["convert", "wine.jsonl", "--to", "csv", "--lenient", "--csv-safe"])
        runs.expectGolden()
    }
}
