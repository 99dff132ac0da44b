import FerryCore
import FerryTestSupport
import Testing

@testable import FormatCSV

/// `CSVWriter.writeLeafStream(_:table:collection:)` against `CSVWriter.write(_:)`: a record's leaf stream
/// must make the same shape nodes, in the same order, mark the same leaves and spool the same
/// bytes as the record's value, record after record, mixed with records written as values.
@Suite struct CSVLeafStreamTests {
    /// The stream of `value` (an object) whose top-level keys are in `keys` (the table's), nested
    /// keys written inline: what `CSVLeafEncoder` makes of a record's members.
    static func stream(of value: Value, keys: [String], encoder: CSVLeafEncoder) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 64)
        guard case .object(let object) = value else { return [] }
        for member in object.members {
            guard let index = keys.firstIndex(of: member.key) else {
                Issue.record("no key \(member.key) in the table")
                return []
            }
            encoder.appendMember(index, member.value, into: &buffer)
        }
        encoder.appendEnd(into: &buffer)
        return buffer.array
    }

    /// A writer given values, a writer given the same records as leaf streams (`streamed` says
    /// which; the others as values), compared after each record (spool bytes, nodes) and at the end
    /// (the output, and the error `finish()` throws).
    static func expectSameAsWrite(_ values: [Value], streamed: (Int) -> Bool = { _ in true }, keys: [String],
                                  options: WriteOptions = WriteOptions(), tables: (Int) -> Int = { _ in 0 },
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let expectedSink = MemorySink()
        let actualSink = MemorySink()
        let expected = try CSVWriter(expectedSink, options: options)
        let actual = try CSVWriter(actualSink, options: options)
        let encoder = CSVLeafEncoder(format: actual.cellFormat)
        // Two tables of the same keys: handing the writer another one makes it forget its cache.
        let tableList = [CSVLeafTable(keys: keys, format: actual.cellFormat), CSVLeafTable(keys: keys, format: actual.cellFormat)]
        for (index, value) in values.enumerated() {
            let record = Record(collection: "c", value: value, location: SourceLocation(recordIndex: index))
            try expected.write(record)
            if streamed(index) {
                let bytes = stream(of: value, keys: keys, encoder: encoder)
                try bytes.withUnsafeBufferPointer { try actual.writeLeafStream($0, table: tableList[tables(index) % 2], collection: "c") }
            } else {
                try actual.write(record)
            }
            // Compared apart from the expectation, which would print both spools whole.
            let sameSpool = actual.pending.array == expected.pending.array
            #expect(sameSpool, "record \(index): another spool", sourceLocation: sourceLocation)
            #expect(actual.nodeCount == expected.nodeCount, "record \(index)", sourceLocation: sourceLocation)
            if !sameSpool { return }
        }
        let expectedError = finishing(expected)
        let actualError = finishing(actual)
        #expect(actualError == expectedError, sourceLocation: sourceLocation)
        let sameOutput = actualSink.bytes == expectedSink.bytes
        #expect(sameOutput, "another output", sourceLocation: sourceLocation)
    }

    /// The message of the error `finish()` throws, nil when it throws none.
    static func finishing(_ writer: CSVWriter) -> String? {
        do {
            try writer.finish()
            return nil
        } catch let error as FerryError {
            return error.diagnostic.message
        } catch {
            return "\(error)"
        }
    }

    /// Random records: objects of the table's keys holding scalars of every kind (strings that need
    /// quotes, csv-safe prefixes, NaN), nested objects with keys of their own, lists of every length
    /// (empty ones too, whose nodes still count), lists of lists, empty objects.
    struct Records {
        var random: SplitMix
        static let keys = ["id", "title", "look", "smells", "tastes", "n", "x.y", "1", "empty", "deep"]
        static let pieces = ["a", "b c", ",", "\"", "\r", "\n", "\r\n", "=", "+", "-", "@", "\t", ";", "é", "😀", "", "0.5"]

        mutating func pick<T>(_ list: [T]) -> T { list[random.next(list.count)] }

        mutating func text() -> String { (0..<random.next(5)).map { _ in pick(Self.pieces) }.joined() }

        mutating func scalar() -> Value {
            switch random.next(9) {
            case 0: return .null
            case 1: return .bool(random.next(2) == 0)
            case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next(64)))
            case 3: return .double(Double(random.next(10_000)) / 64)
            case 4: return .double(pick([0.1, -0.0, 1e21, .leastNonzeroMagnitude, 1 / 3, 100]))
            case 5: return .number(pick(["1.50", "-0", "1e3"]))
            default: return .string(text())
            }
        }

        mutating func value(depth: Int) -> Value {
            switch depth > 2 ? 0 : random.next(6) {
            case 0, 1, 2: return scalar()
            case 3: return .array((0..<random.next(5)).map { _ in value(depth: depth + 1) })
            case 4:
                var object = ValueObject()
                for _ in 0..<random.next(4) { object.append(pick(["a", "b", "c.d", "label", "value"]), value(depth: depth + 1)) }
                return .object(object)
            default: return random.next(2) == 0 ? .array([]) : .object(ValueObject())
            }
        }

        mutating func record() -> Value {
            var object = ValueObject()
            for key in Self.keys where random.next(3) != 0 { object.append(key, value(depth: 0)) }
            return .object(object)
        }
    }

    @Test func randomRecordsReplayAsTheirValues() throws {
        var records = Records(random: SplitMix(seed: 3))
        let values = (0..<3000).map { _ in records.record() }
        for options in [WriteOptions(), WriteOptions(csvSafe: true), WriteOptions(delimiter: CSVReader.tab),
                        WriteOptions(csvSafe: true, delimiter: UInt8(ascii: ";"))] {
            try Self.expectSameAsWrite(values, keys: Records.keys, options: options)
        }
    }

    @Test func mixedWithRecordsWrittenAsValues() throws {
        var records = Records(random: SplitMix(seed: 5))
        let values = (0..<2000).map { _ in records.record() }
        var random = SplitMix(seed: 9)
        let streamed = (0..<values.count).map { _ in random.next(3) != 0 }
        let tables = (0..<values.count).map { index in index < 1000 ? 0 : random.next(2) }
        try Self.expectSameAsWrite(values, streamed: { streamed[$0] }, keys: Records.keys, tables: { tables[$0] })
        // Only the first record as a value (the typed path's first record goes the general way).
        try Self.expectSameAsWrite(values, streamed: { $0 > 0 }, keys: Records.keys)
    }

    @Test func emptyListsAndObjectsStillMakeTheirNodes() throws {
        // `a`'s node is made by the first record, so `a.1` comes before `b` in the header.
        let values: [Value] = [["a": .array([]), "b": "x"], ["a": ["y"], "b": "z"], ["empty": .object(ValueObject())], ["n": [[], ["k": 1]]]]
        try Self.expectSameAsWrite(values, keys: ["a", "b", "empty", "n"])
        let sink = MemorySink()
        let writer = try CSVWriter(sink)
        let table = CSVLeafTable(keys: ["a", "b"], format: writer.cellFormat)
        let encoder = CSVLeafEncoder(format: writer.cellFormat)
        for value in values.prefix(2) {
            try Self.stream(of: value, keys: table.keys, encoder: encoder).withUnsafeBufferPointer {
                try writer.writeLeafStream($0, table: table, collection: "c")
            }
        }
        try writer.finish()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "a.1,b\r\n,x\r\ny,z\r\n")
    }

    @Test func aKeyTwiceInTheTableIsOneColumn() throws {
        // Two indexes naming `label` (the typed path's blocks repeat names across record types).
        let sink = MemorySink()
        let writer = try CSVWriter(sink)
        let table = CSVLeafTable(keys: ["label", "v", "label"], format: writer.cellFormat)
        let encoder = CSVLeafEncoder(format: writer.cellFormat)
        for index in [0, 2] {
            var buffer = ByteBuffer(capacity: 16)
            encoder.appendTag(CSVLeafStream.memberTag(index, .leaf), into: &buffer)
            encoder.appendString("x\(index)", into: &buffer)
            encoder.appendEnd(into: &buffer)
            try buffer.withBytes { try writer.writeLeafStream($0, table: table, collection: "c") }
        }
        try writer.finish()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "label\r\nx0\r\nx2\r\n")
    }

    @Test func notANumberFailsAtFinishAsAValueDoes() throws {
        let values: [Value] = [["n": 1], ["n": .double(.nan)], ["n": .double(-.infinity)]]
        try Self.expectSameAsWrite(values, keys: ["n"])
        try Self.expectSameAsWrite(values, streamed: { $0 != 1 }, keys: ["n"])
    }

    @Test func cellsOfAnotherFormatAreRefused() throws {
        let writer = try CSVWriter(MemorySink(), options: WriteOptions(csvSafe: true))
        let table = CSVLeafTable(keys: ["a"], format: CSVCellFormat())
        let bytes = Self.stream(of: ["a": "=x"], keys: table.keys, encoder: CSVLeafEncoder(format: table.format))
        #expect(throws: FerryError.self) { try bytes.withUnsafeBufferPointer { try writer.writeLeafStream($0, table: table, collection: "c") } }
    }

    @Test func malformedStreamsThrowAndSpoolNothing() throws {
        var records = Records(random: SplitMix(seed: 21))
        let keys = Records.keys
        let encoder = CSVLeafEncoder(format: CSVCellFormat())
        for _ in 0..<40 {
            let bytes = Self.stream(of: records.record(), keys: keys, encoder: encoder)
            let writer = try CSVWriter(MemorySink())
            let table = CSVLeafTable(keys: keys, format: writer.cellFormat)
            // Every cut-short stream, and the whole one with a byte more.
            for length in 0..<bytes.count {
                #expect(throws: FerryError.self) {
                    try bytes.withUnsafeBufferPointer { try writer.writeLeafStream(UnsafeBufferPointer(rebasing: $0[..<length]), table: table, collection: "c") }
                }
                #expect(writer.pending.count == 0)
            }
            #expect(throws: FerryError.self) { try (bytes + [0]).withUnsafeBufferPointer { try writer.writeLeafStream($0, table: table, collection: "c") } }
        }
        // A key index past the table, a key tag in a list, a cell longer than the stream.
        let writer = try CSVWriter(MemorySink())
        let table = CSVLeafTable(keys: ["a"], format: writer.cellFormat)
        for bytes: [UInt8] in [[UInt8(CSVLeafStream.memberTag(1, .leaf)), 2, 0x61, 0x62, 0],
                               [UInt8(CSVLeafStream.memberTag(0, .list)), UInt8(CSVLeafStream.memberTag(0, .leaf)), 0, 0, 0],
                               [UInt8(CSVLeafStream.memberTag(0, .leaf)), 40, 0x61, 0]] {
            #expect(throws: FerryError.self) { try bytes.withUnsafeBufferPointer { try writer.writeLeafStream($0, table: table, collection: "c") } }
        }
    }
}
