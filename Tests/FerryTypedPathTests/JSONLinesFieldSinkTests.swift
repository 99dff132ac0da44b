import FerryCore
import FerrySchemas
import FormatJSON
import Testing

@testable import FerryTypedPath

/// Differential tests: `JSONLinesRendering` against `JSONLinesWriter` writing `model.value` (and,
/// as a JSON document's element, against `JSONDocumentWriter`: `JSONDocumentElementTests`).
@Suite struct JSONLinesFieldSinkTests {
    // MARK: The general path and the typed one

    /// The bytes `JSONLinesWriter` writes for a record of `collection` holding `value` (no header).
    static func written(_ value: Value, collection: String?) throws -> [UInt8] {
        let sink = MemorySink()
        let writer = JSONLinesWriter(sink: sink, options: WriteOptions())
        try writer.write(Record(collection: collection, value: value, location: FerryCore.SourceLocation()))
        try writer.finish()
        return sink.bytes
    }

    /// The bytes the renderer appends for `model`, after `prefix` already in the buffer (kept).
    static func rendered<M: FieldCodable>(_ model: M, collection: String?, prefix: [UInt8] = [])
        -> (ok: Bool, bytes: [UInt8])
    {
        guard let rendering = JSONLinesRendering(options: WriteOptions()) else { return (false, []) }
        var buffer = ByteBuffer(capacity: 16)
        buffer.append(prefix)
        let ok = rendering.render(model, collection: collection, into: &buffer)
        let bytes = buffer.array
        #expect(Array(bytes.prefix(prefix.count)) == prefix)
        return (ok, Array(bytes.dropFirst(prefix.count)))
    }

