import Foundation
import Testing
import FerryCore
import FerryTestSupport
@testable import FormatCSV

@Suite struct CSVSpectrumTests {
    @Test func everyFileMatchesItsJSON() throws {
        let names = corpusNames("csv-spectrum", "csvs", ext: "csv")
        guard !names.isEmpty else {
            print("skipped: corpus absent")
            return
        }
        #expect(names.count == 12)
        for name in names {
            let csv = try #require(corpusFile("csv-spectrum", "csvs/\(name).csv"))
            let json = try #require(corpusFile("csv-spectrum", "json/\(name).json"))
            let result = readCSV(csv)
            if name == "location_coordinates" {
                // Upstream's JSON does not match its CSV (another phone number, an object not an
                // array). The bare quotes in the unquoted cell (37°36'37.8"N) are kept as
                // characters, as the JSON has them, with one warning for the cell.
                #expect(result.problems == ["stray-quote@2:22"])
                #expect(result.objects == [[
                    "Contact Phone Number": "2095257564",
                    "Location Coordinates": "37\u{FFFD}36'37.8\"N 121\u{FFFD}2'17.9\"W",
                    "Cities": "Modesto", "Counties": "Stanislaus",
                ]])
                let want = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: String])
                #expect(result.objects.first?["Location Coordinates"] == want["Location Coordinates"].map(Value.string))
                continue
            }
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [[String: String]])
            #expect(result.problems.isEmpty, "\(name): \(result.problems)")
            #expect(result.records.count == expected.count, "\(name)")
            for (record, want) in zip(result.objects, expected) {
                #expect(Set(record.keys).isSubset(of: Set(want.keys)), "\(name)")
                for (key, text) in want {
                    let got = record[key]
                    if text.isEmpty {
                        // "" is either a quoted "" (a string) or an unquoted empty cell (absent).
                        #expect(got == nil || got == .string(""), "\(name).\(key)")
                    } else {
                        #expect(got == .string(text), "\(name).\(key)")
                    }
                }
            }
        }
    }

    @Test func crlfAndLFVariantsGiveTheSameRecords() throws {
        for name in ["empty", "newlines", "simple"] {
            guard let lf = corpusFile("csv-spectrum", "csvs/\(name).csv"),
                  let crlf = corpusFile("csv-spectrum", "csvs/\(name)_crlf.csv") else {
                print("skipped: corpus absent")
                return
            }
            let a = readCSV(lf).records.map(\.value), b = readCSV(crlf).records.map(\.value)
            if name == "newlines" {
                // The CRLF inside the quoted cell is kept as written (newlines_crlf.json).
                #expect(b[1].objectValue?["a"] == .string("Once upon \r\na time"))
                #expect(a[1].objectValue?["a"] == .string("Once upon \na time"))
                #expect(a.count == b.count && a[0] == b[0] && a[2] == b[2])
            } else {
                #expect(a == b, "\(name)")
            }
        }
    }

    @Test func quotedEmptyIsAStringAndUnquotedEmptyIsAbsent() throws {
        guard let csv = corpusFile("csv-spectrum", "csvs/empty.csv") else {
            print("skipped: corpus absent")
            return
        }
        // a,b,c / 1,"","" / 2,3,4
        let records = readCSV(csv).objects
        #expect(records[0] == ["a": "1", "b": "", "c": ""])
    }
}

@Suite struct CSVTestDataTests {
    static let header = ["foo", "bar", "baz"]

