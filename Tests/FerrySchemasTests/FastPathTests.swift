import FerryCore
import Testing

@testable import FerrySchemas

/// The fast paths of issue 7 give exactly what the general paths give.
@Suite struct FastDoubleTests {
    /// Text the fast path takes, with the value `Double(text)` gives (bit for bit).
    @Test func equalsDoubleParsingOnWhatItAccepts() throws {
        let texts = [
            "0", "-0", "0.0", "-0.0", "12.4", "0.91", "11.0", "2.5", "100", "0.1", "0.2", "0.3", "4.35", "99.99",
            "9007199254740991", "-9007199254740991", "900719925474099.1", "0.000000000000000001", "00012.50",
            "1.7976931348623", "123456789.123456", "0.000001", "-3.75",
        ]
        for text in texts {
            let fast = try #require(DecimalText.fastDouble(text), "\(text)")
            let slow = try #require(Double(text))
            #expect(fast.bitPattern == slow.bitPattern, "\(text)")
        }
    }

    @Test func leavesEverythingElseToTheGeneralPath() {
        let texts = [
            "", "-", ".5", "5.", "+1", "1e5", "1E5", "1.5e3", " 1", "1 ", "1,5", "0x10", "NaN", "inf", "1..2", "1.2.3",
            "9007199254740992", "9007199254740993", "12345678901234567890", "0.30000000000000004",
            "0.00000000000000000000001", "--1", "٣",
        ]
        for text in texts { #expect(DecimalText.fastDouble(text) == nil, "\(text)") }
    }

    @Test func matchesDoubleParsingOnManyGeneratedNumbers() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...digits, using: &generator)
            if point < digits && point > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &generator) { text = "-" + text }
            guard let fast = DecimalText.fastDouble(text) else { continue }
            #expect(fast.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    /// CSV numbers (strings read as text): the plain path returns what the checked path returns,
    /// and nothing where the checked path reports a problem.
    @Test func plainNumbersFromTextMatchTheCheckedPath() {
        let record = makeRecord("c", 0, .null)
        let context = RecordContext(record: record, options: DecodingOptions(scalarsAsText: true))
        let schemas = [
            FieldSchema("rating", .double, range: 0...5, step: 0.5), FieldSchema("value", .double, range: 0...1),
            FieldSchema("x", .double),
        ]
        let texts = ["0", "-0", "2.5", "2.4", "5", "5.5", "0.91", "1.0", "-1", "1e0", "12.4", "007", "abc", "", "0.50"]
        for schema in schemas {
            for text in texts {
                var diagnostics: [Diagnostic] = []
                let checked = FieldReader.double(.string(text), schema, at: context, into: &diagnostics)
                let plain = FieldReader.plainDouble(.string(text), range: schema.range, step: schema.step, scalarsAsText: true)
                if let plain {
                    #expect(checked?.bitPattern == plain.bitPattern, "\(schema.name) \(text)")
                    #expect(diagnostics.isEmpty)
                }
                if checked == nil { #expect(plain == nil, "\(schema.name) \(text)") }
            }
        }
        // Without text scalars (JSON) a string is never a number.
        #expect(FieldReader.plainDouble(.string("2.5"), range: nil, step: nil, scalarsAsText: false) == nil)
    }
}

@Suite struct FieldReaderFastPathTests {
    static let canonical: [ValueObject.Member] = [
        (key: "id", value: "w1"), (key: "title", value: "T"), (key: "category", value: "red"),
        (key: "createdAt", value: "2023-10-04T02:43:15Z"), (key: "alcoholByVolume", value: .number("12.4")),
        (key: "look", value: ["tint": "ruby", "note": "deep"]), (key: "smells", value: [["label": "oak"]]),
        (key: "tastes", value: [["label": "finish", "value": .number("0.91")]]),
        (key: "grape", value: ["variety": "Syrah"]), (key: "think", value: "ok"), (key: "rating", value: .number("2.5")),
        (key: "isFavorite", value: false),
    ]

