import FerryTestSupport
import Foundation
import Testing

/// Issue 3, "Done when": CSV folders round trip, a broken row in a large file, the JLPT and CQI
/// imports through their mappings, schema-free CSV, and `--csv-safe`.
@Suite struct CSVCLITests {
    @Test func notesToCSVFolderAndBackIsByteIdentical() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        let toCSV = try box.ferry(["convert", "v2.json", "--to", "csv", "-o", "out/"])
        #expect(toCSV.status == 0)
        #expect(toCSV.stderrLines == [
            "v2.json: notes v2: wineTastingNotes 4, coffeeTastingNotes 2, whiskeyTastingNotes 1, cocktailTastingNotes 1 (8 records, 0 errors, 0 warnings) -> out/wineTastingNotes.csv, out/coffeeTastingNotes.csv, out/whiskeyTastingNotes.csv, out/cocktailTastingNotes.csv",
        ])
        #expect(try box.list("out") == ["cocktailTastingNotes.csv", "coffeeTastingNotes.csv", "whiskeyTastingNotes.csv", "wineTastingNotes.csv"])
        expectGolden(try box.text("out/wineTastingNotes.csv"), "wineTastingNotes-v2.csv")
        let back = try box.ferry(["convert", "out/", "--to", "json", "-o", "back.json"])
        #expect(back.status == 0)
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))

        // V1 in its canonical form makes the same trip.
        #expect(try box.ferry(["convert", "notes-v1.json", "--to", "json", "-o", "v1.json"]).status == 0)
        #expect(try box.ferry(["convert", "v1.json", "--to", "csv", "-o", "v1csv/"]).status == 0)
        #expect(try box.list("v1csv") == ["cocktailNotes.csv", "coffeeNotes.csv", "whiskeyNotes.csv", "wineNotes.csv"])
        #expect(try box.ferry(["convert", "v1csv/", "--to", "json", "-o", "v1-back.json"]).status == 0)
        #expect(try box.bytes("v1-back.json") == (try box.bytes("v1.json")))
    }

    /// TSV is CSV with tabs: domain records read back from Ferry's own TSV output, numbers and
    /// Booleans included (they are text in a TSV cell, as in a CSV one).
    @Test func notesToTSVAndBack() throws {
        let box = try Sandbox()
        try box.copySample("notes-v1.json")
        #expect(try box.ferry(["migrate", "notes-v1.json", "--to-version", "2", "-o", "v2.json"]).status == 0)
        #expect(try box.ferry(["convert", "v2.json", "--to", "tsv", "-o", "tsv/"]).status == 0)
        let back = try box.ferry(["convert", "tsv/", "--to", "json", "-o", "back.json"])
        #expect(back.status == 0)
        #expect(back.stderr.contains("0 errors"))
        #expect(try box.bytes("back.json") == (try box.bytes("v2.json")))
    }

    /// 10,000 rows, row 5,000 (line 5,001) with a quote that never closes.
    @Test func unterminatedQuoteInALargeFile() throws {
        let box = try Sandbox()
        var csv = "name,qty,note\n"
        var expected = ""
        for i in 1...10_000 {
            if i == 5_000 {
                csv += "item\(i),\(i),\"broken quote\n"
            } else {
                csv += "item\(i),\(i),plain \(i)\n"
                expected += #"{"name":"item\#(i)","qty":"\#(i)","note":"plain \#(i)"}"# + "\n"
            }
        }
        try box.write("big.csv", csv)
        let errorLine = "big.csv:5001:15: error: a quoted field never closes; reading resumes on line 5002, after the line of its opening quote [unterminated-quote]"

        let strict = try box.ferry(["convert", "big.csv", "-o", "big.jsonl"])
        #expect(strict.status == 3)
        #expect(strict.errors == [errorLine])
        #expect(try box.list() == ["big.csv"])

        let lenient = try box.ferry(["convert", "big.csv", "--lenient", "-o", "big.jsonl"])
        #expect(lenient.status == 3)
        #expect(lenient.errors == [errorLine])
        #expect(lenient.stderrLines.last == "big.csv: schema-free csv: records 9999 (9999 records, 1 error, 0 warnings) -> big.jsonl")
        // Every other row is there, in order, the rows before the bad one included.
        #expect(try box.text("big.jsonl") == expected)
    }

    @Test func jlptN5ImportsThroughItsMapping() throws {
        guard let corpus = Fixtures.corpus("domain-vocabulary-jlpt-anki") else {
            print("skipped: corpus domain-vocabulary-jlpt-anki absent")
            return
        }
        let box = try Sandbox()
        try box.copySample("mappings/jlpt-anki.json")
        let input = corpus.appendingPathComponent("n5.csv").path
        let run = try box.ferry(["convert", input, "--map", "mappings/jlpt-anki.json", "-o", "n5.json"])
        #expect(run.status == 0)
        #expect(run.stderrLines == [
            "\(input):1:28: warning: source column 'tags' is not used by the mapping mappings/jlpt-anki.json [unmapped-field]",
            "\(input): vocabulary v2: wordBooks 1, words 718 (719 records, 0 errors, 1 warning) -> n5.json",
        ])
        let validate = try box.ferry(["validate", "n5.json"])
        #expect(validate.status == 0)
        #expect(validate.stderrLines == ["n5.json: vocabulary v2: wordBooks 1, words 718 (719 records, 0 errors, 0 warnings); valid"])

        let lines = try box.ferry(["convert", "n5.json", "--to", "jsonl"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + 1 + 718)
        #expect(lines.prefix(3) == [
            #"{"domain": "vocabulary", "schemaVersion": 2}"#,
            #"{"$collection":"wordBooks","id":"jlpt-n5","title":"JLPT N5","createdAt":"2024-01-01T00:00:00Z"}"#,
            #"{"$collection":"words","id":"HI-.Ij?HS~","wordBookID":"jlpt-n5","meaningText":"Ah!, Oh!","meaningImageURL":"","ganaText":"ああ","ganaImageURL":"","kanjiText":"ああ","kanjiImageURL":"","studyState":"undefined","timestamp":"2024-01-01T00:00:00Z"}"#,
        ])
        // Row 394 of the file (食べる,たべる,to eat,...,c.+pIV(7xY) is word 393.
        #expect(lines[2 + 392] == #"{"$collection":"words","id":"c.+pIV(7xY","wordBookID":"jlpt-n5","meaningText":"to eat","meaningImageURL":"","ganaText":"たべる","ganaImageURL":"","kanjiText":"食べる","kanjiImageURL":"","studyState":"undefined","timestamp":"2024-01-01T00:00:00Z"}"#)
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix(#"{"$collection":"words","#) })
    }

    @Test func cqiArabicaImportsThroughItsMapping() throws {
        guard let corpus = Fixtures.corpus("domain-tasting-coffee-cqi") else {
            print("skipped: corpus domain-tasting-coffee-cqi absent")
            return
        }
        let box = try Sandbox()
        try box.copySample("mappings/cqi-arabica.json")
        let input = corpus.appendingPathComponent("arabica_data_cleaned.csv").path
        let run = try box.ferry(["convert", input, "--map", "mappings/cqi-arabica.json", "-o", "cqi.json"])
        #expect(run.status == 0)
        #expect(run.errors == [])
        let unmapped = [
            "1", "Mill", "ICO.Number", "Company", "Altitude", "Producer", "Number.of.Bags", "Bag.Weight",
            "In.Country.Partner", "Harvest.Year", "Owner.1", "Uniformity", "Clean.Cup", "Sweetness", "Cupper.Points",
            "Moisture", "Category.One.Defects", "Category.Two.Defects", "Quakers", "Color", "Expiration",
            "Certification.Body", "Certification.Address", "Certification.Contact", "unit_of_measurement",
            "altitude_low_meters", "altitude_high_meters", "altitude_mean_meters",
        ]
        let columns = try Self.headerCellColumns(of: input)
        #expect(run.stderrLines == unmapped.map {
            "\(input):1:\(columns[$0] ?? 0): warning: source column '\($0)' is not used by the mapping mappings/cqi-arabica.json [unmapped-field]"
        } + [
            "\(input): notes v2: wineTastingNotes 0, coffeeTastingNotes 1311, whiskeyTastingNotes 0, cocktailTastingNotes 0 (1311 records, 0 errors, 28 warnings) -> cqi.json",
        ])
        let validate = try box.ferry(["validate", "cqi.json"])
        #expect(validate.status == 0)
        let text = try box.text("cqi.json")
        #expect(text.components(separatedBy: "\n    {\n      \"id\": ").count - 1 == 1311)
        // The first data row: metad plc, GUJI-HAMBELA, Ethiopia, graded April 4th, 2015, 90.58 points.
        #expect(text.contains("""
                  "title": "metad plc, guji-hambela, Ethiopia",
                  "category": "Washed / Wet",
                  "createdAt": "2015-04-04T00:00:00Z",
                  "smells": [],
                  "tastes": [
                    {
                      "label": "aroma",
                      "value": 0.867
                    },
            """))
    }

    @Test func schemaFreeCSVToJSON() throws {
        let box = try Sandbox()
        try box.write("cities.csv", "city,pop,capital,score\r\nOslo,709000,true,-1.5e3\r\n\"Bergen, Vestland\",285900,false,\r\nTromsø,77000,\"\",0x10\r\n")
        let strings = try box.ferry(["convert", "cities.csv", "--to", "json"])
        #expect(strings.status == 0)
        #expect(strings.stdout == """
            [
              {
                "city": "Oslo",
                "pop": "709000",
                "capital": "true",
                "score": "-1.5e3"
              },
              {
                "city": "Bergen, Vestland",
                "pop": "285900",
                "capital": "false"
              },
              {
                "city": "Tromsø",
                "pop": "77000",
                "capital": "",
                "score": "0x10"
              }
            ]

            """)
        let typed = try box.ferry(["convert", "cities.csv", "--to", "json", "--infer-types"])
        #expect(typed.status == 0)
        #expect(typed.stdout == """
            [
              {
                "city": "Oslo",
                "pop": 709000,
                "capital": true,
                "score": -1.5e3
              },
              {
                "city": "Bergen, Vestland",
                "pop": 285900,
                "capital": false
              },
              {
                "city": "Tromsø",
                "pop": 77000,
                "capital": "",
                "score": "0x10"
              }
            ]

            """)
        let inspect = try box.ferry(["inspect", "cities.csv"])
        #expect(inspect.stdout == """
            input:       cities.csv
            format:      csv
            domain:      none (schema-free records)
            collections:
              (records): 3
            records:     3
            problems:    0 errors, 0 warnings

            """)
    }

    /// Repeated header names in schema-free CSV are renamed, Miller's way, with one note a file
    /// at the first repeat: alone, in a folder of datasets, and in a bundle.
    @Test func schemaFreeRepeatedHeadersAreRenamedWithANote() throws {
        let box = try Sandbox()
        try box.write("t/a.csv", "k,v,k,w,v,k\n1,2,3,4,5,6\n")
        try box.write("t/b.csv", "x,y\n1,2\n")
        let file = try box.ferry(["convert", "t/a.csv", "--to", "jsonl"])
        #expect(file.status == 0)
        #expect(file.stdout == #"{"k":"1","v":"2","k_2":"3","w":"4","v_2":"5","k_3":"6"}"# + "\n")
        let note = #":1:5: note: the header names "k", "v" more than once: each repeat is read as NAME_2, NAME_3, ... (Miller's way) [assumption]"#
        #expect(file.stderrLines == ["t/a.csv" + note, "t/a.csv: schema-free csv: records 1 (1 record, 0 errors, 0 warnings) -> standard output"])
        let folder = try box.ferry(["validate", "t"])
        #expect(folder.status == 0)
        #expect(folder.stderrLines == [
            "t/a.csv" + note, "t/a.csv: schema-free csv: records 1 (1 record, 0 errors, 0 warnings); valid",
            "t/b.csv: schema-free csv: records 1 (1 record, 0 errors, 0 warnings); valid",
            "total: 2 datasets, 2 valid, 0 invalid (0 errors, 0 warnings)",
        ])
        // A bundle folder's member (without its manifest, an error of its own).
        try box.write("bundle/data/a.csv", bytes: try box.bytes("t/a.csv"))
        let bundle = try box.ferry(["validate", "bundle"])
        #expect(bundle.stderrLines.prefix(2) == [
            "bundle: error: the bundle has data/ but no manifest.json [missing-manifest]", "bundle:data/a.csv" + note,
        ])
    }

    /// Plain records of a one-collection file go into a bundle as the collection the file names
    /// (a bundle's data is collections), and come back as they were; in a plain file they stay a
    /// top-level array.
    @Test(arguments: ["tar", "zip"])
    func schemaFreeCSVGoesIntoABundle(container: String) throws {
        let box = try Sandbox()
        let csv = "city,pop\nOslo,709000\nBergen,285900\n"
        try box.write("cities.csv", csv)
        let packed = try box.ferry(["convert", "cities.csv", "-o", "cities.\(container)"])
        #expect(packed.status == 0)
        #expect(packed.stderrLines == ["cities.csv: schema-free csv: cities 2 (2 records, 0 errors, 0 warnings) -> cities.\(container)"])
        let back = try box.ferry(["convert", "cities.\(container)", "--to", "csv", "-q"])
        #expect(back.status == 0)
        #expect(back.stdout == csv.replacingOccurrences(of: "\n", with: "\r\n"))  // RFC 4180 line ends
        let plain = try box.ferry(["convert", "cities.csv", "--to", "jsonl", "-q"])
        #expect(plain.stdout == #"{"city":"Oslo","pop":"709000"}"# + "\n" + #"{"city":"Bergen","pop":"285900"}"# + "\n")
    }

    /// Plain records of no collection (a JSON Lines file, a top-level array, standard input) go
    /// into a bundle as one collection named after the input (`records` for standard input).
    @Test(arguments: [("things.jsonl", "things"), ("things.json", "things"), ("-", "records")])
    func schemaFreeRecordsGoIntoABundleAsOneCollection(input: String, collection: String) throws {
        let box = try Sandbox()
        try box.write("things.jsonl", "{\"a\":1}\n{\"a\":2}\n")
        try box.write("things.json", "[{\"a\":1},{\"a\":2}]\n")
        let packed = try box.ferry(["convert", input, "--from", "jsonl", "-o", "b.tar"].filter { input != "things.json" || ($0 != "--from" && $0 != "jsonl") },
                                   stdinFile: input == "-" ? "things.jsonl" : nil)
        #expect(packed.status == 0, "\(packed.stderr)")
        let back = try box.ferry(["convert", "b.tar", "--to", "jsonl", "-q"])
        #expect(back.stdout == "{\"$collection\":\"\(collection)\",\"a\":1}\n{\"$collection\":\"\(collection)\",\"a\":2}\n")
    }

    @Test func csvSafePrefixesFormulaCells() throws {
        let box = try Sandbox()
        try box.write("in.jsonl", #"""
            {"a": "=SUM(A1:A3)", "b": "+1", "c": "-2", "d": "@cmd", "e": "\tTab", "f": "\rCR", "g": "plain", "h": "a=b"}

            """#)
        let safe = try box.ferry(["convert", "in.jsonl", "--to", "csv", "--csv-safe"])
        #expect(safe.status == 0)
        #expect(safe.stdout == "a,b,c,d,e,f,g,h\r\n'=SUM(A1:A3),'+1,'-2,'@cmd,'\tTab,\"'\rCR\",plain,a=b\r\n")
        let plain = try box.ferry(["convert", "in.jsonl", "--to", "csv"])
        #expect(plain.stdout == "a,b,c,d,e,f,g,h\r\n=SUM(A1:A3),+1,-2,@cmd,\tTab,\"\rCR\",plain,a=b\r\n")
        #expect(try runFerry(["convert", "--help"]).stdout.contains("--csv-safe"))
    }

    /// The 1-based column where each cell of a CSV file's header line starts (at its opening quote
    /// when quoted), by cell text; an empty cell is named by its 1-based position, as Ferry names it.
    static func headerCellColumns(of path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = Array((text.split(separator: "\n", maxSplits: 1).first ?? "").unicodeScalars)
        var result: [String: Int] = [:]
        var index = 0
        var cellNumber = 1
        while index <= line.count {
            let start = index
            var name = ""
            if index < line.count, line[index] == "\"" {
                index += 1
                while index < line.count, line[index] != "\"" { name.unicodeScalars.append(line[index]); index += 1 }
                index += 1
            } else {
                while index < line.count, line[index] != ",", line[index] != "\r" { name.unicodeScalars.append(line[index]); index += 1 }
            }
            result[name.isEmpty ? String(cellNumber) : name] = start + 1
            cellNumber += 1
            index += 1  // the comma
        }
        return result
    }
}
