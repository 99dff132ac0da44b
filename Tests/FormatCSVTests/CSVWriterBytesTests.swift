import Testing
import FerryCore
import FerryTestSupport
@testable import FormatCSV

/// `CSVWriter` writes cells straight to bytes (table-driven quoting, hand-rendered integers, cached
/// doubles, a binary spool read back in blocks): these pin its exact bytes on edge cases and check
/// it against `ReferenceCSVWriter`, the straightforward path it replaced.
@Suite struct CSVWriterBytesTests {
    /// What `CSVWriter` gives for `values`: the bytes the sink got, and the error `finish()` threw.
    static func written(_ values: [Value], options: WriteOptions = WriteOptions()) throws -> (bytes: [UInt8], error: String?) {
        let sink = MemorySink()
        let writer = try CSVWriter(sink, options: options)
        for (index, value) in values.enumerated() {
            try writer.write(Record(collection: "c", value: value, location: SourceLocation(recordIndex: index)))
        }
        do {
            try writer.finish()
            return (sink.bytes, nil)
        } catch let error as FerryError {
            return (sink.bytes, error.diagnostic.message)
        }
    }

    /// Expects `CSVWriter` and the reference to give the same bytes and error.
    static func expectSameAsReference(_ values: [Value], options: WriteOptions = WriteOptions(),
                                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let reference = ReferenceCSVWriter(options: options)
        for value in values { reference.write(value) }
        let expected = reference.finish()
        let actual = try written(values, options: options)
        #expect(actual.error == expected.error, sourceLocation: sourceLocation)
        #expect(actual.bytes == expected.bytes, sourceLocation: sourceLocation)
    }

    @Test func raggedListsWidenLater() throws {
        let values: [Value] = [["l": [.integer(1)], "o": ["a": "x"]],
                               ["l": [.integer(1), .integer(2), .integer(3)], "o": ["b": ["c": true]]],
                               ["l": [["k": "v"]]]]
        #expect(try writeCSV(values) == "l.1,l.1.k,l.2,l.3,o.a,o.b.c\r\n1,,,,x,\r\n1,,2,3,,true\r\n,v,,,,\r\n")
        try Self.expectSameAsReference(values)
    }

    @Test func emptyStringVersusNullVersusAbsent() throws {
        let values: [Value] = [["a": "", "b": .null, "c": "x"], ["c": ""], ["a": [], "b": [:]]]
        #expect(try writeCSV(values) == "a,b,c\r\n\"\",,x\r\n,,\"\"\r\n,,\r\n")
        try Self.expectSameAsReference(values)
    }

