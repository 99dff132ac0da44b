import FerryCore
import Testing

private struct FixedLocator: FieldLocating {
    func position(of field: JSONPointer) -> TextPosition? {
        field == "/rating" ? TextPosition(line: 9, column: 15) : nil
    }
}

@Suite struct RecordTests {
    @Test func fieldLocationJoinsCollectionIndexAndField() {
        let record = Record(
            collection: "wineTastingNotes", value: ["rating": 7],
            location: SourceLocation(file: "n.json", line: 4, column: 5, collection: "wineTastingNotes", recordIndex: 2),
            locator: FixedLocator())
        let rating = record.location(of: "/rating")
        #expect(rating.description == "n.json:9:15")
        #expect(rating.field?.description == "/wineTastingNotes/2/rating")
        #expect(record.location(of: "/title").description == "n.json:4:5")
    }
}
