import FerryCore
import FerrySchemas
import FerryTestSupport
import Foundation
import FormatJSON
import Testing

@testable import FerryTypedPath

/// Differential tests of the typed JSON reader: every line goes both the general path
/// (`JSONLinesReader` -> `Value` -> `T(value:at:diagnostics:)`) and `JSONRecordScan.decode`. The
/// typed reader either gives the same model (and collection) or gives up; it never accepts a line
/// the general path reports anything about.
@Suite struct JSONRecordScanTests {
    /// What the general path made of one line.
    struct General<T> {
        /// The line parsed (no problem reported by the reader).
        var parsed: Bool
        var collection: String?
        var model: T?
        /// Parsed with no diagnostic at all.
        var clean: Bool
    }

    static func general<T: FieldCodable>(_ line: String, _ type: T.Type) -> General<T> {
        // A header line first, so that the line under test is never taken for one.
        let text = "{\"domain\": \"notes\", \"schemaVersion\": 2}\n" + line + "\n"
        let log = DiagnosticLog()
        let reader = JSONLinesReader(source: MemorySource(text), options: ReadOptions(fileName: "t.jsonl"), log: log)
        guard let record = try? reader.next() else { return General(parsed: false, model: nil, clean: false) }
        var diagnostics: [Diagnostic] = []
        let model = T(value: record.value, at: RecordContext(record: record), diagnostics: &diagnostics)
        return General(
            parsed: log.diagnostics.isEmpty, collection: record.collection, model: model,
            clean: diagnostics.isEmpty && log.diagnostics.isEmpty)
    }

