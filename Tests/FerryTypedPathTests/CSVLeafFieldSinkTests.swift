import FerryCore
import FerrySchemas
import FerryTestSupport
import Testing

@testable import FerryTypedPath
@testable import FormatCSV

/// Differential tests: a model's CSV leaf stream (`CSVLeafOutput.render`, `CSVLeafFieldSink`)
/// replayed by `CSVWriter.writeLeafStream` against `CSVWriter.write` of the model's canonical
/// value: the same spool bytes and shape nodes after every record, the same output at the end,
/// for every notes model with random field values and list lengths, mixed with records written
/// as values.
@Suite struct CSVLeafFieldSinkTests {
    typealias Picker = JSONLinesFieldSinkTests.Picker

    /// Every notes model, V1 and V2: the models a lane's routes end at.
    static let notesModels: [any FieldCodableCollection.Type] = [
        NotesV2.WineTastingNote.self, NotesV2.CoffeeTastingNote.self, NotesV2.WhiskeyTastingNote.self,
        NotesV2.CocktailTastingNote.self, NotesV1.WineNote.self, NotesV1.CoffeeNote.self, NotesV1.WhiskeyNote.self,
        NotesV1.CocktailNote.self,
    ]

    /// Strings a CSV cell must quote or prefix, with the sink tests' own.
    static let csvStrings = ["a,b", "say \"hi\"", "cr\ronly", "crlf\r\nend", "=SUM(A1)", "+1", "-2", "@x", "\tlead",
                             "\rlead", ";", "'q'", "x" * 70] + JSONLinesFieldSinkTests.strings

    /// A random notes model of a random type (lists 0 to 5 long, optionals present or absent).
    static func randomModel(_ p: inout Picker) -> any FieldCodableCollection {
        func string() -> String { csvStrings[p.next(csvStrings.count)] }
        func count() -> Int { p.next(6) }
        func strings() -> [String] { (0..<count()).map { _ in string() } }
        let id = string()
        switch p.next(8) {
        case 0:
            return NotesV2.WineTastingNote(
                id: id, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcoholByVolume: p.double(), look: NotesV2.Look(tint: string(), note: string()),
                smells: strings().map { NotesV2.Smell(label: $0) },
                tastes: (0..<count()).map { _ in NotesV2.Taste(label: string(), score: p.double()) },
                grape: NotesV2.Grape(variety: string()), think: string(), rating: p.double(), isFavorite: p.bool())
        case 1:
            return NotesV2.CoffeeTastingNote(
                id: id, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                smells: strings().map { NotesV2.Smell(label: $0) },
                tastes: (0..<count()).map { _ in NotesV2.Taste(label: string(), score: p.double()) }, think: string(),
                rating: p.double(), isFavorite: p.bool())
        case 2:
            return NotesV2.WhiskeyTastingNote(
                id: id, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcoholByVolume: p.double(), look: NotesV2.Look(tint: string(), note: string()),
                smells: strings().map { NotesV2.Smell(label: $0) },
                tastes: (0..<count()).map { _ in NotesV2.Taste(label: string(), score: p.double()) },
                finish: NotesV2.Finish(length: NotesV2.FinishLength.allCases[p.next(3)], note: string()),
                think: string(), rating: p.double(), isFavorite: p.bool())
        case 3:
            return NotesV2.CocktailTastingNote(
                id: id, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcoholByVolume: p.double(), tastes: (0..<count()).map { _ in NotesV2.Taste(label: string(), score: p.double()) },
                ingredients: (0..<count()).map { _ in NotesV2.Ingredient(name: string(), amount: string()) },
                isContainsIce: p.bool(), think: string(), rating: p.double(), isFavorite: p.bool())
        case 4:
            return NotesV1.WineNote(
                id: p.bool() ? id : nil, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcohol: p.double(), look: string(), smells: strings(),
                tastes: (0..<count()).map { _ in NotesV1.Taste(label: string(), score: p.double()) }, grape: string(),
                think: string(), rating: p.double(), isFavorite: p.bool())
        case 5:
            return NotesV1.CoffeeNote(
                id: p.bool() ? id : nil, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcohol: p.double(), look: string(), smells: strings(),
                tastes: (0..<count()).map { _ in NotesV1.Taste(label: string(), score: p.double()) }, think: string(),
                rating: p.double(), isFavorite: p.bool())
        case 6:
            return NotesV1.WhiskeyNote(
                id: p.bool() ? id : nil, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcohol: p.double(), look: string(), smells: strings(),
                tastes: (0..<count()).map { _ in NotesV1.Taste(label: string(), score: p.double()) },
                finish: NotesV1.Finish(length: string(), note: string()), think: string(), rating: p.double(),
                isFavorite: p.bool())
        default:
            return NotesV1.CocktailNote(
                id: p.bool() ? id : nil, title: string(), category: string(), createdAt: p.instant(), imageData: p.image(),
                alcohol: p.double(), look: string(), smells: strings(),
                tastes: (0..<count()).map { _ in NotesV1.Taste(label: string(), score: p.double()) },
                ingredients: (0..<count()).map { _ in NotesV1.Ingredient(name: string(), amount: string()) },
                isContainsIce: p.bool(), think: string(), rating: p.double(), isFavorite: p.bool())
        }
    }

