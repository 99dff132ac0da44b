import FerryCore
import FerryTestSupport
import Testing

@testable import FormatJSON

/// The JSON Lines and JSON document writers send a string of 64 KiB or more to the sink escaped
/// piece by piece: the bytes are those of the whole-buffer rendering, and no single write holds
/// the whole value.
@Suite struct JSONLongValueWriterTests {
    /// Every kind of escape and every UTF-8 length, so that over the shifts each lands on a piece
    /// boundary: quote, backslash, controls (short escapes and `\u00xx`), 2-, 3- and 4-byte
    /// characters, U+2028 (written as it is), `/` (not escaped).
    static let unit = "a\"b\\c\u{1}d\u{1F}é€😀\u{2028}\n\r\t/\u{8}\u{C}"

    /// (size, shift) cells: every shift at the smaller sizes, two at 2 MiB.
    static let cells = LongValues.cells(unit: unit)

    static func records(_ long: String) -> [(collection: String?, value: Value)] {
        [
            ("wineTastingNotes", ["id": "w1", "title": "short"]),
            ("wineTastingNotes", ["id": "w2", "think": .string(long), "tastes": [["label": .string(long)]], "n": .double(1.5)]),
            ("wineTastingNotes", ["id": "w3"]),
        ]
    }

    @Test func jsonLinesStreamsLongStringsAsTheRendererWritesThem() throws {
        for (size, shift) in Self.cells {
            let records = Self.records(LongValues.text(byteCount: size, unit: Self.unit, shift: shift))
            let sink = PieceRecordingSink()
            let writer = JSONLinesWriter(sink: sink)
            for record in records {
                try writer.write(Record(collection: record.collection, value: record.value, location: SourceLocation()))
            }
            try writer.finish()
            let expected = try Self.wholeLines(records)
            #expect(sink.bytes == expected, "size \(size), shift \(shift)")
            #expect(sink.largestWrite <= 7 * 64 * 1024, "size \(size), shift \(shift)")
        }
    }

    /// The lines made in one buffer, as the writer makes them without a sink to stream to.
    static func wholeLines(_ records: [(collection: String?, value: Value)]) throws -> [UInt8] {
        var out = JSONSerializer(pretty: false)
        for record in records {
            guard case .object(let object) = record.value, let collection = record.collection else {
                try out.appendValue(record.value)
                out.appendASCII("\n")
                continue
            }
            out.appendASCII("{\"$collection\":")
            out.appendString(collection)
            for member in object.members {
                out.appendASCII(",")
                out.appendKey(member.key)
                try out.appendValue(member.value)
            }
            out.appendASCII("}\n")
        }
        return out.bytes.array
    }

    /// Renderers (`--jobs`) leave a record holding a long string to `write(_:)`, which streams it,
    /// and render the others as before.
    @Test func rendererLeavesRecordsWithLongStringsToTheWriter() throws {
        for length in [JSONLinesWriter.longStringThreshold - 1, JSONLinesWriter.longStringThreshold] {
            let records = Self.records(String(repeating: "x", count: length))
            let rendered = JSONLinesWriter(sink: MemorySink()).renderer.render(records)
            let first = try Self.wholeLines([records[0]]).count
            let second = try Self.wholeLines([records[1]]).count
            let third = try Self.wholeLines([records[2]]).count
            if length < JSONLinesWriter.longStringThreshold {
                #expect(rendered.ranges == [0..<first, first..<first + second, first + second..<first + second + third])
                #expect(rendered.bytes == (try Self.wholeLines(records)))
            } else {
                #expect(rendered.ranges == [0..<first, nil, first..<first + third])
                #expect(rendered.bytes == (try Self.wholeLines([records[0], records[2]])))
            }
        }
    }

    @Test(arguments: [true, false])
    func jsonDocumentStreamsLongStringsAsTheSerializerWritesThem(pretty: Bool) throws {
        for (size, shift) in Self.cells where shift % 4 == 0 {
            let records = Self.records(LongValues.text(byteCount: size, unit: Self.unit, shift: shift))
            for envelope in [false, true] {
                let sink = PieceRecordingSink()
                let options = WriteOptions(collections: envelope ? ["wineTastingNotes"] : [], pretty: pretty)
                let writer = JSONDocumentWriter(sink: sink, options: options)
                for record in records {
                    try writer.write(
                        Record(collection: envelope ? record.collection : nil, value: record.value, location: SourceLocation()))
                }
                try writer.finish()
                // The same document made in one buffer.
                var out = JSONSerializer(pretty: pretty)
                let level = envelope ? 2 : 1
                if envelope {
                    out.appendASCII("{")
                    out.appendNewline(indent: 1)
                    out.appendKey("wineTastingNotes")
                }
                out.appendASCII("[")
                for (index, record) in records.enumerated() {
                    if index > 0 { out.appendASCII(",") }
                    out.appendNewline(indent: level)
                    try out.appendValue(record.value, indent: level)
                }
                out.appendNewline(indent: level - 1)
                out.appendASCII("]")
                if envelope {
                    out.appendNewline(indent: 0)
                    out.appendASCII("}")
                }
                out.appendASCII("\n")
                #expect(sink.bytes == out.bytes.array, "size \(size), shift \(shift), envelope \(envelope)")
                #expect(sink.largestWrite <= 7 * 64 * 1024, "size \(size), shift \(shift), envelope \(envelope)")
            }
        }
    }

    /// A record that cannot be written throws before any of it reaches the sink, even when a long
    /// string comes before the value at fault.
    @Test func aRecordThatThrowsAfterALongStringWritesNothing() throws {
        let long = String(repeating: "é", count: 100_000)
        let bad: Value = ["think": .string(long), "n": .double(.nan)]
        let lines = PieceRecordingSink()
        let linesWriter = JSONLinesWriter(sink: lines)
        try linesWriter.write(Record(collection: nil, value: ["id": "w1"], location: SourceLocation()))
        let linesError = #expect(throws: FerryError.self) {
            try linesWriter.write(Record(collection: nil, value: bad, location: SourceLocation()))
        }
        #expect(linesError?.description
            == "ferry: error: nan has no JSON form: NaN and infinities cannot be written (RFC 8259 section 6) [invalid-value]")
        try linesWriter.finish()
        #expect(String(decoding: lines.bytes, as: UTF8.self) == "{\"id\":\"w1\"}\n")

        let document = PieceRecordingSink()
        let documentWriter = JSONDocumentWriter(sink: document, options: WriteOptions(pretty: false))
        let documentError = #expect(throws: FerryError.self) {
            try documentWriter.write(Record(collection: nil, value: bad, location: SourceLocation()))
        }
        #expect(documentError?.description == linesError?.description)
        try documentWriter.finish()
        #expect(String(decoding: document.bytes, as: UTF8.self) == "[]\n")
    }
}
