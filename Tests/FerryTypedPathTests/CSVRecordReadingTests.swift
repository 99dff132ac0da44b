import FerryCore
import FerrySchemas
import FerryTestSupport
import FormatCSV
import Foundation
import Testing

@testable import FerryTypedPath

/// `CSVRecordReading` against the general path (CSV reader -> `Value` -> `T(value:at:diagnostics:)`
/// with `scalarsAsText`): the same model, or nil; nil whenever the general path reports anything.
@Suite struct CSVRecordReadingTests {
    typealias Wine = NotesV2.WineTastingNote
    typealias Whiskey = NotesV2.WhiskeyTastingNote
    typealias Cocktail = NotesV2.CocktailTastingNote

    // MARK: Rows

    static let wineColumns = [
        "id", "title", "category", "createdAt", "imageData", "alcoholByVolume", "look.tint", "look.note", "smells.1.label",
        "smells.2.label", "smells.3.label", "tastes.1.label", "tastes.1.value", "tastes.2.label", "tastes.2.value",
        "grape.variety", "think", "rating", "isFavorite",
    ]
    static let whiskeyColumns = [
        "id", "title", "category", "createdAt", "alcoholByVolume", "look.tint", "look.note", "smells.1.label",
        "smells.2.label", "tastes.1.label", "tastes.1.value", "finish.length", "finish.note", "think", "rating", "isFavorite",
    ]
    static let cocktailColumns = [
        "id", "title", "category", "createdAt", "imageData", "alcoholByVolume", "tastes.1.label", "tastes.1.value",
        "tastes.2.label", "tastes.2.value", "ingredients.1.name", "ingredients.1.amount", "ingredients.2.name",
        "ingredients.2.amount", "ingredients.3.name", "ingredients.3.amount", "isContainsIce", "think", "rating", "isFavorite",
    ]

    /// A plain cell (raw CSV syntax) for every column of the three headers.
    static let plainCells: [String: String] = [
        "id": "w1", "title": "\"Syrah 2001 \"\"Cuvée 1\"\"\"", "category": "red", "createdAt": "2023-10-04T02:43:15Z",
        "imageData": "", "alcoholByVolume": "12.4", "look.tint": "ruby", "look.note": "deep", "smells.1.label": "cherry",
        "smells.2.label": "oak", "smells.3.label": "", "tastes.1.label": "finish", "tastes.1.value": "0.91",
        "tastes.2.label": "sweetness", "tastes.2.value": "0.21", "grape.variety": "Pinot Noir",
        "think": "\"Too sharp;\nlong, dry\"", "rating": "2.5", "isFavorite": "false", "finish.length": "long",
        "finish.note": "peat", "ingredients.1.name": "gin", "ingredients.1.amount": "5 cl", "ingredients.2.name": "tonic",
        "ingredients.2.amount": "\"10 cl\"", "ingredients.3.name": "", "ingredients.3.amount": "", "isContainsIce": "true",
    ]

    /// Cells to try, by the kind of field a column holds (raw CSV syntax).
    static let stringCells = [
        "plain", "", "\"\"", "\"a, b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"cr\r\nlf\"", "Cuvée", "日本酒", "😀 emoji",
        " spaced ", "NULL", "\"NULL\"", "true", "12.5", "https://example.com/x", "\u{0301}combining", "\"\u{2028}\"",
    ]
    static let numberCells = [
        "12.4", "1.0", "-0", "0", "1e3", ".5", "007", "99999999999999999999", "1e400", "abc", "101", "-1", "2.5", "2.25",
        "0.5", "3", "5", "5.5", "+1", "1.", "NaN", "\"4.5\"", "1E2", "0.91", "", "\"\"", "0.30000000000000004", "4.50",
        "-0.0", "100", "100.0000000000000000001", " 3", "0x10", "1,5", "NULL",
    ]
    static let boolCells = ["true", "false", "TRUE", "True", "1", "0", "", "\"true\"", "\"\"", "yes", " false", "NULL"]
    static let instantCells = [
        "2023-10-04T02:43:15Z", "2023-10-04T02:43:15.250Z", "2023-10-04T02:43:15.2501Z", "2023-10-04T02:43:15+09:00",
        "2023-10-04T02:43:15.123456789-05:30", "2023-10-04T02:43:15.120000Z", "2023-10-04T02:43:15", "2023-10-04",
        "736000000", "2023-02-30T00:00:00Z", "2023-10-04t02:43:15z", "\"2023-10-04 02:43:15Z\"", "garbage", "", "1.5e9",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59-01:00", "\"\"", "2023-10-04T24:00:00Z",
        "-5", "NULL",
    ]
    static let base64Cells = ["", "aGVsbG8=", "aGVsbG8", "!!!", "\"\"", "AAAA", "QQ==", "\"aGk=\""]
    static let lengthCells = ["short", "long", "medium", "Short", "", "\"\"", "\"long\"", "longer"]

