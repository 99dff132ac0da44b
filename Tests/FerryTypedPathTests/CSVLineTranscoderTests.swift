import FerryCore
import FerrySchemas
import FerryTestSupport
import FormatCSV
import FormatJSON
import Foundation
import Testing

@testable import FerryTypedPath

/// Offers each row to both the model path (`CSVRecordReading.decode`, then
/// `JSONLinesRendering.render`) and the `CSVLineTranscoder`, and records what each made of it.
final class TranscoderComparison<T: FieldCodableCollection>: RawRecordTaker, @unchecked Sendable {
    // @unchecked: the tests parse batches on one thread.
    let reading: CSVRecordReading<T>
    let transcoder: CSVLineTranscoder
    let collection: String
    /// Per row offered, in order: the model path's line and id, and the transcoder's.
    private(set) var rows: [(model: ([UInt8], String?)?, transcoded: ([UInt8], String?)?)] = []

    init?(columns: [String], collection: String = "c") {
        let options = CSVDifferential.decodingOptions
        guard let reading = CSVRecordReading<T>(columns: columns, options: options),
            let transcoder = CSVLineTranscoder(T.self, columns: columns, collection: collection, options: options)
        else { return nil }
        self.reading = reading
        self.transcoder = transcoder
        self.collection = collection
    }

    func take(_ record: RawRecord) -> TakenRecord? {
        guard case .csvRow(let row) = record else { return nil }
        var modelLine: ([UInt8], String?)? = nil
        if let model = reading.decode(row) {
            var buffer = ByteBuffer(capacity: 256)
            if JSONLinesRendering(options: WriteOptions())!.render(model, collection: collection, into: &buffer) {
                modelLine = (buffer.array, model.recordID.flatMap { $0.isEmpty ? nil : $0 })
            }
        }
        var buffer = ByteBuffer(capacity: 8)
        buffer.append("before")
        var transcoded: ([UInt8], String?)? = nil
        if let passed = transcoder.transcode(row, into: &buffer) {
            let bytes = buffer.array
            #expect(Array(bytes.prefix(6)) == Array("before".utf8))
            #expect(passed.rendered == 6..<bytes.count)
            transcoded = (Array(bytes.dropFirst(6)), passed.id)
        } else {
            #expect(buffer.array == Array("before".utf8), "a row given up on leaves the buffer as it was")
        }
        rows.append((modelLine, transcoded))
        return nil
    }
}

/// `CSVLineTranscoder` against the model path it replaces: for every row, the same line and id or
/// both give up; and the models it refuses (`DescriptorTrace`).
@Suite struct CSVLineTranscoderTests {
    typealias Wine = NotesV2.WineTastingNote
    typealias Rows = CSVRecordReadingTests

    /// How many rows the transcoder took, after checking every row against the model path.
    @discardableResult
    static func compare<T: FieldCodableCollection>(_ type: T.Type, _ text: String,
        options: ReadOptions = ReadOptions(fileName: "t.csv", collection: "t"), sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws -> (rows: Int, taken: Int)
    {
        let reader = try CSVReader(MemorySource(Array(text.utf8)), options: options, log: DiagnosticLog())
        let comparison = try #require(TranscoderComparison<T>(columns: reader.headerFields), sourceLocation: sourceLocation)
        while let batch = try reader.nextBatch(limit: 7) {
            batch.parse(offering: comparison)
            _ = reader.items(from: batch)
        }
        var taken = 0
        for (index, row) in comparison.rows.enumerated() {
            switch (row.model, row.transcoded) {
            case (let model?, let transcoded?):
                #expect(model.0 == transcoded.0, "row \(index): \(String(decoding: model.0, as: UTF8.self)) vs \(String(decoding: transcoded.0, as: UTF8.self))",
                        sourceLocation: sourceLocation)
                #expect(model.1 == transcoded.1, "row \(index): ids differ", sourceLocation: sourceLocation)
                taken += 1
            case (nil, nil):
                break
            case (_?, nil):
                // The transcoder may refuse more than the model reader (numbers not in their
                // shortest form, instants in other forms): those rows take the model reader.
                break
            case (nil, let transcoded?):
                Issue.record("row \(index): the transcoder took a row the model path refuses: \(String(decoding: transcoded.0, as: UTF8.self))",
                             sourceLocation: sourceLocation)
            }
        }
        return (comparison.rows.count, taken)
    }

