import FerryCore
import FerrySchemas
import Testing

/// `process` is `commit(prepare(...))`; preparing every record first (as `--jobs` workers do)
/// and committing in order afterwards must give the same records and diagnostics.
@Suite struct PreparedRecordTests {
    static var records: [Record] {
        [
            makeRecord("wineNotes", 0, ["id": "w1", "title": "A", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcohol": 12.5, "look": "ruby, bright", "smells": ["oak"], "tastes": [], "grape": "Syrah", "think": "",
                "rating": 4, "isFavorite": false], line: 2),
            makeRecord("wineNotes", 1, ["id": "w1", "title": "B", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcohol": 12.5, "look": "ruby", "smells": [], "tastes": [], "grape": "Syrah", "think": "",
                "rating": 4, "isFavorite": false], line: 3),
            makeRecord("wineNotes", 2, ["id": "w3", "title": "C", "category": "red", "createdAt": "2024-13-01T00:00:00Z",
                "alcohol": 12.5, "look": "ruby", "smells": [], "tastes": [], "grape": "Syrah", "think": "",
                "rating": 9, "isFavorite": false, "extra": 1], line: 4),
            makeRecord("beerNotes", 0, ["id": "b1"], line: 5),
            makeRecord("wineNotes", 3, ["title": "D", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcohol": 0, "look": "", "smells": [], "tastes": [], "grape": "", "think": "",
                "rating": 1, "isFavorite": true], line: 6),
        ]
    }

    @Test func preparingAheadGivesWhatProcessGives() throws {
        for mode in [ProcessingMode.normal, .strict, .lenient] {
            let serial = try run(.notes, from: 1, to: 2, Self.records, mode: mode)

            var options = ProcessingOptions()
            options.mode = mode
            let log = DiagnosticLog()
            let processor = try DatasetProcessor(domain: .notes, sourceVersion: 1, targetVersion: 2, options: options, log: log)
            let prepared = Self.records.map { processor.preparer.prepare($0) }
            var output: [Record] = []
            for item in prepared { output += processor.commit(item) }
            processor.finish()

            #expect(output.map(\.value) == serial.records.map(\.value))
            #expect(output.map(\.location) == serial.records.map(\.location))
            #expect(log.diagnostics == serial.log.diagnostics)
            #expect(log.diagnostics.contains { $0.code == .duplicateID })
        }
    }

    /// `needsOutputValues = false` (validate) skips the canonical values and the output records'
    /// places: the same records (collections, record indexes; no file, line or locator) and the
    /// same diagnostics, ids and references come out.
    @Test func withoutOutputValuesOnlyTheValuesAreLeftOut() throws {
        let v2 = [
            makeRecord("wineTastingNotes", 0, ["id": "w1", "title": "A", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcoholByVolume": 12.5, "look": ["tint": "ruby", "note": ""], "smells": [], "tastes": [],
                "grape": ["variety": "Syrah"], "think": "", "rating": 4, "isFavorite": false], line: 2),
            makeRecord("wineTastingNotes", 1, ["id": "w1", "title": "", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcoholByVolume": 120, "look": ["tint": "ruby", "note": ""], "smells": [], "tastes": [],
                "grape": ["variety": "Syrah"], "think": "", "rating": 4.2, "isFavorite": false], line: 3),
            makeRecord("wineTastingNotes", 2, ["id": "w2", "title": "B", "category": "red", "createdAt": "2024-01-01T00:00:00Z",
                "alcoholByVolume": 12.5, "look": ["tint": "ruby", "note": ""], "smells": [], "tastes": [],
                "grape": ["variety": "Syrah"], "think": "", "rating": 4, "isFavorite": false], line: 4),
        ]
        let cases: [(Domain, Int, Int, [Record])] = [(.notes, 1, 1, Self.records), (.notes, 2, 2, v2), (.notes, 1, 2, Self.records)]
        for (domain, from, to, records) in cases {
            for mode in [ProcessingMode.normal, .strict, .lenient] {
                let full = try run(domain, from: from, to: to, records, mode: mode)

                var options = ProcessingOptions()
                options.mode = mode
                options.needsOutputValues = false
                let log = DiagnosticLog()
                let processor = try DatasetProcessor(domain: domain, sourceVersion: from, targetVersion: to, options: options, log: log)
                var output: [Record] = []
                for record in records { output += processor.process(record) }
                processor.finish()

                #expect(output.map(\.collection) == full.records.map(\.collection))
                #expect(output.map(\.location) == full.records.map {
                    SourceLocation(collection: $0.location.collection, recordIndex: $0.location.recordIndex)
                })
                #expect(output.allSatisfy { $0.locator == nil })
                #expect(log.diagnostics == full.log.diagnostics)
                #expect(!output.isEmpty)
                if from == to { #expect(output.allSatisfy { $0.value == .null }) }
            }
        }
    }
}