    /// The cells to try in `column`.
    static func pool(_ column: String) -> [String] {
        switch column {
        case "createdAt": return instantCells
        case "imageData": return base64Cells
        case "alcoholByVolume", "rating", "tastes.1.value", "tastes.2.value": return numberCells
        case "isFavorite", "isContainsIce": return boolCells
        case "finish.length": return lengthCells
        default: return stringCells
        }
    }

    /// A CSV text: the header, then one row per entry of `rows` (cells by column name, plain
    /// cells for the rest, empty for a column without one).
    static func csv(_ columns: [String], _ rows: [[String: String]], lineEnd: String = "\n") -> String {
        var text = columns.joined(separator: ",") + lineEnd
        for row in rows {
            text += columns.map { row[$0] ?? plainCells[$0] ?? "" }.joined(separator: ",") + lineEnd
        }
        return text
    }

    /// One row per cell of each column's pool, the other cells plain.
    static func variations(_ columns: [String]) -> [[String: String]] {
        var rows: [[String: String]] = [[:]]
        for column in columns {
            for cell in pool(column) { rows.append([column: cell]) }
        }
        return rows
    }

    // MARK: Plain rows

    @Test func plainWineRowIsReadAsTheGeneralPathReadsIt() throws {
        let text = Self.csv(Self.wineColumns, [[:], ["smells.3.label": "pepper", "imageData": "aGVsbG8=", "isFavorite": "true"]])
        let result = CSVDifferential.compare(Wine.self, Array(text.utf8))
        #expect(result.records == 2)
        #expect(result.taken == 2)
        let model = try #require(CSVDifferential.typedModel(Wine.self, text))
        #expect(model.id == "w1")
        #expect(model.title == "Syrah 2001 \"Cuvée 1\"")
        #expect(model.createdAt == Instant(seconds: 1_696_387_395))
        #expect(model.imageData == nil)
        #expect(model.alcoholByVolume == 12.4)
        #expect(model.look == NotesV2.Look(tint: "ruby", note: "deep"))
        #expect(model.smells == [NotesV2.Smell(label: "cherry"), NotesV2.Smell(label: "oak")])
        #expect(model.tastes == [NotesV2.Taste(label: "finish", score: 0.91), NotesV2.Taste(label: "sweetness", score: 0.21)])
        #expect(model.grape == NotesV2.Grape(variety: "Pinot Noir"))
        #expect(model.think == "Too sharp;\nlong, dry")
        #expect(model.rating == 2.5)
        #expect(model.isFavorite == false)
    }