    @Test func plainWineRowExactBytes() throws {
        let text = Rows.csv(Rows.wineColumns, [[:]])
        let reader = try CSVReader(MemorySource(Array(text.utf8)), options: ReadOptions(fileName: "t.csv", collection: "t"),
                                   log: DiagnosticLog())
        let comparison = try #require(TranscoderComparison<Wine>(columns: reader.headerFields, collection: "wineTastingNotes"))
        while let batch = try reader.nextBatch(limit: 7) { batch.parse(offering: comparison) }
        let line = try #require(comparison.rows.first?.transcoded)
        #expect(String(decoding: line.0, as: UTF8.self) == """
            {"$collection":"wineTastingNotes","id":"w1","title":"Syrah 2001 \\"Cuvée 1\\"","category":"red",\
            "createdAt":"2023-10-04T02:43:15Z","alcoholByVolume":12.4,"look":{"tint":"ruby","note":"deep"},\
            "smells":[{"label":"cherry"},{"label":"oak"}],"tastes":[{"label":"finish","value":0.91},\
            {"label":"sweetness","value":0.21}],"grape":{"variety":"Pinot Noir"},"think":"Too sharp;\\nlong, dry",\
            "rating":2.5,"isFavorite":false}

            """)
        #expect(line.1 == "w1")
    }

    @Test func everyCellOfEveryColumn() throws {
        #expect(try Self.compare(Wine.self, Rows.csv(Rows.wineColumns, Rows.variations(Rows.wineColumns))).taken > 100)
        #expect(try Self.compare(NotesV2.WhiskeyTastingNote.self,
                                 Rows.csv(Rows.whiskeyColumns, Rows.variations(Rows.whiskeyColumns))).taken > 100)
        #expect(try Self.compare(NotesV2.CocktailTastingNote.self,
                                 Rows.csv(Rows.cocktailColumns, Rows.variations(Rows.cocktailColumns))).taken > 100)
    }

    @Test func randomRows() throws {
        for seed: UInt64 in 1...6 {
            let rows = Rows.randomRows(Rows.wineColumns, count: 400, seed: seed)
            let result = try Self.compare(Wine.self, Rows.csv(Rows.wineColumns, rows, lineEnd: seed % 2 == 0 ? "\r\n" : "\n"))
            // Rows that are not CSV (text after a closing quote) are reported, not offered.
            #expect(result.rows > 350 && result.rows <= 400)
            #expect(result.taken > 20)
        }
    }

    @Test func listsNullTokenAndOddHeaders() throws {
        let options = ReadOptions(fileName: "t.csv", collection: "t", nullToken: "NULL")
        try Self.compare(Wine.self, Rows.csv(Rows.wineColumns, Rows.variations(Rows.wineColumns)), options: options)
        let lists: [[String: String]] = [
            ["smells.1.label": "", "smells.2.label": "oak", "smells.3.label": ""],
            ["smells.1.label": "", "smells.2.label": "", "smells.3.label": ""],
            ["smells.1.label": "\"\"", "smells.2.label": "", "smells.3.label": ""],
            ["tastes.1.label": "", "tastes.1.value": "0.5"],
            ["tastes.1.label": "", "tastes.1.value": "", "tastes.2.label": "y", "tastes.2.value": "0.1"],
            ["look.tint": "", "look.note": ""], ["look.tint": "", "look.note": "x"], ["grape.variety": ""],
        ]
        #expect(try Self.compare(Wine.self, Rows.csv(Rows.wineColumns, lists)).taken == 4)
        let headers: [[String]] = [
            Rows.wineColumns.reversed(), Rows.wineColumns + ["extra", "look.extra", "smells.4.other"],
            Rows.wineColumns.filter { !$0.hasPrefix("smells.1") }, Rows.wineColumns + ["look"],
            Rows.wineColumns.filter { !$0.hasPrefix("smells.") && !$0.hasPrefix("tastes.") },
            Rows.wineColumns.filter { $0 != "category" && $0 != "think" }, Rows.wineColumns + ["smells.4"],
        ]
        for columns in headers {
            try Self.compare(Wine.self, Rows.csv(columns, Rows.headerRows(columns)))
        }
    }

    @Test func otherDomains() throws {
        let plain = ["id": "w1", "wordBookID": "b1", "meaningImageURL": "https://example.com/m.png", "ganaImageURL": "",
                     "kanjiImageURL": "http://example.com/k", "studyState": "success", "timestamp": "2024-05-01T09:30:00Z"]
        let columns = Rows.columns(of: VocabularyV2.Word.recordType)
        var generator = SplitMix(seed: 7)
        var rows: [[String: String]] = []
        for _ in 0..<300 {
            var row: [String: String] = [:]
            for column in columns {
                row[column] = generator.next(3) == 0 ? Rows.mixedCells[generator.next(Rows.mixedCells.count)] : plain[column] ?? "x"
            }
            rows.append(row)
        }
        // The vocabulary word has URLs and an enumeration: both checked here as the reader checks them.
        #expect(try Self.compare(VocabularyV2.Word.self, Rows.csv(columns, rows)).taken > 20)
    }

    @Test func theBenchGeneratorsRowsAreAllTaken() throws {
        // The shape `gen_notes.py` writes: four smells, three tastes, quoted newlines and quotes.
        let columns = ["id", "title", "category", "createdAt", "alcoholByVolume", "look.tint", "look.note", "smells.1.label",
                       "smells.2.label", "smells.3.label", "smells.4.label", "tastes.1.label", "tastes.1.value", "tastes.2.label",
                       "tastes.2.value", "tastes.3.label", "tastes.3.value", "grape.variety", "think", "rating", "isFavorite"]
        let text = columns.joined(separator: ",") + "\n" + #"""
            3d9c1724-11e2-4b8f-ab0d-549b6f03675a,"Cabernet Sauvignon 2000 ""Cuvée 0""",red,2023-10-04T02:43:15Z,12.4,ruby,deep,cherry,oak,pepper,,finish,0.91,sweetness,0.21,,,Pinot Noir,"Lovely, long finish.",2.5,false
            a38fd547-923a-4369-94e3-bf911a61dbe2,"Syrah 2001 ""Cuvée 1""",white,2021-07-12T04:46:07Z,11.0,salmon,deep,smoke,cherry,citrus,pepper,acidity,0.14,tannin,0.12,finish,0.31,Pinot Noir,"Too sharp;
            needs air",1,false
            86734721-4cdd-4055-930d-6eaf14f4733f,"Nebbiolo 2002 ""Cuvée 2""",rosé,2025-03-23T07:20:50Z,15.0,purple,hazy,,,,,tannin,0.25,,,,,Riesling,,1.5,true

            """#
        let result = try Self.compare(Wine.self, text)
        #expect(result == (rows: 3, taken: 3))
    }

    // MARK: Models the transcoder refuses

    @Test func modelsWithChecksAcrossFieldsAreNotPlain() {
        // Pet-story V2 profiles check lastUpdatedAt against createdAt; family members their birth dates.
        #expect(DescriptorTrace(PetStoryV2.Profile.self) == nil)
        #expect(CSVLineTranscoder(PetStoryV2.Profile.self, columns: Rows.columns(of: PetStoryV2.Profile.recordType),
                                  collection: "profiles", options: CSVDifferential.decodingOptions) == nil)
    }

    @Test func everyNotesModelIsPlainWithItsIDField() {
        for type in [Wine.self, NotesV2.WhiskeyTastingNote.self, NotesV2.CocktailTastingNote.self,
                     NotesV2.CoffeeTastingNote.self] as [any FieldCodableCollection.Type] {
            let idField = Self.idField(type)
            #expect(idField == .some(type.recordType.index(ofField: "id")), "\(type)")
        }
    }

    /// The traced id field of `type` (nil: not plain).
    static func idField<T: FieldCodableCollection>(_ type: T.Type) -> Int?? { DescriptorTrace(type).map(\.idField) }

    @Test func transcoderNeedsScalarsAsText() {
        #expect(CSVLineTranscoder(Wine.self, columns: Rows.wineColumns, collection: "w", options: DecodingOptions()) == nil)
        #expect(CSVLineTranscoder(Wine.self, columns: Rows.wineColumns, collection: "w", options: CSVDifferential.decodingOptions) != nil)
        #expect(CSVLineTranscoder(Wine.self, columns: ["id", "id"], collection: "w", options: CSVDifferential.decodingOptions) == nil)
    }
}
