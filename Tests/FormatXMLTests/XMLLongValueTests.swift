import FerryCore
import FerryTestSupport
import Testing

@testable import FormatXML

/// The XML writer sends a text of 64 KiB or more to the output (or a collection's spool file)
/// escaped piece by piece: the bytes are those of the whole-buffer rendering, and no single write
/// holds the whole value.
@Suite struct XMLLongValueTests {
    /// Every escape and every UTF-8 length, U+FFFD and U+FEFF (lead byte 0xEF, like the excluded
    /// U+FFFE and U+FFFF), U+2028.
    static let unit = "a&b<c>d\"e'\té€😀\u{2028}\n\r\u{FFFD}\u{FEFF}"

    static let cells = LongValues.cells(unit: unit)

    /// Records of two collections: the first streams to the output, the second is spooled.
    static func records(_ long: String) -> [Record] {
        let values: [Value] = [
            ["id": "w1", "title": "short"],
            ["id": "w2", "think": .string(long), "tastes": [["label": .string(long)]], "n": .double(1.5)],
            ["id": "w3"],
        ]
        return values.flatMap { value in
            ["wineTastingNotes", "coffeeTastingNotes"].map { Record(collection: $0, value: value, location: SourceLocation()) }
        }
    }

    private func render(_ records: [Record], pretty: Bool, threshold: Int) throws -> PieceRecordingSink {
        let sink = PieceRecordingSink()
        let writer = try XMLRecordWriter(
            sink, options: WriteOptions(header: DatasetHeader(domain: "notes", schemaVersion: 2), pretty: pretty),
            recordNames: ["wineTastingNotes": "WineTastingNote"])
        writer.longTextThreshold = threshold
        for record in records { try writer.write(record) }
        try writer.finish()
        return sink
    }

    @Test(arguments: [true, false])
    func longTextsStreamAsTheWholeBufferRenderingWritesThem(pretty: Bool) throws {
        for (size, shift) in Self.cells where pretty || shift % 3 == 0 {
            let records = Self.records(LongValues.text(byteCount: size, unit: Self.unit, shift: shift))
            let streamed = try render(records, pretty: pretty, threshold: 64 * 1024)
            let whole = try render(records, pretty: pretty, threshold: .max)
            #expect(streamed.bytes == whole.bytes, "size \(size), shift \(shift)")
            #expect(streamed.largestWrite <= 6 * 64 * 1024, "size \(size), shift \(shift)")
            #expect(whole.largestWrite > size, "size \(size), shift \(shift)")
        }
    }

    /// U+FFFE and U+FFFF are refused wherever they fall, a piece boundary inside them included.
    @Test func excludedCharactersAcrossAPieceBoundaryAreRefused() throws {
        for (character, name) in [("\u{FFFE}", "U+FFFE"), ("\u{FFFF}", "U+FFFF")] {
            for shift in 0..<3 {
                let long = String(repeating: "x", count: 64 * 1024 - 3 + shift) + character + "tail"
                let writer = try XMLRecordWriter(PieceRecordingSink())
                let error = #expect(throws: FerryError.self) {
                    try writer.write(Record(collection: nil, value: ["think": .string(long)], location: SourceLocation()))
                }
                #expect(error?.diagnostic.code == .invalidValue)
                #expect(error?.diagnostic.message == "\(name) cannot be written in XML 1.0", "shift \(shift)")
            }
        }
    }
}