    /// A leaf output for `models`, ready to render (its layout and an encoder set, as a lane's
    /// batch has them).
    static func output(models: [any FieldCodableCollection.Type], format: CSVCellFormat) -> CSVLeafOutput {
        var output = CSVLeafOutput(format: format)
        let layout = CSVLeafLayout(models: models, format: format)
        output.layout = layout
        output.encoder = layout.borrowEncoder()
        return output
    }

    /// The leaf stream of `model`, after other bytes in the buffer (kept); nil when given up.
    static func rendered<M: FieldCodable>(_ model: M, _ output: CSVLeafOutput) -> [UInt8]? {
        var buffer = ByteBuffer(capacity: 16)
        buffer.append("before")
        let ok = output.render(model, into: &buffer)
        let bytes = buffer.array
        #expect(Array(bytes.prefix(6)) == Array("before".utf8))
        if !ok { #expect(bytes.count == 6) }
        return ok ? Array(bytes.dropFirst(6)) : nil
    }

    /// One record for the two writers: a model (its stream for one, its value for the other) or a
    /// general record (its value for both).
    enum Item {
        case model(any FieldCodableCollection)
        case general(Value)
    }

    /// Writes `items` to a writer taking values and to one taking the models' leaf streams;
    /// compares them after each record and at the end.
    static func expectSameAsWrite(_ items: [Item], models: [any FieldCodableCollection.Type] = notesModels,
                                  options: WriteOptions = WriteOptions(),
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let expectedSink = MemorySink()
        let actualSink = MemorySink()
        let expected = try CSVWriter(expectedSink, options: options)
        let actual = try CSVWriter(actualSink, options: options)
        let output = Self.output(models: models, format: actual.cellFormat)
        let table = try #require(output.layout?.table)
        for (index, item) in items.enumerated() {
            let location = FerryCore.SourceLocation(recordIndex: index)
            switch item {
            case .model(let model):
                try expected.write(Record(collection: "c", value: model.value, location: location))
                let made = rendered(model, output)
                let stream = try #require(made, "record \(index) given up", sourceLocation: sourceLocation)
                try stream.withUnsafeBufferPointer { try actual.writeLeafStream($0, table: table, collection: "c") }
            case .general(let value):
                try expected.write(Record(collection: "c", value: value, location: location))
                try actual.write(Record(collection: "c", value: value, location: location))
            }
            // Compared apart from the expectation, which would print both spools whole.
            let sameSpool = actual.pending.array == expected.pending.array
            #expect(sameSpool, "record \(index): another spool", sourceLocation: sourceLocation)
            #expect(actual.nodeCount == expected.nodeCount, "record \(index)", sourceLocation: sourceLocation)
            if !sameSpool { return }
        }
        try expected.finish()
        try actual.finish()
        let sameOutput = actualSink.bytes == expectedSink.bytes
        #expect(sameOutput, "another output", sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<12) func randomNotesOfEveryType(seed: Int) throws {
        var p = Picker(state: UInt64(seed) &* 7919)
        var items: [Item] = []
        for _ in 0..<300 {
            let model = Self.randomModel(&p)
            switch p.next(10) {
            case 0:
                // A record of the general path: the model's value, or a value that no model makes.
                items.append(.general(p.bool() ? model.value : ["id": .string(p.string()), "tastes": [["x": 1]], "more": []]))
            default:
                items.append(.model(model))
            }
        }
        let options = [WriteOptions(), WriteOptions(csvSafe: true), WriteOptions(delimiter: CSVReader.tab),
                       WriteOptions(csvSafe: true, delimiter: UInt8(ascii: ";"))][seed % 4]
        try Self.expectSameAsWrite(items, options: options)
    }

    /// One writer per collection, as a folder output has them, the first record of each written
    /// as a value (the typed path's first record goes the general way).
    @Test func oneTypePerWriter() throws {
        var p = Picker(state: 99)
        let models = (0..<4000).map { _ in Self.randomModel(&p) }
        for type in Self.notesModels {
            let mine = models.filter { Swift.type(of: $0) == type }
            var items: [Item] = mine.map { .model($0) }
            if let first = mine.first { items[0] = .general(first.value) }
            try Self.expectSameAsWrite(items, models: [type])
        }
    }

    /// Lists empty in the first records and long later: columns come in first-seen order, and an
    /// empty list's member still makes its node.
    @Test func listsThatGrowLater() throws {
        var items: [Item] = []
        for length in [0, 0, 1, 3, 0, 7, 2, 12] {
            items.append(.model(NotesV2.CoffeeTastingNote(
                id: "c\(length)", title: "t", category: "", createdAt: Instant(seconds: 0)!, imageData: length == 3 ? Base64Data(base64: "AA==") : nil,
                smells: (0..<length).map { NotesV2.Smell(label: "s\($0)") },
                tastes: (0..<(7 - min(length, 7))).map { NotesV2.Taste(label: "t\($0)", score: Double($0) / 8) },
                think: length % 2 == 0 ? "" : "x,y", rating: 2.5, isFavorite: length == 1)))
        }
        try Self.expectSameAsWrite(items)
    }

    /// Every notes model's stream is made (no record is given up for its keys): the descriptors
    /// list the fields in the order the models write them.
    @Test func noNotesModelIsGivenUp() throws {
        var p = Picker(state: 5)
        let output = Self.output(models: Self.notesModels, format: CSVCellFormat())
        var seen = Set<ObjectIdentifier>()
        for _ in 0..<400 {
            let model = Self.randomModel(&p)
            seen.insert(ObjectIdentifier(Swift.type(of: model)))
            let made = Self.rendered(model, output)
            #expect(made != nil)
        }
        #expect(seen.count == Self.notesModels.count)
    }

    // MARK: Models with every kind of field, and models that give up

    /// A collection model writing every kind of field a sink takes, a built `Value` included.
    struct EveryKind: CollectionModel, FieldCodable {
        static let collection = "everyKinds"
        static let recordType = RecordType("EveryKind", [
            FieldSchema("id", .string), FieldSchema("count", .integer), FieldSchema("day", .day),
            FieldSchema("stamp", .timestamp), FieldSchema("looks", .array(.object(NotesV2.Look.recordType))),
            FieldSchema("tags", .array(.string)), FieldSchema("none", .array(.object(NotesV2.Look.recordType))),
            .optional("maybe", .string), FieldSchema("flag", .bool), FieldSchema("at", .instant),
            FieldSchema("grape", .object(NotesV2.Grape.recordType)),
        ])
        var id: String
        var count: Int64
        var stamp: Value
        var looks: [NotesV2.Look]
        var tags: [String]
        var maybe: String?
        var recordID: String? { id }

        init(id: String, count: Int64, stamp: Value, looks: [NotesV2.Look], tags: [String], maybe: String?) {
            (self.id, self.count, self.stamp, self.looks, self.tags, self.maybe) = (id, count, stamp, looks, tags, maybe)
        }

        init<Source: FieldSource>(from source: inout Source) {
            (id, count, stamp, looks, tags, maybe) = ("", 0, .null, [], [], nil)
        }

        func encode<Sink: FieldSink>(to sink: inout Sink) {
            sink.add("id", id)
            sink.add("count", count)
            if let day = CalendarDay("2024-02-29") { sink.add("day", day) }
            sink.add("stamp", stamp)
            sink.add("looks", looks)
            sink.add("tags", tags)
            sink.add("none", [NotesV2.Look]())
            sink.addOptional("maybe", maybe)
            sink.add("flag", count % 2 == 0)
            sink.add("at", Instant(seconds: count % 1000, nanoseconds: 5_000_000)!)
            sink.add("grape", NotesV2.Grape(variety: tags.first ?? ""))
        }
    }

    @Test func everyKindOfField() throws {
        var p = Picker(state: 17)
        var items: [Item] = []
        let stamps: [Value] = [["_seconds": 1, "_nanoseconds": 0], ["list": [nil, true, .number("1.50"), ["a.b": []], []]],
                               .null, "text, quoted", .double(0.1), [], [[], [[:]]], ["k": ["": "empty key"]]]
        for index in 0..<300 {
            items.append(.model(EveryKind(
                id: Self.csvStrings[p.next(Self.csvStrings.count)], count: Int64(index * 7919) - 1000, stamp: stamps[p.next(stamps.count)],
                looks: (0..<p.next(4)).map { _ in NotesV2.Look(tint: p.string(), note: "") }, tags: (0..<p.next(4)).map { _ in p.string() },
                maybe: p.bool() ? p.string() : nil)))
        }
        items.insert(.model(EveryKind(id: "min", count: .min, stamp: .integer(.max), looks: [], tags: [], maybe: "")), at: 5)
        try Self.expectSameAsWrite(items, models: [EveryKind.self])
        try Self.expectSameAsWrite(items, models: [EveryKind.self], options: WriteOptions(csvSafe: true))
    }

    /// A model writing its fields in another order than its descriptor's, or a field the descriptor
    /// does not have: no stream, the buffer as it was (the record goes the general path).
    struct OutOfOrder: CollectionModel, FieldCodable {
        static let collection = "outOfOrders"
        static let recordType = RecordType("OutOfOrder", [FieldSchema("a", .string), FieldSchema("b", .string)])
        var unknown: Bool
        var recordID: String? { nil }

        init(unknown: Bool) { self.unknown = unknown }
        init<Source: FieldSource>(from source: inout Source) { unknown = false }

        func encode<Sink: FieldSink>(to sink: inout Sink) {
            if unknown {
                sink.add("a", "x")
                sink.add("c", "y")
            } else {
                sink.add("b", "y")
                sink.add("a", "x")
            }
        }
    }

    @Test func fieldsOutOfOrderAreGivenUp() throws {
        let output = Self.output(models: [OutOfOrder.self, NotesV2.WineTastingNote.self], format: CSVCellFormat())
        #expect(Self.rendered(OutOfOrder(unknown: false), output) == nil)
        #expect(Self.rendered(OutOfOrder(unknown: true), output) == nil)
        // A model the layout was not made for.
        let wineOnly = Self.output(models: [NotesV2.WineTastingNote.self], format: CSVCellFormat())
        #expect(Self.rendered(NotesV2.Grape(variety: "x"), wineOnly) == nil)
        #expect(Self.rendered(EveryKind(id: "", count: 0, stamp: .null, looks: [], tags: [], maybe: nil), wineOnly) == nil)
    }

    /// The layout's blocks: a record type met twice (V2 `Taste` in every note) has one block, and
    /// each key's nested block is its field's record type.
    @Test func layoutBlocks() throws {
        let layout = CSVLeafLayout(models: Self.notesModels, format: CSVCellFormat())
        let keys = layout.table.keys
        let tasteBlocks = (0..<keys.count).filter { keys[$0] == "tastes" }.map { layout.nested[$0].start }
        #expect(tasteBlocks.count == 8)
        #expect(Set(tasteBlocks.prefix(4)).count == 1)  // V2's four notes share V2's Taste
        let wine = try #require(layout.block(of: NotesV2.WineTastingNote.self))
        #expect(Array(keys[wine.start..<(wine.start + wine.count)]) == NotesV2.WineTastingNote.recordType.fieldNames)
        #expect(layout.block(of: NotesV2.Look.self) == nil)
    }
}

private func * (text: String, count: Int) -> String { String(repeating: text, count: count) }