    /// The typed reader's scan (nil: not scanned) and model.
    static func typed<T: FieldCodable>(_ line: String, _ type: T.Type, options: DecodingOptions = DecodingOptions())
        -> (scanned: Bool, collection: String?, model: T?)
    {
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            guard let scan = JSONRecordScan(bytes) else { return (false, nil, nil) }
            return (true, scan.collection, scan.decode(T.self, options: options))
        }
    }

    /// True when the typed reader decodes `bytes` as a wine note (V2) with `maximumDepth`.
    static func takes(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONRecordScan.defaultMaximumDepth) -> Bool {
        JSONRecordScan(bytes, maximumDepth: maximumDepth)?.decode(NotesV2.WineTastingNote.self, options: DecodingOptions()) != nil
    }

    /// Runs both paths and checks that they agree; returns true when the typed reader gave a model.
    @discardableResult
    static func compare<T: FieldCodable>(
        _ line: String, _ type: T.Type, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Bool {
        let general = general(line, T.self)
        let typed = typed(line, T.self)
        if let model = typed.model {
            #expect(general.parsed, "decoded a line the parser refuses: \(line)", sourceLocation: sourceLocation)
            #expect(typed.collection == general.collection, "collection of \(line)", sourceLocation: sourceLocation)
            #expect(general.clean, "accepted a line the general path reports: \(line)", sourceLocation: sourceLocation)
            #expect(model == general.model, "different model for \(line)", sourceLocation: sourceLocation)
        }
        return typed.model != nil
    }

    // MARK: Lines

    static let wine =
        #"{"$collection":"wineTastingNotes","id":"w1","title":"Syrah \"Cuvée\"","category":"red","createdAt":"2023-10-04T02:43:15Z","alcoholByVolume":12.4,"look":{"tint":"ruby","note":"deep"},"smells":[{"label":"cherry"},{"label":"oak"}],"tastes":[{"label":"finish","value":0.91},{"label":"body","value":0}],"grape":{"variety":"Pinot Noir"},"think":"Lovely,\nlong finish.","rating":2.5,"isFavorite":false}"#

    static let whiskey =
        #"{"$collection":"whiskeyTastingNotes","id":"k1","title":"Islay 12","category":"single malt","createdAt":"2024-01-02T03:04:05.123Z","alcoholByVolume":46,"look":{"tint":"amber","note":""},"smells":[],"tastes":[{"label":"peat","value":1}],"finish":{"length":"long","note":"smoky"},"think":"","rating":4.5,"isFavorite":true}"#

    static let cocktail =
        #"{"$collection":"cocktailTastingNotes","id":"c1","title":"Negroni","category":"classic","createdAt":"2024-01-02T03:04:05Z","alcoholByVolume":24.5,"tastes":[{"label":"bitter","value":0.8}],"ingredients":[{"name":"gin","amount":"30 ml"},{"name":"Campari","amount":"30 ml"}],"isContainsIce":true,"think":"classic","rating":5,"isFavorite":false}"#

    static let v1Wine =
        #"{"$collection":"wineNotes","id":"a","title":"","category":"red","createdAt":"2023-10-04T02:43:15Z","alcohol":12.4,"look":"ruby, deep","smells":["cherry","oak"],"tastes":[{"label":"finish","value":0.91}],"grape":"Pinot Noir","think":"ok","rating":7,"isFavorite":false}"#

    /// `line` with the first `old` replaced by `new` (which must be there).
    static func variant(_ line: String, _ old: String, _ new: String) -> String {
        guard let range = line.range(of: old) else {
            Issue.record("no \(old) in the line")
            return line
        }
        return line.replacingCharacters(in: range, with: new)
    }

    // MARK: Plain lines are taken

    @Test func plainLinesGiveTheSameModel() {
        #expect(Self.compare(Self.wine, NotesV2.WineTastingNote.self))
        #expect(Self.compare(Self.whiskey, NotesV2.WhiskeyTastingNote.self))
        #expect(Self.compare(Self.cocktail, NotesV2.CocktailTastingNote.self))
        #expect(Self.compare(Self.v1Wine, NotesV1.WineNote.self))
    }

    /// One `JSONLineReading` kept from line to line (as a batch keeps it) reads each line as a
    /// reading made for that line does: a line with a problem in a nested list, one out of order
    /// and one with a wrong value leave nothing behind for the next.
    @Test func aReadingKeptFromLineToLineReadsEachLineAsANewOne() {
        let lines = [
            Self.wine,
            Self.variant(Self.wine, #""value":0.91"#, #""value":7"#),
            Self.variant(Self.wine, #""id":"w1","title":"Syrah \"Cuvée\"","#, #""title":"Syrah \"Cuvée\"","id":"w1","#),
            Self.variant(Self.wine, #""rating":2.5"#, #""rating":9"#),
            Self.variant(Self.wine, #""id":"w1""#, #""id":"w2""#),
        ]
        let kept = JSONLineReading(options: DecodingOptions())
        var taken: [String?] = []
        for line in lines {
            Array(line.utf8).withUnsafeBufferPointer { bytes in
                let scan = JSONRecordScan(bytes)!
                let reused = scan.decode(NotesV2.WineTastingNote.self, reading: kept)
                #expect(reused == scan.decode(NotesV2.WineTastingNote.self, options: DecodingOptions()))
                taken.append(reused?.id)
            }
        }
        #expect(taken == ["w1", nil, nil, nil, "w2"])
    }

    @Test func collectionIsReadAndLeftOut() {
        Array(Self.wine.utf8).withUnsafeBufferPointer { bytes in
            #expect(JSONRecordScan(bytes)?.collection == "wineTastingNotes")
        }
        let without = Self.variant(Self.wine, #""$collection":"wineTastingNotes","#, "")
        #expect(Self.compare(without, NotesV2.WineTastingNote.self))
        Array(without.utf8).withUnsafeBufferPointer { bytes in
            #expect(JSONRecordScan(bytes) != nil)
            #expect(JSONRecordScan(bytes)?.collection == nil)
        }
        // Escaped text, spaces around; alone.
        let spaced = Self.variant(without, #"{"#, #" { "$collection" : "w\u00e9" , "#)
        #expect(Self.compare(spaced, NotesV2.WineTastingNote.self))
        Array(spaced.utf8).withUnsafeBufferPointer { bytes in #expect(JSONRecordScan(bytes)?.collection == "wé") }
        Array(#"{"$collection":"x"}"#.utf8).withUnsafeBufferPointer { bytes in #expect(JSONRecordScan(bytes)?.collection == "x") }
        Array(#"{"$collection":"x" ,"variety":"Merlot"} "#.utf8).withUnsafeBufferPointer { bytes in
            #expect(JSONRecordScan(bytes)?.decode(NotesV2.Grape.self, options: DecodingOptions()) == NotesV2.Grape(variety: "Merlot"))
        }
        // At the end, in the middle: left to the general path.
        let atEnd = Self.variant(without, #""isFavorite":false}"#, #""isFavorite":false,"$collection":"w\u00e9"}"#)
        #expect(!Self.compare(atEnd, NotesV2.WineTastingNote.self))
        let middle = Self.variant(without, #""think""#, #""$collection" : "x" , "think""#)
        #expect(!Self.compare(middle, NotesV2.WineTastingNote.self))
        // A trailing comma after it, or no comma.
        for bad in [#"{"$collection":"x",}"#, #"{"$collection":"x" "id":"w1"}"#, #"{"$collection":"x",,"id":"w1"}"#] {
            Array(bad.utf8).withUnsafeBufferPointer { bytes in #expect(!Self.takes(bytes), "\(bad)") }
        }
        // Not a string, or twice: not handled (the general path keeps a non-string in the value).
        for bad in [#""$collection":5,"#, #""$collection":null,"#, #""$collection":"a","$collection":"a","#] {
            let line = Self.variant(without, #""id""#, bad + #""id""#)
            #expect(!Self.compare(line, NotesV2.WineTastingNote.self))
            Array(line.utf8).withUnsafeBufferPointer { bytes in #expect(!Self.takes(bytes)) }
        }
        // A second one after a leading one.
        let twice = Self.variant(Self.wine, #""id""#, #""$collection":"wineTastingNotes","id""#)
        #expect(!Self.compare(twice, NotesV2.WineTastingNote.self))
    }

    @Test func whitespaceAroundAndInside() {
        let spaced = Self.wine
            .replacingOccurrences(of: "\":", with: "\" :\t ")
            .replacingOccurrences(of: ",\"", with: " ,\r\"")
            .replacingOccurrences(of: "[", with: "[ ").replacingOccurrences(of: "]", with: " ]")
            .replacingOccurrences(of: "{", with: "{ ").replacingOccurrences(of: "}", with: " }")
        #expect(Self.compare("  \t" + spaced + " \r", NotesV2.WineTastingNote.self))
        #expect(Self.compare(Self.variant(Self.whiskey, "\"smells\":[]", "\"smells\":[ \t ]"), NotesV2.WhiskeyTastingNote.self))
    }

    // MARK: Strings

    @Test func stringEscapesAndUnicode() {
        let texts = [
            #"plain"#, #"a\"b\\c\/d"#, #"\b\f\n\r\t"#, #"\u0041\u00e9\u20ac"#, #"\ud83c\udf77 wine"#, #"\uD83C\uDF77"#,
            "Grüner Veltliner 🍷 中文", #"\u0000"#, "x\\u0020y", String(repeating: "long text ", count: 30),
            String(repeating: "é", count: 9) + #"\n"#,
        ]
        for text in texts {
            let line = Self.variant(Self.wine, #""think":"Lovely,\nlong finish.""#, "\"think\":\"\(text)\"")
            #expect(Self.compare(line, NotesV2.WineTastingNote.self), "\(text)")
            let title = Self.variant(Self.wine, #""title":"Syrah \"Cuvée\"""#, "\"title\":\"\(text)\"")
            #expect(Self.compare(title, NotesV2.WineTastingNote.self), "\(text)")
            let smell = Self.variant(Self.v1Wine, #"["cherry","oak"]"#, "[\"\(text)\",\"\(text)\"]")
            #expect(Self.compare(smell, NotesV1.WineNote.self), "\(text)")
        }
    }

    @Test func badStringsAreRefused() {
        let bad = [
            "\"a\u{01}b\"", "\"a\tb\"", #""\x""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#,
            #""\ud800\u0041""#, #""\ud800x""#, #""unterminated"#, #""\"#,
        ]
        for text in bad {
            let line = Self.variant(Self.wine, #""Lovely,\nlong finish.""#, text)
            #expect(!Self.compare(line, NotesV2.WineTastingNote.self), "\(text)")
        }
        // Ill-formed UTF-8: a lone continuation byte, an overlong form, a surrogate, a cut sequence.
        for bytes: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0xFF]] {
            var line = Array(Self.wine.utf8)
            guard let at = line.firstIndex(of: UInt8(ascii: "L")) else { continue }
            line.insert(contentsOf: bytes, at: at)
            line.withUnsafeBufferPointer { #expect(!Self.takes($0)) }
            var key = Array(Self.wine.utf8)
            key.insert(contentsOf: bytes, at: 2)  // inside "$collection"
            key.withUnsafeBufferPointer { #expect(!Self.takes($0)) }
            var collection = Array(Self.wine.utf8)
            collection.insert(contentsOf: bytes, at: 17)  // inside "wineTastingNotes"
            collection.withUnsafeBufferPointer { #expect(JSONRecordScan($0) == nil) }
        }
    }

    @Test func emptyAndCheckedStrings() {
        // nonEmptyString: id and title.
        #expect(!Self.compare(Self.variant(Self.wine, #""id":"w1""#, #""id":"""#), NotesV2.WineTastingNote.self))
        #expect(!Self.compare(Self.variant(Self.wine, #""title":"Syrah \"Cuvée\"""#, #""title":"""#), NotesV2.WineTastingNote.self))
        // A plain string may be empty.
        #expect(Self.compare(Self.variant(Self.wine, #""category":"red""#, #""category":"""#), NotesV2.WineTastingNote.self))
        // Enumeration: finish length.
        for length in ["short", "medium", "long"] {
            #expect(Self.compare(Self.variant(Self.whiskey, #""long""#, "\"\(length)\""), NotesV2.WhiskeyTastingNote.self))
        }
        for length in ["Long", "", "very long", "lon\\u0067"] {
            let line = Self.variant(Self.whiskey, #""long""#, "\"\(length)\"")
            let accepted = Self.compare(line, NotesV2.WhiskeyTastingNote.self)
            #expect(accepted == (length == "lon\\u0067"))
        }
        // V1 optional id: absent, null; empty is an error.
        #expect(Self.compare(Self.variant(Self.v1Wine, #""id":"a","#, ""), NotesV1.WineNote.self))
        #expect(Self.compare(Self.variant(Self.v1Wine, #""id":"a""#, #""id":null"#), NotesV1.WineNote.self))
        #expect(!Self.compare(Self.variant(Self.v1Wine, #""id":"a""#, #""id":"""#), NotesV1.WineNote.self))
    }

    // MARK: Numbers

    @Test func numbersReadAsTheGeneralPathReadsThem() {
        let accepted = ["0", "-0", "-0.0", "12", "12.4", "12.40", "1e1", "1E+1", "125e-1", "0.000001", "99.99999999999999999",
            "100", "100.0", "1.2345678901234567890123", "0e5"]
        for number in accepted {
            let line = Self.variant(Self.wine, #""alcoholByVolume":12.4"#, "\"alcoholByVolume\":\(number)")
            #expect(Self.compare(line, NotesV2.WineTastingNote.self), "\(number)")
        }
        // Out of range, not finite, not a number.
        for number in ["-1", "100.0000001", "-0.1", "1e400", "-1e400", "1e3", "\"12\"", "true", "null", "[]", "{}"] {
            let line = Self.variant(Self.wine, #""alcoholByVolume":12.4"#, "\"alcoholByVolume\":\(number)")
            #expect(!Self.compare(line, NotesV2.WineTastingNote.self), "\(number)")
        }
        // Rating: range 0...5 step 0.5.
        for rating in ["0", "0.5", "1", "4.5", "5", "5.0", "-0", "2.50", "25e-1"] {
            let line = Self.variant(Self.wine, #""rating":2.5"#, "\"rating\":\(rating)")
            #expect(Self.compare(line, NotesV2.WineTastingNote.self), "\(rating)")
        }
        for rating in ["0.25", "5.5", "-0.5", "2.4", "1e1", "0.50000000000000001e1"] {
            let line = Self.variant(Self.wine, #""rating":2.5"#, "\"rating\":\(rating)")
            Self.compare(line, NotesV2.WineTastingNote.self)
        }
        // V1 numbers have no range: huge and tiny ones.
        for number in ["1e300", "-1e300", "1e-300", "123456789012345678901234567890", "5e-324", "1e309"] {
            Self.compare(Self.variant(Self.v1Wine, #""alcohol":12.4"#, "\"alcohol\":\(number)"), NotesV1.WineNote.self)
        }
        // Tastes' value 0...1.
        for value in ["1", "1.0", "0", "-0", "1.01", "-0.01"] {
            Self.compare(Self.variant(Self.wine, #""value":0.91"#, "\"value\":\(value)"), NotesV2.WineTastingNote.self)
        }
    }

    @Test func badNumbersAreRefused() {
        for number in ["01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "1.5.5", "0x10", "NaN", "Infinity", "-01"] {
            let line = Self.variant(Self.wine, #""alcoholByVolume":12.4"#, "\"alcoholByVolume\":\(number)")
            #expect(!Self.compare(line, NotesV2.WineTastingNote.self), "\(number)")
            Array(line.utf8).withUnsafeBufferPointer { #expect(!Self.takes($0), "\(number)") }
        }
    }

    // MARK: Booleans, nulls, missing and extra members

    @Test func booleansAndLiterals() {
        #expect(Self.compare(Self.variant(Self.wine, #""isFavorite":false"#, #""isFavorite":true"#), NotesV2.WineTastingNote.self))
        for value in ["0", "\"true\"", "null", "tru", "falsey", "nul", "True"] {
            #expect(!Self.compare(Self.variant(Self.wine, #""isFavorite":false"#, "\"isFavorite\":\(value)"), NotesV2.WineTastingNote.self))
        }
        for value in ["false", "true", "1", "null"] {
            Self.compare(Self.variant(Self.cocktail, #""isContainsIce":true"#, "\"isContainsIce\":\(value)"), NotesV2.CocktailTastingNote.self)
        }
    }

    @Test func missingNullUnknownRepeatedAndMisplacedMembers() {
        let lines = [
            Self.variant(Self.wine, #""think":"Lovely,\nlong finish.","#, ""),  // missing required
            Self.variant(Self.wine, #""think":"Lovely,\nlong finish.""#, #""think":null"#),  // null required
            Self.variant(Self.wine, #""look":{"tint":"ruby","note":"deep"}"#, #""look":null"#),
            Self.variant(Self.wine, #""smells":[{"label":"cherry"},{"label":"oak"}]"#, #""smells":null"#),
            Self.variant(Self.wine, #""smells":[{"label":"cherry"},{"label":"oak"}],"#, ""),
            Self.variant(Self.wine, #"{"label":"oak"}"#, "null"),  // a null element
            Self.variant(Self.wine, #"{"label":"oak"}"#, #""oak""#),
            Self.variant(Self.wine, #""grape":{"variety":"Pinot Noir"}"#, #""grape":"Pinot Noir""#),
            Self.variant(Self.wine, #""grape":{"variety":"Pinot Noir"}"#, #""grape":{}"#),
            Self.variant(Self.wine, #""grape":{"variety":"Pinot Noir"}"#, #""grape":{"variety":"Pinot Noir","x":1}"#),
            Self.variant(Self.wine, #""grape":{"variety":"Pinot Noir"}"#, #""grape":{"variety":"a","variety":"b"}"#),
            Self.variant(Self.wine, #""isFavorite":false"#, #""isFavorite":false,"extra":null"#),  // unknown
            Self.variant(Self.wine, #""isFavorite":false"#, #""isFavorite":false,"id":"w1""#),  // repeated
            Self.variant(Self.wine, #""isFavorite":false"#, #""isFavorite":false,"isFavorite":false"#),
            Self.variant(Self.wine, #""id":"w1","#, #""ID":"w1","#),
            Self.variant(Self.wine, #""tastes":[{"label":"finish","value":0.91}"#, #""tastes":[{"value":0.91,"label":"finish"}"#),  // order
            Self.variant(Self.wine, #""id":"w1","title""#, #""title":"T","id":"w1","x""#),  // order at the top
            Self.variant(Self.wine, #""tastes":[{"label":"finish","value":0.91}"#, #""tastes":[{"label":"finish","value":0.91,"$collection":"x"}"#),
            Self.variant(Self.wine, #""tastes":"#, #""tas\u0074es":"#),  // an escaped key
        ]
        for line in lines {
            Self.compare(line, NotesV2.WineTastingNote.self)
        }
        // Optional imageData: null, absent, base64, bad base64, not a string.
        for image in ["null", #""AAEC""#, #""""#, #""AAE""#, #""!!!!""#, "12", #""AA\u003d=""#] {
            let line = Self.variant(Self.wine, #""alcoholByVolume""#, "\"imageData\":\(image),\"alcoholByVolume\"")
            let accepted = Self.compare(line, NotesV2.WineTastingNote.self)
            if image == "null" || image == #""AAEC""# { #expect(accepted, "\(image)") }
        }
        // Cross-type and top-level shapes.
        for line in ["{}", "[]", "null", "\"x\"", "12", "{\"id\":\"w1\"}", "", "   ", "{", "{\"a\":1,}", "[1,]", "{\"a\" 1}", "{} {}", "{}x"] {
            Self.compare(line, NotesV2.WineTastingNote.self)
            Array(line.utf8).withUnsafeBufferPointer { bytes in
                if line != "{}" && line != "{\"id\":\"w1\"}" { #expect(!Self.takes(bytes), "\(line)") }
            }
        }
    }

    // MARK: Instants

    @Test func instants() {
        let accepted = ["2023-10-04T02:43:15Z", "2023-10-04T02:43:15.5Z", "2023-10-04T02:43:15.120Z", "2023-10-04T02:43:15+09:00",
            "2023-10-04t02:43:15z", "2023-10-04 02:43:15Z", "2023-10-04T02:43:15.000000Z", "0001-01-01T00:00:00Z"]
        for instant in accepted {
            let line = Self.variant(Self.wine, "2023-10-04T02:43:15Z", instant)
            #expect(Self.compare(line, NotesV2.WineTastingNote.self), "\(instant)")
        }
        // Finer than a millisecond (a warning), not RFC 3339, no offset, numbers (a note), escaped.
        let refused = ["\"2023-10-04T02:43:15.1234Z\"", "\"2023-10-04\"", "\"2023-10-04T02:43:15\"", "\"yesterday\"", "\"\"",
            "1700000000", "1.5", "null", "\"2023-13-04T02:43:15Z\"", #""2023-10-04T02:43:15\u005a""#]
        for instant in refused {
            let line = Self.variant(Self.wine, "\"2023-10-04T02:43:15Z\"", instant)
            let typed = Self.compare(line, NotesV2.WineTastingNote.self)
            if instant != #""2023-10-04T02:43:15\u005a""# { #expect(!typed, "\(instant)") }
        }
    }

    @Test func depthLimit() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let line = Self.variant(Self.wine, "\"think\":\"Lovely,\\nlong finish.\"", "\"think\":\(deep)")
        Self.compare(line, NotesV2.WineTastingNote.self)
        Array(line.utf8).withUnsafeBufferPointer { bytes in
            #expect(!Self.takes(bytes))
            #expect(!Self.takes(bytes, maximumDepth: 601))  // an array where a string goes
        }
        Array(Self.wine.utf8).withUnsafeBufferPointer { bytes in
            #expect(Self.takes(bytes, maximumDepth: 3))  // record, tastes, a taste
            #expect(!Self.takes(bytes, maximumDepth: 2))
            #expect(JSONRecordScan(bytes, maximumDepth: 0) == nil)
        }

        // Around the limit (512 levels parse, 513 do not): never taken (no such member).
        for levels in [511, 512] {
            let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            let text = "{\"a\":\(nested)}"
            Array(text.utf8).withUnsafeBufferPointer { #expect(!Self.takes($0)) }
            Self.compare(text, NotesV2.WineTastingNote.self)
        }
    }

    @Test func csvOptionsAreNotHandled() {
        Array(Self.wine.utf8).withUnsafeBufferPointer { bytes in
            #expect(JSONRecordScan(bytes)?.decode(NotesV2.WineTastingNote.self, options: DecodingOptions(scalarsAsText: true)) == nil)
        }
    }

    // MARK: The benchmark's generated files

    /// The lines of `notes.jsonl` as the benchmark's generator makes 3000 notes at `version`;
    /// nil when the generator is absent.
    static func generatedLines(version: Int) throws -> [String]? {
        guard let folder = Fixtures.generatedNotes(3000, version: version) else { return nil }
        let text = try String(contentsOf: folder.appendingPathComponent("notes.jsonl"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    @Test func everyGeneratedV2Line() throws {
        guard let lines = try Self.generatedLines(version: 2) else {
            print("skipped: ../shared/bench/gen_notes.py (or python3) is absent")
            return
        }
        #expect(lines.count == 3001)
        var accepted = 0
        for line in lines.dropFirst() where Self.compare(line, NotesV2.WineTastingNote.self) { accepted += 1 }
        #expect(accepted == lines.count - 1)
    }

    @Test func everyGeneratedV1Line() throws {
        guard let lines = try Self.generatedLines(version: 1) else {
            print("skipped: ../shared/bench/gen_notes.py (or python3) is absent")
            return
        }
        #expect(lines.count == 3001)
        var accepted = 0
        for line in lines.dropFirst() where Self.compare(line, NotesV1.WineNote.self) { accepted += 1 }
        #expect(accepted == lines.count - 1)
    }

    /// Decodes every line typed only (what callgrind measures: `--toggle-collect='*typedDecodeAllLines*'`).
    @inline(never)
    static func typedDecodeAllLines(_ lines: [[UInt8]]) -> Int {
        var accepted = 0
        for line in lines {
            line.withUnsafeBufferPointer { bytes in
                if let scan = JSONRecordScan(bytes), scan.decode(NotesV2.WineTastingNote.self, options: DecodingOptions()) != nil {
                    accepted += 1
                }
            }
        }
        return accepted
    }

    @Test func typedDecodeOfTheGeneratedV2Lines() throws {
        guard let lines = try Self.generatedLines(version: 2) else {
            print("skipped: ../shared/bench/gen_notes.py (or python3) is absent")
            return
        }
        let bytes = lines.dropFirst().map { Array($0.utf8) }
        #expect(Self.typedDecodeAllLines(bytes) == 3000)
    }
}
