import Foundation
import Testing
import FerryCore
@testable import FormatCSV

@Suite struct CSVReaderDiagnosticsTests {
    @Test func raggedRowTooFewFields() {
        let result = readCSV("a,b,c,d,e\n1,2,3\n4,5,6,7,8\n")
        #expect(result.problems == ["ragged-row@2:6"])
        #expect(result.diagnostics.first?.message == "row has 3 fields, header has 5: field 4 (d) and after are missing")
        #expect(result.objects == [["a": "4", "b": "5", "c": "6", "d": "7", "e": "8"]])
        #expect(result.records.first?.location.line == 3)
        #expect(result.records.first?.location.recordIndex == 1)
    }

    /// A last row short of fields with no line break after it: the input is cut inside it, at
    /// its end, however the bytes arrive and whatever ends the lines; a quoted last cell too.
    @Test func lastRowCutShortSaysTheInputEnds() {
        let cut = "row has 3 fields, header has 5: the input ends inside the row on line 3, which is not complete (the input may be "
            + "cut short): field 4 (d) and after are missing"
        for text in ["a,b,c,d,e\n4,5,6,7,8\n1,2,3", "a,b,c,d,e\r\n4,5,6,7,8\r\n1,2,3", "a,b,c,d,e\n4,5,6,7,8\n1,2,\"3\""] {
            for chunk in [nil, 1, 2, 3, 7] {
                let result = readCSV(text, chunk: chunk)
                #expect(result.problems == ["ragged-row@3:\(text.hasSuffix("\"") ? 8 : 6)"], "\(text.debugDescription) \(chunk ?? 0)")
                #expect(result.diagnostics.map(\.message) == [cut], "\(text.debugDescription) \(chunk ?? 0)")
                #expect(result.objects == [["a": "4", "b": "5", "c": "6", "d": "7", "e": "8"]])
            }
        }
        // A whole last row without its line break, and a short one with it, are not cut.
        #expect(readCSV("a,b\n1,2").problems.isEmpty)
        #expect(readCSV("a,b,c\n1\n").diagnostics.map(\.message) == ["row has 1 fields, header has 3: field 2 (b) and after are missing"])
        #expect(readCSV("a,b,c\r\n1\r").diagnostics.map(\.message) == ["row has 1 fields, header has 3: field 2 (b) and after are missing"])
    }

