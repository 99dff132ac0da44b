import Foundation
import Testing
import FerryCore
import FerryTestSupport
@testable import FormatCSV

/// Several collections in one CSV: a first column `$collection` on writing, split back on reading.
@Suite struct CSVCollectionColumnTests {
    /// Writes `(collection, value)` pairs with `CSVWriter`, as values or as leaf streams.
    static func write(_ records: [(String?, Value)], options: WriteOptions = WriteOptions(), asLeafStreams: Bool = false) throws
        -> String
    {
        let sink = MemorySink()
        let writer = try CSVWriter(sink, options: options)
        let table = CSVLeafTable(keys: ["id", "rating", "tags", "origin"], format: writer.cellFormat)
        let encoder = CSVLeafEncoder(format: writer.cellFormat)
        for (index, (collection, value)) in records.enumerated() {
            let record = Record(collection: collection, value: value, location: SourceLocation(recordIndex: index))
            if asLeafStreams {
                try CSVLeafStreamTests.stream(of: value, keys: table.keys, encoder: encoder).withUnsafeBufferPointer {
                    try writer.writeLeafStream($0, table: table, collection: collection)
                }
            } else {
                try writer.write(record)
            }
        }
        try writer.finish()
        return sink.text
    }

    static let mixed: [(String?, Value)] = [
        ("wines", ["id": "w1", "rating": .integer(4), "tags": ["a", "b"]]),
        ("coffees", ["id": "c1", "origin": "Kenya, AA", "tags": ["x"]]),
        ("wines", ["id": "w2", "rating": .double(3.5), "tags": []]),
        ("coffees", [:]),
    ]

    static let mixedText = "$collection,id,origin,tags.1,rating,tags.2\r\n"
        + "wines,w1,,a,4,b\r\n"
        + "coffees,c1,\"Kenya, AA\",x,,\r\n"
        + "wines,w2,,,3.5,\r\n"
        + "coffees,,,,,\r\n"

    @Test(arguments: [false, true])
    func severalCollectionsGetACollectionColumn(asLeafStreams: Bool) throws {
        // Listed collections come first in their order: coffees' columns, then wines' new ones.
        let text = try Self.write(Self.mixed, options: WriteOptions(collections: ["coffees", "wines"]), asLeafStreams: asLeafStreams)
        #expect(text == Self.mixedText)
    }

    @Test func unlistedCollectionsKeepTheOrderFirstMet() throws {
        let text = try Self.write(Self.mixed)
        #expect(text == "$collection,id,rating,tags.1,tags.2,origin\r\n"
            + "wines,w1,4,a,b,\r\ncoffees,c1,,x,,\"Kenya, AA\"\r\nwines,w2,3.5,,,\r\ncoffees,,,,,\r\n")
    }

    @Test(arguments: [false, true])
    func oneCollectionWritesAPlainCSV(asLeafStreams: Bool) throws {
        let text = try Self.write([("wines", ["id": "w1", "rating": .integer(4)]), ("wines", ["id": "w2"])], asLeafStreams: asLeafStreams)
        #expect(text == "id,rating\r\nw1,4\r\nw2,\r\n")
    }

    @Test func readingSplitsTheCollectionsBack() throws {
        let result = readCSV(Self.mixedText, options: ReadOptions(fileName: "mixed.csv", collection: "mixed"))
        #expect(result.problems == [])
        #expect(result.records.map(\.collection) == ["wines", "coffees", "wines", "coffees"])
        #expect(result.records.map(\.location.collection) == ["wines", "coffees", "wines", "coffees"])
        // A collection's cells of other collections' columns are absent, not empty strings.
        #expect(result.records.map(\.value) == [
            ["id": "w1", "tags": ["a", "b"], "rating": "4"],
            ["id": "c1", "origin": "Kenya, AA", "tags": ["x"]],
            ["id": "w2", "rating": "3.5"],
            [:],
        ])
        #expect(result.records.map { $0.location.line } == [2, 3, 4, 5])
    }

    @Test func aRowWithoutACollectionKeepsTheFilesOne() throws {
        let result = readCSV("$collection,id\r\n,a\r\nb,c\r\n", options: ReadOptions(collection: "file"))
        #expect(result.records.map(\.collection) == ["file", "b"])
        #expect(result.records.map(\.value) == [["id": "a"], ["id": "c"]])
    }

    @Test func readerSaysWhenRecordsNameCollections() throws {
        let log = DiagnosticLog()
        let mixed = try CSVReader(MemorySource(Array(Self.mixedText.utf8)), log: log)
        #expect(mixed.recordsNameCollections)
        let plain = try CSVReader(MemorySource(Array("id,collection\r\na,b\r\n".utf8)), log: log)
        #expect(!plain.recordsNameCollections)
        let headerless = try CSVReader(MemorySource(Array("$collection,a\r\n".utf8)), options: ReadOptions(hasHeader: false), log: log)
        #expect(!headerless.recordsNameCollections)
    }
}