    /// Checks one model with and without a collection: identical bytes.
    func check<M: FieldCodable>(_ model: M, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for collection in [M.self is any CollectionModel.Type ? "notes" : "nested", nil, "we\"ird\u{1}/\u{2028}"] {
            let expected = try Self.written(model.value, collection: collection)
            let (ok, bytes) = Self.rendered(model, collection: collection, prefix: Array("previous line\n".utf8))
            #expect(ok, sourceLocation: sourceLocation)
            #expect(
                String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                sourceLocation: sourceLocation)
            #expect(bytes == expected, sourceLocation: sourceLocation)
        }
        // And as a JSON document's element, pretty and compact.
        JSONDocumentElementTests.expectSameDocument(model, sourceLocation: sourceLocation)
    }

    // MARK: Material

    static let strings: [String] = [
        "", "a", "Margaux", "샤토 마고", "日本酒 エチオピア", "emoji 🍷🥃☕️🍸 and ZWJ 👨‍👩‍👧",
        "quote \" backslash \\ slash / done", "\"", "\\", "/",
        "line1\nline2\r\n\ttab\u{8}back\u{C}feed",
        "controls \u{0}\u{1}\u{2}\u{7}\u{B}\u{E}\u{1F} and DEL \u{7F}",
        "U+2028 \u{2028} U+2029 \u{2029} NBSP \u{A0} BOM \u{FEFF}",
        "exactly8", "seven77", "sixteen bytes!!!", "special at 8: 1234\"", "1234567\u{1}", "12345678\u{1}",
        "long text without anything to escape, long enough to take the eight-byte path several times over",
        "long text that ends in an escape, long enough to take the eight-byte path several times over\n",
        "\u{1}long text that starts with an escape, long enough to take the eight-byte path",
        "é" + String(repeating: "x", count: 200) + "\"",
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 13.5, 4.5, 0.1, 0.7, 1.0 / 3.0, 100, 1e21, 1e-7, 1e-6, 1e-4, 0.0001234, 1.5e-5,
        123_456_789_012_345_680, 1_000_000_000_000_000_000, 1e16, 1e17, 9_007_199_254_740_992, 9_007_199_254_740_993.5,
        1.7976931348623157e308, -1.7976931348623157e308, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1e20, 1.5e21, -2.5e-8,
        123.456, -0.000001, 4.35, 2.25,
    ]

    static let instants: [Instant] = [
        "2024-05-01T09:30:00Z", "2024-05-01T09:30:00.250Z", "2024-05-01T09:30:00.001Z", "1970-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.500Z", "2000-02-29T12:00:00.100Z",
    ].compactMap { try? Instant.parse($0).get() }

    /// A deterministic walk over the material (a linear congruential generator).
    struct Picker {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func string() -> String { JSONLinesFieldSinkTests.strings[next(JSONLinesFieldSinkTests.strings.count)] }
        mutating func double() -> Double { JSONLinesFieldSinkTests.doubles[next(JSONLinesFieldSinkTests.doubles.count)] }
        mutating func instant() -> Instant { JSONLinesFieldSinkTests.instants[next(JSONLinesFieldSinkTests.instants.count)] }
        mutating func bool() -> Bool { next(2) == 0 }
        mutating func count() -> Int { [0, 0, 1, 2, 3][next(5)] }
        mutating func image() -> Base64Data? { next(3) == 0 ? Base64Data(base64: ["", "AA==", "aGVsbG8gd29ybGQ="][next(3)]) : nil }
        mutating func strings() -> [String] { (0..<count()).map { _ in string() } }
        mutating func tastesV2() -> [NotesV2.Taste] { (0..<count()).map { _ in NotesV2.Taste(label: string(), score: double()) } }
        mutating func tastesV1() -> [NotesV1.Taste] { (0..<count()).map { _ in NotesV1.Taste(label: string(), score: double()) } }
    }

    static let picks = 0..<60

    // MARK: V2 notes

    @Test(arguments: picks) func wineTastingNote(seed: Int) throws {
        var p = Picker(state: UInt64(seed))
        try check(NotesV2.WineTastingNote(
            id: p.string(), title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcoholByVolume: p.double(), look: NotesV2.Look(tint: p.string(), note: p.string()),
            smells: p.strings().map { NotesV2.Smell(label: $0) }, tastes: p.tastesV2(),
            grape: NotesV2.Grape(variety: p.string()), think: p.string(), rating: p.double(), isFavorite: p.bool()))
    }

    @Test(arguments: picks) func coffeeTastingNote(seed: Int) throws {
        var p = Picker(state: UInt64(seed) &+ 1000)
        try check(NotesV2.CoffeeTastingNote(
            id: p.string(), title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            smells: p.strings().map { NotesV2.Smell(label: $0) }, tastes: p.tastesV2(), think: p.string(),
            rating: p.double(), isFavorite: p.bool()))
    }

    @Test(arguments: picks) func whiskeyTastingNote(seed: Int) throws {
        var p = Picker(state: UInt64(seed) &+ 2000)
        try check(NotesV2.WhiskeyTastingNote(
            id: p.string(), title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcoholByVolume: p.double(), look: NotesV2.Look(tint: p.string(), note: p.string()),
            smells: p.strings().map { NotesV2.Smell(label: $0) }, tastes: p.tastesV2(),
            finish: NotesV2.Finish(length: NotesV2.FinishLength.allCases[p.next(3)], note: p.string()),
            think: p.string(), rating: p.double(), isFavorite: p.bool()))
    }

    @Test(arguments: picks) func cocktailTastingNote(seed: Int) throws {
        var p = Picker(state: UInt64(seed) &+ 3000)
        try check(NotesV2.CocktailTastingNote(
            id: p.string(), title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcoholByVolume: p.double(), tastes: p.tastesV2(),
            ingredients: (0..<p.count()).map { _ in NotesV2.Ingredient(name: p.string(), amount: p.string()) },
            isContainsIce: p.bool(), think: p.string(), rating: p.double(), isFavorite: p.bool()))
    }

    // MARK: V1 notes

    @Test(arguments: picks) func v1Notes(seed: Int) throws {
        var p = Picker(state: UInt64(seed) &+ 4000)
        let id: String? = p.bool() ? p.string() : nil
        try check(NotesV1.WineNote(
            id: id, title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcohol: p.double(), look: p.string(), smells: p.strings(), tastes: p.tastesV1(), grape: p.string(),
            think: p.string(), rating: p.double(), isFavorite: p.bool()))
        try check(NotesV1.CoffeeNote(
            id: id, title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcohol: p.double(), look: p.string(), smells: p.strings(), tastes: p.tastesV1(), think: p.string(),
            rating: p.double(), isFavorite: p.bool()))
        try check(NotesV1.WhiskeyNote(
            id: id, title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcohol: p.double(), look: p.string(), smells: p.strings(), tastes: p.tastesV1(),
            finish: NotesV1.Finish(length: p.string(), note: p.string()), think: p.string(), rating: p.double(),
            isFavorite: p.bool()))
        try check(NotesV1.CocktailNote(
            id: id, title: p.string(), category: p.string(), createdAt: p.instant(), imageData: p.image(),
            alcohol: p.double(), look: p.string(), smells: p.strings(), tastes: p.tastesV1(),
            ingredients: (0..<p.count()).map { _ in NotesV1.Ingredient(name: p.string(), amount: p.string()) },
            isContainsIce: p.bool(), think: p.string(), rating: p.double(), isFavorite: p.bool()))
    }

    // MARK: Every string and number on its own

    @Test func everyStringAndNumber() throws {
        for text in Self.strings {
            try check(NotesV2.Look(tint: text, note: text + text))
            try check(NotesV1.Finish(length: text, note: ""))
        }
        for number in Self.doubles {
            try check(NotesV2.Taste(label: "t", score: number))
            try check(NotesV2.Taste(label: "t", score: -number))
        }
        #expect(Self.rendered(NotesV2.Taste(label: "", score: -0.0), collection: nil).bytes == Array("{\"label\":\"\",\"value\":0}\n".utf8))
        #expect(Self.rendered(NotesV2.Taste(label: "", score: 1e21), collection: nil).bytes == Array("{\"label\":\"\",\"value\":1e+21}\n".utf8))
        #expect(Self.rendered(NotesV2.Taste(label: "\u{2028}", score: 1e-7), collection: nil).bytes == Array("{\"label\":\"\u{2028}\",\"value\":1e-7}\n".utf8))
    }

    // MARK: Numbers against NumberText

    /// `appendJSONNumber` (with its short-decimal path) against `NumberText.ecmaScript`, which lays
    /// out Swift's `description`: short decimals, their neighbours, and doubles of any bits.
    @Test func numbersAsNumberTextWritesThem() {
        var p = Picker(state: 7)
        var numbers: [Double] = []
        let scales: [Double] = [10, 100, 1000, 10000]
        for _ in 0..<20_000 {
            let scale = scales[p.next(scales.count)]
            let magnitude = [10, 1000, 100_000, 1 << 30, 1 << 50, 1 << 53][p.next(6)]
            let m = Double(p.next(magnitude)) * (p.bool() ? 1 : -1)
            let d = m / scale
            numbers += [d, d.nextUp, d.nextDown]
            p.state = p.state &* 31 &+ 17
            numbers.append(Double(bitPattern: p.state))
        }
        numbers += [0.1, 0.2, 0.3, 0.55, 0.7, 4.35, 1.005, 0.001, 0.0005, 0.0015, 999_999_999_999.999, 1_125_899_906_842.623, 0x1p50 / 1000]
        // Around the half-way points of the short-decimal path and the ends of the integer one.
        numbers += [
            0.49999999999999994, -0.49999999999999994, 0.05, -0.05, 0.005, -0.005, 0.0049999999999999999, 0.15, 0.25,
            -0.25, 2.675, 1e15 + 0.5, -(1e15 + 0.5), 1e18, 1e18 - 128, 1e18 + 256, -1e18, 0x1p53, 0x1p53 + 2, 0x1p63,
            -0x1p63, 123_456_789_012.345, 0x1p49 / 1000, 0x1p50 / 100,
        ]
        var checked = 0
        for number in numbers where number.isFinite {
            var buffer = ByteBuffer(capacity: 32)
            let appended = buffer.appendJSONNumber(number)
            #expect(appended)
            let text = String(decoding: buffer.array, as: UTF8.self)
            if text != NumberText.ecmaScript(number) {
                Issue.record("\(number.bitPattern): \(text) != \(NumberText.ecmaScript(number) ?? "nil")")
                break
            }
            checked += 1
        }
        #expect(checked > 70_000)
    }

    // MARK: What the writer refuses

    @Test func nonFiniteNumbersAreNotRendered() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            let model = NotesV2.Taste(label: "x", score: number)
            #expect(throws: FerryError.self) { try Self.written(model.value, collection: "c") }
            let (ok, bytes) = Self.rendered(model, collection: "c", prefix: [1, 2, 3])
            #expect(!ok)
            #expect(bytes == [])
        }
    }

    /// A string the writer streams (64 KiB or more) is left to it: gathered here it would cost
    /// the whole line in the buffer.
    @Test func longStringsAreLeftToTheWriter() throws {
        for length in [JSONLinesWriter.longStringThreshold - 1, JSONLinesWriter.longStringThreshold] {
            let model = NotesV2.Taste(label: String(repeating: "é", count: length / 2) + (length % 2 == 1 ? "x" : ""), score: 1)
            let (ok, bytes) = Self.rendered(model, collection: "c", prefix: [1, 2, 3])
            #expect(ok == (length < JSONLinesWriter.longStringThreshold))
            #expect(bytes == (ok ? try Self.written(model.value, collection: "c") : []))
        }
    }

    // MARK: Fields written as values, and a field named `$collection`

    /// A test model with every kind of field a sink takes, including a built `Value`.
    struct Everything: FieldCodable {
        static let recordType = RecordType("Everything", [])
        var collectionField: String?
        var number: Int64 = -9_223_372_036_854_775_808
        var day = CalendarDay("2024-02-29")
        var built: Value = ["_seconds": .integer(1), "_nanoseconds": .integer(0), "list": [nil, true, .number("1.50")]]
        var nested: [NotesV2.Look] = [NotesV2.Look(tint: "a", note: "b")]
        var deep: Int = 0

        init(collectionField: String?, deep: Int = 0) {
            self.collectionField = collectionField
            self.deep = deep
        }

        init<Source: FieldSource>(from source: inout Source) {}

        func encode<Sink: FieldSink>(to sink: inout Sink) {
            sink.addOptional("$collection", collectionField)
            sink.add("number", number)
            sink.add("positive", Int64.max)
            sink.add("small", Int64(-7))
            if let day { sink.add("day", day) }
            sink.add("built", built)
            sink.add("nested", nested)
            sink.add("empty", [NotesV2.Look]())
            sink.add("yes", true)
            if deep > 0 {
                var value: Value = .array([])
                for _ in 0..<deep { value = .array([value]) }
                sink.add("deep", value)
            }
        }
    }

    /// A model of one day and one number, its fields set by hand (they are public and settable).
    struct DayAndNumber: FieldCodable {
        static let recordType = RecordType("DayAndNumber", [])
        var day: CalendarDay
        var number: Double

        init(day: CalendarDay, number: Double) {
            self.day = day
            self.number = number
        }

        init<Source: FieldSource>(from source: inout Source) {
            day = CalendarDay("2024-02-29")!
            number = 0
        }

        func encode<Sink: FieldSink>(to sink: inout Sink) {
            sink.add("day", day)
            sink.add("number", number)
        }
    }

    /// Days written in place are `description`'s bytes, for days the initializers make and for
    /// fields set out of their range (those go through `description`); numbers written in line
    /// (whole, one decimal) and the others are `appendJSONNumber`'s.
    @Test(arguments: [
        (2024, 2, 29, 13.5), (1, 1, 1, 0), (9999, 12, 31, -0.0), (0, 1, 1, 4.25), (12345, 6, 7, 1e21),
        (2024, 13, 1, -0.5), (2024, 0, 5, 99.9), (2024, 1, 32, 1e15), (2024, -3, 1, 0.1), (2024, 100, 1, 7),
    ] as [(Int, Int, Int, Double)])
    func daysAndNumbersAreTheWritersBytes(year: Int, month: Int, day: Int, number: Double) throws {
        var calendarDay = try #require(CalendarDay("2024-02-29"))
        calendarDay.year = year
        calendarDay.month = month
        calendarDay.day = day
        try check(DayAndNumber(day: calendarDay, number: number))
    }

    @Test func builtValuesAndTheCollectionMember() throws {
        try check(Everything(collectionField: nil))
        try check(Everything(collectionField: "inner"))
        // The writer skips a `$collection` member only when the line names its collection.
        let named = Self.rendered(Everything(collectionField: "inner"), collection: "outer").bytes
        #expect(String(decoding: named, as: UTF8.self).hasPrefix("{\"$collection\":\"outer\",\"number\":"))
        let unnamed = Self.rendered(Everything(collectionField: "inner"), collection: nil).bytes
        #expect(String(decoding: unnamed, as: UTF8.self).hasPrefix("{\"$collection\":\"inner\",\"number\":"))
    }

    /// The writer's limit on nesting counts from the line's record (with `$collection`, from its
    /// members): the renderer gives up exactly where the writer throws.
    @Test(arguments: [509, 510, 511, 512, 513]) func nestingLimitAsTheWriterCountsIt(deep: Int) throws {
        let model = Everything(collectionField: nil, deep: deep)
        for collection in ["c", nil] {
            let expected = try? Self.written(model.value, collection: collection)
            let (ok, bytes) = Self.rendered(model, collection: collection)
            #expect(ok == (expected != nil))
            #expect(bytes == (expected ?? []))
            // The cases straddle the limit: 512 levels fail without `$collection` only.
            #expect((expected == nil) == (deep >= (collection == nil ? 512 : 513)))
        }
    }

    @Test func noOptionChangesALine() {
        #expect(JSONLinesRendering(options: WriteOptions(header: DatasetHeader(domain: "notes", schemaVersion: 2))) != nil)
        #expect(JSONLinesRendering(options: WriteOptions(pretty: true)) != nil)
    }
}