    /// "and after" only when fields follow: the last column alone is "field N (name) is missing",
    /// one extra field "field N is extra"; cut short or not.
    @Test func raggedRowOfOneFieldNamesItAlone() {
        #expect(readCSV("a,b,c\n1,2\n").diagnostics.map(\.message) == ["row has 2 fields, header has 3: field 3 (c) is missing"])
        #expect(readCSV("a,b,c\n1,2").diagnostics.map(\.message) == ["row has 2 fields, header has 3: the input ends inside the row on "
            + "line 2, which is not complete (the input may be cut short): field 3 (c) is missing"])
        #expect(readCSV("a,b,c\n1\n").diagnostics.map(\.message) == ["row has 1 fields, header has 3: field 2 (b) and after are missing"])
        #expect(readCSV("a,b\n1,2,3\n").diagnostics.map(\.message) == ["row has 3 fields, header has 2: field 3 is extra"])
        #expect(readCSV("a,b\n1,2,3,4\n").diagnostics.map(\.message) == ["row has 4 fields, header has 2: field 3 and after are extra"])
    }

    @Test func raggedRowTooManyFields() {
        let result = readCSV("a,b\n1,2,3\n4,5\n")
        #expect(result.problems == ["ragged-row@2:5"])
        #expect(result.diagnostics.first?.message == "row has 3 fields, header has 2: field 3 is extra")
        #expect(result.objects == [["a": "4", "b": "5"]])
    }

    @Test func quoteInsideUnquotedFieldIsACharacterWithAWarning() {
        // As Python's csv, Rust's csv and DuckDB read it: one warning per field, at its first quote.
        let result = readCSV("a,b,c\n1,x\"y\"z,5\" ruler\n2,3,37°36'37.8\"N\n")
        #expect(result.problems == ["stray-quote@2:4", "stray-quote@2:10", "stray-quote@3:15"])
        #expect(result.diagnostics.map(\.severity) == [.warning, .warning, .warning])
        #expect(result.diagnostics.first?.message
            == "a quote inside an unquoted field is kept as a character (RFC 4180 section 2.5 would quote the whole field and double the quote)")
        #expect(result.objects == [["a": "1", "b": "x\"y\"z", "c": "5\" ruler"], ["a": "2", "b": "3", "c": "37°36'37.8\"N"]])
        #expect(readCSV("a,b\n1,x\"y\n2,3\n", chunk: 1).problems == ["stray-quote@2:4"])
    }

    @Test func quoteInHeaderIsACharacterWithAWarning() {
        let result = readCSV("a,b\"\n1,2\n")
        #expect(result.problems == ["stray-quote@1:4"])
        #expect(result.objects == [["a": "1", "b\"": "2"]])
    }

    @Test func textAfterClosingQuote() {
        let result = readCSV("a,b\n\"x\"y,1\n2,3\n")
        #expect(result.problems == ["malformed-csv@2:4"])
        #expect(result.objects == [["a": "2", "b": "3"]])
    }

    @Test func malformedRowWithQuotedNewlineDoesNotShiftLaterRows() {
        // The bad row's later quoted cell still spans two lines; the next row starts after it.
        let result = readCSV("a,b\nx\"y,\"p\nq\"z\n2,3\n")
        #expect(result.problems == ["stray-quote@2:2", "malformed-csv@3:3"])
        #expect(result.objects == [["a": "2", "b": "3"]])
        #expect(result.records.first?.location.line == 4)
    }

    /// A 10,000-row file with one quote that never closes, in the middle.
    static func generated(rows: Int = 10_000, brokenRow: Int = 5_000) -> [UInt8] {
        var text = "id,name,value\n"
        for k in 0..<rows {
            text += k == brokenRow ? "\(k),\"name \(k),v\(k)\n" : "\(k),name \(k),v\(k)\n"
        }
        return Array(text.utf8)
    }

    @Test(arguments: [nil, 7])
    func unterminatedQuoteLosesExactlyOneRow(chunk: Int?) throws {
        let result = readCSV(CSVReaderDiagnosticsTests.generated(), chunk: chunk)
        #expect(result.problems == ["unterminated-quote@5002:6"])
        #expect(result.diagnostics.first?.message
                == "a quoted field never closes; reading resumes on line 5003, after the line of its opening quote")
        #expect(result.records.count == 9_999)
        let ids = result.objects.compactMap { $0["id"]?.stringValue }
        #expect(ids == (0..<10_000).filter { $0 != 5_000 }.map(String.init))
        let after = try #require(result.records.first { $0.value.objectValue?["id"] == "5001" })
        #expect(after.location.line == 5003)
        #expect(after.location.recordIndex == 5001)
        #expect(after.value.objectValue?["name"] == "name 5001")
    }

    @Test func unterminatedQuoteWithCRLFResumesOnTheNextLine() {
        let result = readCSV("a,b\r\n1,\"open\r\n2,3\r\n")
        #expect(result.problems == ["unterminated-quote@2:3"])
        #expect(result.objects == [["a": "2", "b": "3"]])
        #expect(result.records.first?.location.line == 3)
    }

    @Test func unterminatedQuoteResumesOnTheVeryNextLine() {
        // One column: the blank line right after the opening quote's line is a record of its own.
        let result = readCSV("a\n\"x\n\ny\n")
        #expect(result.problems == ["unterminated-quote@2:1"])
        #expect(result.objects == [[:], ["a": "y"]])
        #expect(result.records.map { $0.location.line } == [3, 4])
    }

    @Test func unterminatedQuoteOnTheLastLine() {
        let result = readCSV("a,b\n1,\"xyz")
        // At the end of the input, where it is cut short (the quote opens at 2:3).
        #expect(result.problems == ["unterminated-quote@2:7"])
        #expect(result.records.isEmpty)
    }

    @Test func openQuotePastTheRowLimitResyncsBeforeTheEnd() {
        var text = "a,b\n1,\"open\n"
        for k in 0..<200 { text += "\(k),v\n" }
        let result = readCSV(Array(text.utf8), maximumRecordBytes: 1024)
        #expect(result.problems == ["unterminated-quote@2:3"])
        #expect(result.records.count == 200)
        #expect(result.objects.last == ["a": "199", "b": "v"])
    }

    @Test func emptyInputNeedsAHeader() {
        #expect(readCSV("").problems == ["malformed-csv@1:1"])
        #expect(readCSV("", options: ReadOptions(hasHeader: false)).records.isEmpty)
        #expect(readCSV("", options: ReadOptions(hasHeader: false)).problems.isEmpty)
    }

    @Test func invalidUTF8NamesLineColumnAndOffset() throws {
        let bytes = Array("a,b\n1,ok\n2,xé".utf8) + [0xFF] + Array("y\n".utf8)
        let result = readCSV(bytes)
        #expect(result.records.count == 1)
        let error = try #require(result.error)
        #expect(error.diagnostic.code == .invalidEncoding)
        #expect(error.diagnostic.location.position == TextPosition(line: 3, column: 5))
        #expect(error.diagnostic.message.hasPrefix("byte 0xFF at byte offset 14 is not valid UTF-8"))
    }

    @Test func invalidUTF8InsideAQuotedMultilineCell() throws {
        let bytes = Array("a\n\"x\nab".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let error = try #require(readCSV(bytes).error)
        #expect(error.diagnostic.location.position == TextPosition(line: 3, column: 3))
    }

    @Test func unknownEncodingIsAUsageError() throws {
        let error = try #require(readCSV("a\n1", options: ReadOptions(encoding: "ebcdic")).error)
        #expect(error.diagnostic.code == .usage)
    }

    @Test func unpairedUTF16Surrogate() throws {
        // "a\n" then a lone high surrogate D800 then "b", UTF-16LE with BOM.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0, 0x0A, 0, 0x00, 0xD8, 0x62, 0]
        let error = try #require(readCSV(bytes).error)
        #expect(error.diagnostic.code == .invalidEncoding)
        #expect(error.diagnostic.message == "unpaired UTF-16 surrogate 0xD800 at byte offset 6 (utf-16 input)")
    }

    @Test func duplicateHeadersAreRenamedAndListed() {
        let text = "a,b,a,a,a_2\n1,2,3,4,5\n"
        let quiet = readCSV(Array(text.utf8))
        #expect(quiet.problems.isEmpty)
        #expect(quiet.headerFields == ["a", "b", "a_3", "a_4", "a_2"])
        #expect(quiet.duplicateHeaders == ["a"])
        let strict = readCSV(Array(text.utf8), rejectsDuplicateHeaders: true)
        #expect(strict.problems == ["duplicate-header@1:5", "duplicate-header@1:7"])
    }

    @Test func blankLines() {
        #expect(readCSV("a,b\n\n1,2\n\n\n3,4\n").objects == [["a": "1", "b": "2"], ["a": "3", "b": "4"]])
        // One column: a blank line is a record whose cell is empty (absent).
        #expect(readCSV("a\n\n1\n").objects == [[:], ["a": "1"]])
    }

    @Test func lineEndsMixedAndBareCR() {
        let result = readCSV("a,b\r1,2\r\n3,4\n5,6")
        #expect(result.problems.isEmpty)
        #expect(result.objects == [["a": "1", "b": "2"], ["a": "3", "b": "4"], ["a": "5", "b": "6"]])
        #expect(result.records.map { $0.location.line } == [2, 3, 4])
    }

    @Test func delimiterDetection() {
        #expect(readCSV("a;b;c\n1;2;3").objects == [["a": "1", "b": "2", "c": "3"]])
        #expect(readCSV("a\tb\n1\t2").objects == [["a": "1", "b": "2"]])
        #expect(readCSV("a,b;c\n1,2;3").objects == [["a": "1", "b;c": "2;3"]])
        #expect(readCSV("\"x;y;z\",b\n1,2").objects == [["x;y;z": "1", "b": "2"]])
        #expect(readCSV("a,b\n1;2,3", options: ReadOptions(delimiter: UInt8(ascii: ";"))).problems == ["ragged-row@2:3"])
    }

    @Test func nullTokenAndTypeInference() {
        let text = "a,b,c,d,e,f,g\nNA,\"NA\",12.5e3,true,01,\"7\",-0.5\n"
        let result = readCSV(text, options: ReadOptions(nullToken: "NA", inferTypes: true))
        #expect(result.objects == [["b": "NA", "c": .number("12.5e3"), "d": true, "e": "01", "f": "7",
                                    "g": .number("-0.5")]])
        let plain = readCSV(text)
        #expect(plain.objects.first?["a"] == "NA")
        #expect(plain.objects.first?["c"] == "12.5e3")
    }

    @Test func noHeaderColumnsAreNumbered() {
        let result = readCSV("x,y\n1,2\n", options: ReadOptions(hasHeader: false))
        #expect(result.headerFields == ["1", "2"])
        #expect(result.objects == [["1": "x", "2": "y"], ["1": "1", "2": "2"]])
        #expect(result.records.map { $0.location.recordIndex } == [0, 1])
    }

    @Test func bomIsSkipped() {
        let result = readCSV([0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8))
        #expect(result.headerFields == ["a", "b"])
        #expect(result.objects == [["a": "1", "b": "2"]])
    }

    @Test func declaredUTF16WithoutBOM() {
        let le: [UInt8] = Array("a,b\n1,é\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(readCSV(le, options: ReadOptions(encoding: "utf-16le")).objects == [["a": "1", "b": "é"]])
        let be: [UInt8] = Array("a,b\n1,é\n".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(readCSV(be, options: ReadOptions(encoding: "utf-16")).objects == [["a": "1", "b": "é"]])
        // `utf-16` without a mark takes the order the text shows: little endian here.
        #expect(readCSV(le, options: ReadOptions(encoding: "utf-16")).objects == [["a": "1", "b": "é"]])
        #expect(readCSV([0x61, 0x0A, 0x80], options: ReadOptions(encoding: "windows-1252")).objects == [["a": "€"]])
    }

    /// With no `--encoding`, UTF-16 text without a mark is read in the order it shows; a UTF-8
    /// file with a NUL or two is not taken for it.
    @Test func undeclaredUTF16WithoutBOM() {
        let le: [UInt8] = Array("a,b\n1,é\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(readCSV(le).objects == [["a": "1", "b": "é"]])
        let be: [UInt8] = Array("a,b\n1,é\n".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(readCSV(be).objects == [["a": "1", "b": "é"]])
        #expect(CSVFormat.utf16ByteOrder(of: Array("a,b\n1,2\u{0}\n3,4\n".utf8)[...]) == nil)
    }

    @Test func recordsCarryCollectionLocationAndLocator() throws {
        let text = "id,tastes.1.label,tastes.1.value,tastes.2.label\n1,sweet,0.5,\n"
        let result = readCSV(text, options: ReadOptions(fileName: "n.csv", collection: "wineNotes"))
        let record = try #require(result.records.first)
        #expect(record.collection == "wineNotes")
        #expect(record.value == ["id": "1", "tastes": [["label": "sweet", "value": "0.5"]]])
        #expect(record.location == SourceLocation(file: "n.csv", line: 2, column: 1, collection: "wineNotes", recordIndex: 0))
        let field = record.location(of: "/tastes/0/value")
        #expect(field.description == "n.csv:2:9")
        #expect(field.field == "/wineNotes/0/tastes/0/value")
        // The empty cell of tastes.2.label still has a place in the row.
        #expect(record.locator?.position(of: "/tastes/1/label") == TextPosition(line: 2, column: 13))
        #expect(record.locator?.position(of: "/tastes/0") == TextPosition(line: 2, column: 3))
        #expect(record.locator?.position(of: "/nothing") == nil)
    }

    @Test func cellPositionsCountScalarsAndQuotedLines() throws {
        let result = readCSV("a,b,c\n\"日本\",\"x\ny\",z\n")
        let locator = try #require(result.records.first?.locator)
        #expect(locator.position(of: "/b") == TextPosition(line: 2, column: 6))
        #expect(locator.position(of: "/c") == TextPosition(line: 3, column: 4))
        #expect(locator.singleLine == nil)
    }

    /// A row whose cells all start on one line has that line for every field, even when its last
    /// cell goes on over more lines; a row with a cell starting further down has none.
    @Test func singleLineWhenEveryCellStartsOnTheRowsLine() {
        let result = readCSV("a,b,c\n1,2,3\n4,5,\"x\ny\"\n6,\"p\nq\",7\n")
        #expect(result.records.map { $0.locator?.singleLine } == [2, 3, nil])
        #expect(result.records.map { $0.location.line } == [2, 3, 5])
    }
}