    /// Members in any order (one out of place, reversed, an optional present) decode to the same
    /// note as in canonical order, with no diagnostics.
    @Test func membersInAnyOrderDecodeAlike() throws {
        let (reference, problems, _) = decode(NotesV2.WineTastingNote.self, .object(ValueObject(Self.canonical)))
        #expect(problems.isEmpty)
        var moved = Self.canonical
        moved.append(moved.remove(at: 4))  // alcoholByVolume last, as the V1 -> V2 stage leaves it
        var withImage = Self.canonical
        withImage.insert((key: "imageData", value: "AAEC"), at: 4)
        for members in [moved, Array(Self.canonical.reversed()), withImage] {
            let (note, problems, _) = decode(NotesV2.WineTastingNote.self, .object(ValueObject(members)))
            #expect(problems.isEmpty)
            var expected = reference
            if members.contains(where: { $0.key == "imageData" }) { expected.imageData = Base64Data(base64: "AAEC") }
            #expect(note == expected)
        }
    }

    /// Absent, null, repeated and unknown members are reported as before, with their pointers.
    @Test func reportsMissingNullRepeatedAndUnknownMembers() {
        var members = Self.canonical
        members.remove(at: 2)  // category missing
        members[0].value = .null  // id null
        let (_, missing, _) = decode(NotesV2.WineTastingNote.self, .object(ValueObject(members)))
        #expect(missing == ["error missing-field 2:3 /c/0/id", "error missing-field 2:3 /c/0/category"])

        var irregular = Self.canonical
        irregular.append((key: "title", value: "again"))
        irregular.append((key: "colour", value: "red"))
        let (_, repeated, _) = decode(NotesV2.WineTastingNote.self, .object(ValueObject(irregular)))
        #expect(repeated == ["error invalid-value 2:3 /c/0/title", "error unknown-field 2:3 /c/0/colour"])

        var badTaste = Self.canonical
        badTaste[7].value = [["label": "finish", "value": .number("1.5")], ["label": 3, "value": .number("0.5")]]
        let (_, tastes, _) = decode(NotesV2.WineTastingNote.self, .object(ValueObject(badTaste)))
        #expect(tastes == ["error out-of-range 2:3 /c/0/tastes/0/value", "error type-error 2:3 /c/0/tastes/1/label"])
    }
}

@Suite struct RecordContextFastPathTests {
    /// A key then an index stay pending, and give the same pointers as built ones.
    @Test func pendingKeyAndIndexGiveTheSamePointers() {
        let context = RecordContext(record: makeRecord("c", 4, .null))
        let element = context.appending("tastes").appending(1)
        #expect(element.path == JSONPointer(tokens: ["tastes", "1"]))
        #expect(element.appending("value").path == JSONPointer(tokens: ["tastes", "1", "value"]))
        #expect(element.appending(2).path == JSONPointer(tokens: ["tastes", "1", "2"]))
        #expect(element.displayName == "tastes/1")
        #expect(element.location().field == JSONPointer(tokens: ["c", "4", "tastes", "1"]))
    }

    /// The record's own location, fast path, is what the general path gives.
    @Test func rootLocationsMatchTheGeneralPath() {
        let record = makeRecord("c", 4, .null, line: 7)
        let context = RecordContext(record: record)
        #expect(context.location() == record.location(of: .root))
        #expect(context.location().position == TextPosition(line: 7, column: 3))
        var without = record.location
        without.field = nil
        #expect(context.locationWithoutField() == without)
        let nested = RecordContext(record: record, base: JSONPointer(tokens: ["x", "k"]))
        #expect(nested.location().field == JSONPointer(tokens: ["x", "k"]))
        var mapped = context
        mapped.sourcePointer = { _ in JSONPointer(tokens: ["old"]) }
        #expect(mapped.location().field == JSONPointer(tokens: ["c", "4", "old"]))
    }
}

@Suite struct CollectionMapTests {
    @Test func findsSetsAndRemovesByName() {
        var map = CollectionMap(["wineNotes": "wineTastingNotes", "coffeeNotes": "coffeeTastingNotes"])
        #expect(map["wineNotes"] == "wineTastingNotes")
        #expect(map["whiskeyNotes"] == nil)
        map["wineNotes"] = "x"
        map["new"] = "y"
        #expect(map["wineNotes"] == "x")
        #expect(map["new"] == "y")
        map["coffeeNotes"] = nil
        #expect(map["coffeeNotes"] == nil)
    }
}