    @Test func badFilesAreReportedWithALine() throws {
        let names = corpusNames("csv-test-data", "csv", ext: "csv").filter { $0.hasPrefix("bad-") }
        guard !names.isEmpty else {
            print("skipped: corpus absent")
            return
        }
        var problems: [String: [String]] = [:]
        for name in names {
            let csv = try #require(corpusFile("csv-test-data", "csv/\(name).csv"))
            let header = name.hasPrefix("bad-header-") ? CSVTestDataTests.header : nil
            let result = readCSV(csv, expectedHeader: header)
            problems[name] = result.problems
        }
        #expect(problems == [
            "bad-header-less-fields": ["ragged-row@2:4"],
            "bad-header-more-fields": ["ragged-row@2:7"],
            "bad-header-no-header": ["malformed-csv@1:1"],
            "bad-header-wrong-header": ["malformed-csv@1:1"],
            "bad-missing-quote": ["unterminated-quote@2:32"],
            "bad-quotes-with-unescaped-quote": ["malformed-csv@2:19"],
            "bad-unescaped-quote": ["stray-quote@2:8"],
        ])
        // `foo,bar,baz\n1,2` with no line break after its row: the input ends inside that row.
        let lessFields = try #require(corpusFile("csv-test-data", "csv/bad-header-less-fields.csv"))
        #expect(lessFields.last == UInt8(ascii: "2"))
        #expect(readCSV(lessFields, expectedHeader: CSVTestDataTests.header).diagnostics.map(\.message) == [
            "row has 2 fields, header has 3: the input ends inside the row on line 2, which is not complete (the input may be cut short): "
                + "field 3 (baz) is missing"])
        // With its line break it is a row written short.
        #expect(readCSV(lessFields + [0x0A], expectedHeader: CSVTestDataTests.header).diagnostics.map(\.message) == [
            "row has 2 fields, header has 3: field 3 (baz) is missing"])
    }

    @Test func validFilesMatchTheirJSON() throws {
        let names = corpusNames("csv-test-data", "csv", ext: "csv").filter { !$0.hasPrefix("bad-") }
        guard !names.isEmpty else {
            print("skipped: corpus absent")
            return
        }
        #expect(names.count == 18)
        for name in names {
            let csv = try #require(corpusFile("csv-test-data", "csv/\(name).csv"))
            let json = try #require(corpusFile("csv-test-data", "json/\(name).json"))
            let expected = try JSONSerialization.jsonObject(with: Data(json))
            if name.hasPrefix("header-") {
                let result = readCSV(csv, expectedHeader: CSVTestDataTests.header)
                #expect(result.problems.isEmpty, "\(name): \(result.problems)")
                let want = try #require(expected as? [[String: String]])
                #expect(result.objects.count == want.count, "\(name)")
                for (record, row) in zip(result.objects, want) {
                    #expect(record.count == row.count)
                    for (key, text) in row { #expect(cellText(record, key) == text, "\(name).\(key)") }
                }
            } else {
                let result = readCSV(csv, options: ReadOptions(hasHeader: false))
                #expect(result.problems.isEmpty, "\(name): \(result.problems)")
                let want = try #require(expected as? [[String]])
                let got = result.objects.map { record in result.headerFields.map { cellText(record, $0) ?? "<not a string>" } }
                #expect(got == want, "\(name)")
            }
        }
    }
}

@Suite struct CSVParserFixturesTests {
    @Test func everyFixtureReadsWithoutCrashing() throws {
        guard let dir = Fixtures.corpus("csv-parser-fixtures") else {
            print("skipped: corpus absent")
            return
        }
        let root = dir.appendingPathComponent("fixtures")
        let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".csv") }.sorted()
        #expect(files.count == 27)
        var summary: [String: String] = [:]
        for file in files {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(file)))
            let result = readCSV(bytes)
            summary[file] = "\(result.records.count) \(result.problems.joined(separator: " "))"
            let chunked = readCSV(bytes, chunk: 3)
            #expect(chunked.records.map(\.value) == result.records.map(\.value), "\(file)")
            #expect(chunked.problems == result.problems, "\(file)")
        }
        #expect(summary == [
            "backtick.csv": "2 ",
            "bad-data.csv": "3 ",
            "basic.csv": "1 ",
            "bench/latin.csv": "1 invalid-encoding@3:5",
            "bench/mac-newlines.csv": "2 ",
            "bench/utf16-big.csv": "2 ",
            "bench/utf16.csv": "2 ",
            "bench/utf8.csv": "2 ",
            "comma-in-quote.csv": "1 ",
            "comment.csv": "0 ragged-row@2:3 ragged-row@3:3",
            "empty-columns.csv": "1 ",
            "escape-quotes.csv": "3 ",
            "geojson.csv": "3 ",
            "headers.csv": "2 ",
            "newlines.csv": "3 ",
            "no-headers.csv": "2 ragged-row@4:7",
            "option-comment.csv": "0 ragged-row@2:3 ragged-row@3:3",
            "option-escape.csv": "1 malformed-csv@2:11 malformed-csv@3:6",
            "option-newline.csv": "0 stray-quote@1:13",
            "option-quote-escape.csv": "3 ",
            "option-quote-many.csv": "3 ",
            "option-quote.csv": "2 ",
            "quotes+newlines.csv": "3 ",
            "strict+skipLines.csv": "4 ",
            "strict-false-less-columns.csv": "2 ragged-row@3:4",
            "strict-false-more-columns.csv": "2 ragged-row@3:7",
            "strict.csv": "2 ragged-row@4:7",
        ])
    }

    @Test func utf16WithBOMDecodes() throws {
        for name in ["utf16", "utf16-big"] {
            guard let bytes = corpusFile("csv-parser-fixtures", "fixtures/bench/\(name).csv") else {
                print("skipped: corpus absent")
                return
            }
            let result = readCSV(bytes)
            #expect(result.problems.isEmpty)
            #expect(result.headerFields == ["a", "b", "c"])
            #expect(result.objects == [["a": "1", "b": "2", "c": "3"], ["a": "4", "b": "5", "c": "\u{02A4}"]], "\(name)")
        }
    }

    @Test func latin1NeedsItsEncoding() throws {
        guard let bytes = corpusFile("csv-parser-fixtures", "fixtures/bench/latin.csv") else {
            print("skipped: corpus absent")
            return
        }
        let undeclared = readCSV(bytes)
        let error = try #require(undeclared.error)
        #expect(error.diagnostic.code == .invalidEncoding)
        #expect(error.diagnostic.location.position == TextPosition(line: 3, column: 5))
        #expect(error.diagnostic.message.contains("byte 0xA9 at byte offset 16"))
        for encoding in ["latin1", "ISO-8859-1", "windows-1252"] {
            let declared = readCSV(bytes, options: ReadOptions(encoding: encoding))
            #expect(declared.problems.isEmpty)
            #expect(declared.objects == [["a": "1", "b": "2", "c": "3"], ["a": "4", "b": "5", "c": "©"]])
        }
    }
}