    @Test func plainWhiskeyAndCocktailRows() throws {
        let whiskey = CSVDifferential.compare(Whiskey.self, Array(Self.csv(Self.whiskeyColumns, [[:]]).utf8))
        #expect(whiskey.taken == 1)
        let whiskeyModel = try #require(CSVDifferential.typedModel(Whiskey.self, Self.csv(Self.whiskeyColumns, [[:]])))
        #expect(whiskeyModel.finish == NotesV2.Finish(length: .long, note: "peat"))
        let cocktail = CSVDifferential.compare(Cocktail.self, Array(Self.csv(Self.cocktailColumns, [[:]], lineEnd: "\r\n").utf8))
        #expect(cocktail.taken == 1)
        let cocktailModel = try #require(CSVDifferential.typedModel(Cocktail.self, Self.csv(Self.cocktailColumns, [[:]])))
        #expect(cocktailModel.ingredients == [NotesV2.Ingredient(name: "gin", amount: "5 cl"),
                                              NotesV2.Ingredient(name: "tonic", amount: "10 cl")])
        #expect(cocktailModel.isContainsIce)
    }

    // MARK: One cell at a time

    @Test func everyCellOfEveryColumnWine() {
        let result = CSVDifferential.compare(Wine.self, Array(Self.csv(Self.wineColumns, Self.variations(Self.wineColumns)).utf8))
        #expect(result.taken > result.records / 2)
    }

    @Test func everyCellOfEveryColumnWhiskey() {
        let result = CSVDifferential.compare(Whiskey.self,
                                             Array(Self.csv(Self.whiskeyColumns, Self.variations(Self.whiskeyColumns)).utf8))
        #expect(result.taken > result.records / 2)
    }

    @Test func everyCellOfEveryColumnCocktail() {
        let result = CSVDifferential.compare(Cocktail.self,
                                             Array(Self.csv(Self.cocktailColumns, Self.variations(Self.cocktailColumns)).utf8))
        #expect(result.taken > result.records / 2)
    }

    @Test func numbersTheTypedPathReads() {
        // Plain decimal text is read as the general path reads it; -0 is 0.
        for (cell, expected) in [("1.0", 1.0), ("-0", 0.0), ("007", 7.0), ("4.50", 4.5), ("-0.0", 0.0), ("100", 100.0)] {
            let model = CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [["alcoholByVolume": cell]]))
            #expect(model?.alcoholByVolume == expected, "\(cell)")
            #expect(model?.alcoholByVolume.sign == .plus, "\(cell)")
        }
        // Out of range, off the step, not numbers: never taken.
        for cell in ["5.5", "-1", "2.25", "abc", "\"\"", "", "NaN", "1e400"] {
            #expect(CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [["rating": cell]])) == nil, "\(cell)")
        }
        // A quoted number is text the general path reads as the number (scalarsAsText).
        #expect(CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [["rating": "\"4.5\""]]))?.rating == 4.5)
    }

    @Test func instantsTheTypedPathReads() {
        let cases: [(String, Instant?)] = [
            ("2023-10-04T02:43:15.250Z", Instant(seconds: 1_696_387_395, nanoseconds: 250_000_000)),
            ("2023-10-04T11:43:15+09:00", Instant(seconds: 1_696_387_395)),
            ("2023-10-04t02:43:15z", Instant(seconds: 1_696_387_395)),
            ("2023-10-04T02:43:15.120000Z", Instant(seconds: 1_696_387_395, nanoseconds: 120_000_000)),
            ("2023-10-04T02:43:15.2501Z", nil),  // lossy-precision warning
            ("736000000", nil),  // a numeric date: an assumption note
            ("2023-10-04T02:43:15", nil),  // no offset
        ]
        for (cell, expected) in cases {
            let model = CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [["createdAt": cell]]))
            #expect(model?.createdAt == expected, "\(cell)")
        }
    }

    // MARK: Random rows


    /// `count` rows where each cell is plain with probability 2/3, else drawn from its pool.
    static func randomRows(_ columns: [String], count: Int, seed: UInt64) -> [[String: String]] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in
            var row: [String: String] = [:]
            for column in columns where generator.next(3) == 0 {
                let pool = pool(column)
                row[column] = pool[generator.next(pool.count)]
            }
            return row
        }
    }

    @Test func randomRowsOfTheThreeTypes() {
        for seed: UInt64 in 1...4 {
            let wine = CSVDifferential.compare(Wine.self, Array(Self.csv(Self.wineColumns,
                Self.randomRows(Self.wineColumns, count: 300, seed: seed)).utf8), limit: 17)
            #expect(wine.taken > 0)
            let whiskey = CSVDifferential.compare(Whiskey.self, Array(Self.csv(Self.whiskeyColumns,
                Self.randomRows(Self.whiskeyColumns, count: 300, seed: seed)).utf8), limit: 17)
            #expect(whiskey.taken > 0)
            let cocktail = CSVDifferential.compare(Cocktail.self, Array(Self.csv(Self.cocktailColumns,
                Self.randomRows(Self.cocktailColumns, count: 300, seed: seed), lineEnd: "\r\n").utf8), limit: 17)
            #expect(cocktail.taken > 0)
        }
    }

    @Test func nullToken() {
        let options = ReadOptions(fileName: "t.csv", collection: "t", nullToken: "NULL")
        let rows = Self.variations(Self.wineColumns) + [["smells.2.label": "NULL"], ["smells.1.label": "NULL"],
                                                        ["category": "NULL"], ["think": "\"NULL\""]]
        let result = CSVDifferential.compare(Wine.self, Array(Self.csv(Self.wineColumns, rows).utf8), options: options)
        #expect(result.taken > 0)
        // An absent plain string is "" (the general path too).
        let model = CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [["category": "NULL"]]), options: options)
        #expect(model?.category == "")
    }

    // MARK: Lists

    @Test func listsWithAbsentElements() {
        let rows: [[String: String]] = [
            ["smells.1.label": "", "smells.2.label": "oak", "smells.3.label": ""],  // null before a present element
            ["smells.1.label": "", "smells.2.label": "", "smells.3.label": ""],  // no smells: []
            ["smells.1.label": "a", "smells.2.label": "", "smells.3.label": "c"],
            ["smells.1.label": "\"\"", "smells.2.label": "", "smells.3.label": ""],  // one smell, label ""
            ["tastes.1.label": "", "tastes.1.value": "0.5"],  // label absent: ""
            ["tastes.1.label": "x", "tastes.1.value": ""],  // value missing
            ["tastes.1.label": "", "tastes.1.value": "", "tastes.2.label": "", "tastes.2.value": ""],
            ["tastes.1.label": "", "tastes.1.value": "", "tastes.2.label": "y", "tastes.2.value": "0.1"],
            ["look.tint": "", "look.note": ""],  // look missing
            ["look.tint": "", "look.note": "x"],
            ["grape.variety": ""],  // grape missing
            ["grape.variety": "\"\""],
        ]
        let result = CSVDifferential.compare(Wine.self, Array(Self.csv(Self.wineColumns, rows).utf8))
        #expect(result.takenIndexes == [1, 3, 4, 6, 9, 11])
        let noSmells = CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [rows[1]]))
        #expect(noSmells?.smells == [])
        let emptyLabel = CSVDifferential.typedModel(Wine.self, Self.csv(Self.wineColumns, [rows[4]]))
        #expect(emptyLabel?.tastes.first == NotesV2.Taste(label: "", score: 0.5))
    }

    // MARK: Headers

    /// Rows for an odd header: plain, then each column empty, then each column set to `x` and `1`.
    static func headerRows(_ columns: [String]) -> [[String: String]] {
        var rows: [[String: String]] = [[:]]
        for column in columns {
            rows.append([column: ""])
            rows.append([column: "x"])
            rows.append([column: "1"])
        }
        return rows
    }

    @Test(arguments: [
        ["extra"], ["look.extra"], ["smells.1"], ["smells.4"], ["smells.4.label", "smells.4.other"], ["tastes.1.value.x"],
        ["grape"], ["$collection"], ["a..b", ".x", "y."], ["title"], ["smells.x.label"], ["tastes.3.value"],
    ])
    func extraColumns(_ extra: [String]) {
        let columns = Self.wineColumns + extra
        let bytes = Array(Self.csv(columns, Self.headerRows(columns)).utf8)
        let result = CSVDifferential.compare(Wine.self, bytes)
        #expect(result.records == Self.headerRows(columns).count)
    }

    @Test func extraColumnsThatAreEmptyAreTaken() {
        let columns = Self.wineColumns + ["extra", "look.extra", "smells.4.other"]
        let result = CSVDifferential.compare(Wine.self, Array(Self.csv(columns, [[:], ["extra": "x"], ["look.extra": "y"]]).utf8))
        #expect(result.takenIndexes == [0])
    }

    @Test(arguments: ["category", "think", "rating", "isFavorite", "createdAt", "look.tint", "smells.1.label",
                      "tastes.1.value", "grape.variety", "id", "title", "alcoholByVolume"])
    func missingColumn(_ missing: String) {
        let columns = Self.wineColumns.filter { $0 != missing }
        let result = CSVDifferential.compare(Wine.self, Array(Self.csv(columns, Self.headerRows(columns)).utf8))
        // Absent lists read as []; the rest is required (a plain string's empty cell is "", but
        // with no column it is missing, as in JSON).
        let quiet = ["smells.1.label"]
        #expect((result.taken > 0) == quiet.contains(missing), "\(missing)")
    }

    @Test func otherHeaderShapes() {
        let shapes: [[String]] = [
            Self.wineColumns.reversed(),
            Self.wineColumns.filter { !$0.hasPrefix("smells.1") },  // smells.2, smells.3 only: an object
            Self.wineColumns.map { $0 == "smells.1.label" ? "smells.01.label" : $0 },
            Self.wineColumns + ["look"],  // look.tint and look.note then stay flat
            Self.wineColumns.map { $0 == "tastes.2.label" ? "tastes.1.label" : $0 },  // renamed duplicate
            Self.wineColumns.map { $0 == "think" ? "title" : $0 },
            ["tastes.2.value", "tastes.2.label", "tastes.1.value", "tastes.1.label"] + Self.wineColumns.filter { !$0.hasPrefix("tastes.") },
            Self.wineColumns.filter { !$0.hasPrefix("smells.") && !$0.hasPrefix("tastes.") },
            Self.wineColumns.map { $0 == "look.tint" ? "look" : $0 },
        ]
        for columns in shapes {
            CSVDifferential.compare(Wine.self, Array(Self.csv(columns, Self.headerRows(columns)).utf8))
        }
        // Reordered columns and lists given last element first still read.
        #expect(CSVDifferential.compare(Wine.self, Array(Self.csv(shapes[0], [[:]]).utf8)).taken == 1)
        #expect(CSVDifferential.compare(Wine.self, Array(Self.csv(shapes[6], [[:]]).utf8)).taken == 1)
        // No smells or tastes columns: both lists are [].
        #expect(CSVDifferential.typedModel(Wine.self, Self.csv(shapes[7], [[:]]))?.tastes == [])
    }

    @Test func noHeader() {
        let options = ReadOptions(fileName: "t.csv", collection: "t", hasHeader: false)
        CSVDifferential.compare(Wine.self, Array("w1,x\n,\n".utf8), options: options)
        #expect(CSVRecordReading<Wine>(columns: ["1", "2"], options: CSVDifferential.decodingOptions) != nil)
    }

    /// A reading takes CSV's rules (`scalarsAsText`) or is not made.
    @Test func readingsNeedCSVRules() {
        let options = CSVDifferential.decodingOptions
        #expect(CSVRecordReading<Wine>(columns: Self.wineColumns, options: options) != nil)
        #expect(CSVRecordReading<Wine>(columns: Self.wineColumns, options: DecodingOptions()) == nil)
    }

    // MARK: Encodings

    @Test func invalidUTF8IsNeverTaken() {
        let header = Self.wineColumns.joined(separator: ",") + "\n"
        for column in Self.wineColumns {
            for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
                let plain = Array(Self.csv(Self.wineColumns, [[:]]).utf8.dropFirst(header.utf8.count))
                let cells = Self.wineColumns.map { $0 == column ? "BAD" : Self.plainCells[$0] ?? "" }
                var row = Array(cells.joined(separator: ",").utf8)
                if let range = row.firstRange(of: Array("BAD".utf8)) { row.replaceSubrange(range, with: Array("a".utf8) + bad) }
                let bytes = Array(header.utf8) + plain + row + Array("\n".utf8) + plain
                let result = CSVDifferential.compare(Wine.self, bytes)
                #expect(!result.takenIndexes.contains(1), "\(column) \(bad)")
            }
        }
    }

    @Test func unicodeText() throws {
        let cells = ["title": "\"Château \u{1F377} «Ünïcödé» 日本\"", "think": "\u{00E9}\u{0065}\u{0301}", "category": "\"\u{FEFF}x\""]
        let text = Self.csv(Self.wineColumns, [cells])
        #expect(CSVDifferential.compare(Wine.self, Array(text.utf8)).taken == 1)
        let model = try #require(CSVDifferential.typedModel(Wine.self, text))
        #expect(model.title == "Château \u{1F377} «Ünïcödé» 日本")
    }

    // MARK: Other domains

    /// Columns for the fields of `type` (one level of nesting: `look.tint`, `tastes.1.value`).
    static func columns(of type: RecordType) -> [String] {
        type.fields.flatMap { field -> [String] in
            switch field.type {
            case .object(let nested): return nested.fields.map { field.name + "." + $0.name }
            case .array(.object(let nested)): return nested.fields.map { field.name + ".1." + $0.name }
            case .array: return [field.name + ".1", field.name + ".2"]
            default: return [field.name]
            }
        }
    }

    /// Cells of every kind the three domains hold.
    static let mixedCells = stringCells + numberCells + boolCells + instantCells + [
        "2024-02-29", "2023-02-29", "https://example.com/a.jpg", "http://x", "ftp://x", "success", "fail", "undefined",
        "media/a.jpg", "../a.jpg", "/abs.jpg", "aGk=", "12345", "1.5",
    ]

    /// Random rows of `type`'s columns, each cell plain-ish (a fixed valid-looking one) or mixed.
    static func compareRandomRows<M: FieldCodable>(_ type: M.Type, plain: [String: String], seed: UInt64) -> CSVDifferentialResult {
        let columns = Self.columns(of: M.recordType)
        var generator = SplitMix(seed: seed)
        var text = columns.joined(separator: ",") + "\n"
        for _ in 0..<300 {
            text += columns.map { column in
                generator.next(3) == 0 ? mixedCells[generator.next(mixedCells.count)] : plain[column] ?? "x"
            }.joined(separator: ",") + "\n"
        }
        return CSVDifferential.compare(M.self, Array(text.utf8), limit: 9)
    }

    @Test func vocabularyWords() {
        let plain = ["id": "w1", "wordBookID": "b1", "meaningImageURL": "https://example.com/m.png", "ganaImageURL": "",
                     "kanjiImageURL": "http://example.com/k", "studyState": "success", "timestamp": "2024-05-01T09:30:00Z"]
        for seed: UInt64 in 1...3 {
            #expect(Self.compareRandomRows(VocabularyV2.Word.self, plain: plain, seed: seed).taken > 0)
        }
    }

    @Test func petStoryAndVocabularyV1TypesNeverTakeWhatTheGeneralPathReports() {
        for seed: UInt64 in 1...2 {
            #expect(Self.compareRandomRows(PetStoryV2.Profile.self, plain: [:], seed: seed).records > 200)
            #expect(Self.compareRandomRows(PetStoryV2.Story.self, plain: [:], seed: seed).records > 200)
            #expect(Self.compareRandomRows(PetStoryV1.Profile.self, plain: [:], seed: seed).records > 200)
            #expect(Self.compareRandomRows(VocabularyV1.Word.self, plain: [:], seed: seed).records > 200)
            #expect(Self.compareRandomRows(VocabularyV2.WordBook.self, plain: [:], seed: seed).records > 200)
        }
    }

    // MARK: The bench file

    @Test func everyRowOfTheBenchmarksGeneratedFile() throws {
        guard let folder = Fixtures.generatedNotes(3000, version: 2) else {
            print("skipped: ../shared/bench/gen_notes.py (or python3) is absent")
            return
        }
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent("wineTastingNotes.csv")))
        let result = CSVDifferential.compare(Wine.self, bytes, options: ReadOptions(fileName: "wineTastingNotes.csv",
                                                                                     collection: "wineTastingNotes"), limit: 128)
        // 3000 records (some with quoted newlines), every one plain: every one taken.
        #expect(result.records == 3000)
        #expect(result.clean == result.records)
        #expect(result.taken == result.records)
    }
}