    @Test func quotesLineBreaksAndDelimitersInCells() throws {
        let values: [Value] = [["a": "x,y", "b": "say \"hi\"", "c": "cr\rx", "d": "lf\nx", "e": "\"", "f": "tab\there"]]
        #expect(try writeCSV(values) == "a,b,c,d,e,f\r\n\"x,y\",\"say \"\"hi\"\"\",\"cr\rx\",\"lf\nx\",\"\"\"\",tab\there\r\n")
        #expect(try writeCSV(values, options: WriteOptions(delimiter: CSVReader.tab))
            == "a\tb\tc\td\te\tf\r\nx,y\t\"say \"\"hi\"\"\"\t\"cr\rx\"\t\"lf\nx\"\t\"\"\"\"\t\"tab\there\"\r\n")
        try Self.expectSameAsReference(values)
        try Self.expectSameAsReference(values, options: WriteOptions(delimiter: CSVReader.tab))
    }

    @Test func csvSafePrefixesWithAndWithoutQuotes() throws {
        let values: [Value] = [["=h": "=1", "b": "-\"x\"", "c": "@a,b", "d": "+", "e": .integer(-3), "f": .double(-0.5),
                                "g": .number("-2"), "h": "a=b", "i": "\rx"]]
        let options = WriteOptions(csvSafe: true)
        #expect(try writeCSV(values, options: options)
            == "'=h,b,c,d,e,f,g,h,i\r\n'=1,\"'-\"\"x\"\"\",\"'@a,b\",'+,-3,-0.5,-2,a=b,\"'\rx\"\r\n")
        try Self.expectSameAsReference(values, options: options)
    }

    @Test func largeIntegers() throws {
        let values: [Value] = [["a": .integer(.max), "b": .integer(.min), "c": .integer(0), "d": .integer(-1),
                                "e": .integer(1_000_000_000_000_000_000), "f": .integer(9_999_999_999)]]
        #expect(try writeCSV(values)
            == "a,b,c,d,e,f\r\n9223372036854775807,-9223372036854775808,0,-1,1000000000000000000,9999999999\r\n")
        try Self.expectSameAsReference(values)
    }

    @Test func doublesInTheirECMAScriptForm() throws {
        let doubles: [Double] = [1e21, 0.1, -0.0, 0, 1e-7, 123.456, 1e20, 2.5, -1.5e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e-6,
                                 1.2345678901234568e20, 4.35, 0.000001, 1.7976931348623157e308]
        var object = ValueObject()
        for (index, d) in doubles.enumerated() { object.append("d\(index)", .double(d)) }
        // Twice, so the second row's cells come from the cache.
        let text = try writeCSV([.object(object), .object(object)])
        let row = doubles.map { NumberText.ecmaScript($0) ?? "" }.joined(separator: ",")
        #expect(text.hasSuffix("\r\n" + row + "\r\n" + row + "\r\n"))
        #expect(row.hasPrefix("1e+21,0.1,0,0,1e-7,123.456,100000000000000000000,2.5,-1.5e-300,5e-324,1.7976931348623157e+308,0.000001,"))
        try Self.expectSameAsReference([.object(object), .object(object)])
    }

    @Test func manyDoublesAndIntegersAsTheGeneralPathWritesThem() throws {
        // Random bit patterns (most collide in the cache), repeated values, and integers.
        var generator = SplitMix(seed: 7)
        var values: [Value] = []
        for row in 0..<3000 {
            var d = Double(bitPattern: generator.next())
            if !d.isFinite { d = Double(row) / 7 }
            let small = Double(generator.next() % 1000) / 100
            values.append(["d": .double(d), "s": .double(small), "i": .integer(Int64(bitPattern: generator.next()) >> (generator.next() % 64)),
                           "f": .double(Double(row))])
        }
        try Self.expectSameAsReference(values)
    }

    @Test func nanIsAnErrorAtFinishAfterTheRowsBefore() throws {
        let values: [Value] = [["a": .double(1), "b": "x"], ["a": "y", "b": .double(.nan)], ["a": .double(.infinity)]]
        let result = try Self.written(values)
        #expect(result.error == "nan has no CSV form (record 1, column b)")
        #expect(String(decoding: result.bytes, as: UTF8.self) == "a,b\r\n1,x\r\n")
        try Self.expectSameAsReference(values)
        try Self.expectSameAsReference([["a": .double(-.infinity)]])
    }

    @Test func randomRecordsAcrossBlockBoundaries() throws {
        // Enough rows for several 64 KB blocks on both passes, shapes that change, every kind of
        // string, and one record larger than the spool's 1 MB read block.
        var generator = SplitMix(seed: 11)
        let pieces = ["a", "b c", ",", "\"", "\r", "\n", "=", "-", "@", "\t", "é", "😀", "plain text", "", "0.5"]
        func text() -> String {
            (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
        }
        func scalar() -> Value {
            switch generator.next() % 7 {
            case 0: return .null
            case 1: return .bool(generator.next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: generator.next()) >> 20)
            case 3: return .double(Double(generator.next() % 10_000) / 64)
            case 4: return .number("1.50")
            default: return .string(text())
            }
        }
        var values: [Value] = []
        for _ in 0..<4000 {
            var object = ValueObject()
            for _ in 0..<Int(generator.next() % 6) {
                let key = ["id", "n", "list", "obj", "x.y", "t"][Int(generator.next() % 6)]
                switch generator.next() % 4 {
                case 0: object.append(key, .array((0..<Int(generator.next() % 5)).map { _ in scalar() }))
                case 1: object.append(key, ["y": scalar(), "z": [scalar()]])
                default: object.append(key, scalar())
                }
            }
            values.append(.object(object))
        }
        values.insert(["big": .string(String(repeating: "ab\"c,", count: 300_000))], at: 1234)
        for csvSafe in [false, true] {
            try Self.expectSameAsReference(values, options: WriteOptions(csvSafe: csvSafe))
        }
        try Self.expectSameAsReference(values, options: WriteOptions(delimiter: CSVReader.tab))
    }
}