@Suite struct CSVDomainSampleTests {
    @Test func jlptN5() throws {
        guard let bytes = corpusFile("domain-vocabulary-jlpt-anki", "n5.csv") else {
            print("skipped: corpus absent")
            return
        }
        let result = readCSV(bytes)
        #expect(result.problems.isEmpty)
        #expect(result.headerFields == ["expression", "reading", "meaning", "tags", "guid"])
        #expect(result.records.count == 718)
        let rows = result.objects
        #expect(rows[0] == ["expression": "ああ", "reading": "ああ", "meaning": "Ah!, Oh!",
                            "tags": "JLPT JLPT_4 JLPT_5 JLPT_N5", "guid": "HI-.Ij?HS~"])
        #expect(rows[22]["guid"] == "gSl8i,<}^I")
        #expect(rows[22]["meaning"] == "hot (in reference to weather), warm")
        #expect(result.records[22].location.line == 24)
        #expect(rows[249]["guid"] == "e4scbA,t~J")
        #expect(rows[717]["guid"] == "rxV$$v%QZ;")
        let kanaOnly = rows.filter { $0["expression"] == $0["reading"] }.count
        #expect(kanaOnly == 155)
        let commaOrQuote = rows.compactMap { $0["guid"]?.stringValue }.filter { $0.contains(",") || $0.contains("\"") }
        #expect(commaOrQuote.count == 73)
    }

    @Test func cqiArabica() throws {
        guard let bytes = corpusFile("domain-tasting-coffee-cqi", "arabica_data_cleaned.csv") else {
            print("skipped: corpus absent")
            return
        }
        let result = readCSV(bytes, options: ReadOptions(nullToken: "NA"))
        #expect(result.problems.isEmpty)
        #expect(result.records.count == 1311)
        #expect(result.headerFields.count == 44)
        // R's empty first header cell is named by its position, as Miller does.
        #expect(result.headerFields[0] == "1")
        let first = try #require(result.objects.first)
        #expect(first["1"] == "1")
        // Dotted R names unflatten (Miller's convention) ...
        #expect(first["Country"] == ["of": ["Origin": "Ethiopia"]])
        #expect(first["Total"] == ["Cup": ["Points": "90.58"]])
        // ... except where a prefix is itself a column: Owner and Owner.1 stay side by side.
        #expect(first["Owner"] == "metad plc")
        #expect(first["Owner.1"] == "metad plc")
        #expect(first["Lot"] == ["Number": ""])
        let locator = try #require(result.records[0].locator)
        #expect(locator.position(of: "/Country/of/Origin") == TextPosition(line: 2, column: 27))
        // NA cells are absent.
        let flat = readCSV(bytes, options: ReadOptions(nullToken: "NA"))
        let withNA = flat.objects.filter { $0["Quakers"] == nil }.count
        #expect(withNA == 1)
        let cafe = result.objects.contains { record in
            record.members.contains { member in
                CSVFlattening.flatten(member.value).contains { $0.1.stringValue?.contains("é") == true }
            }
        }
        #expect(cafe)
    }
}
