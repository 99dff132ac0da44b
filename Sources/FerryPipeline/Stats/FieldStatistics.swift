import FerryCore
import FerrySchemas

/// What `ferry stats` gathers about one field of one collection (Docs/stats.md), in one pass and
/// bounded memory: counts, kinds, distinct values, ranges and the most frequent values.
///
/// The field is a JSON Pointer relative to the record, `*` standing for every item of a list
/// (`/tastes/*/value`). Lengths count Unicode scalars (as Python's `len` does).
public struct FieldStatistics: Sendable {
    /// Distinct values are counted exactly (by 64-bit hash) up to this many, then estimated.
    public static let exactDistinctLimit = 100_000
    /// Strings up to this many Unicode scalars are "short": their most frequent values are kept.
    public static let shortStringLength = 64
    /// How many most frequent values are reported.
    public static let topCount = 5

    /// The field, relative to the record: `/look/tint`, `/tastes/*/value`.
    public var pointer: String
    /// Values present and not null.
    public var count = 0
    /// Values present and null.
    public var nulls = 0
    /// Objects that could hold the field and lack it (set by `CollectionStatistics`); 0 for a
    /// list item (`/tags/*`), which is never missing.
    public var missing = 0
    /// Values of each kind met: `string`, `number`, `bool`, `object`, `list`, `null`.
    public var kinds: [String: Int] {
        var kinds: [String: Int] = [:]
        for (index, name) in Self.kindNames.enumerated() where kindCounts[index] > 0 { kinds[name] = kindCounts[index] }
        return kinds
    }
    /// The count of each kind, in the order of `kindNames` (counted per value: no string hashed).
    private var kindCounts = [Int](repeating: 0, count: 6)
    private static let kindNames = ["null", "bool", "number", "string", "list", "object"]
    /// The smallest and largest number, as written.
    public private(set) var minNumber: (value: Double, text: String)?
    public private(set) var maxNumber: (value: Double, text: String)?
    /// The earliest and latest instant among strings in RFC 3339 form, as written: date-times,
    /// and full-dates (`2021-04-03`, a calendar day such as pet-story's `since`) as their
    /// midnight UTC, so that a field holding both has one range.
    public private(set) var minInstant: (value: Instant, text: String)?
    public private(set) var maxInstant: (value: Instant, text: String)?
    /// The shortest and longest string, in Unicode scalars.
    public private(set) var stringLengths: ClosedRange<Int>?
    /// Lists: how many, their shortest and longest, and all their items (for the mean).
    public private(set) var lists = 0
    public private(set) var listLengths: ClosedRange<Int>?
    public private(set) var listItems = 0

    /// Occurrences of each scalar value by its hash, while fewer than `exactDistinctLimit` differ.
    private var exact: [UInt64: Int]? = [:]
    /// The text of each short string or Boolean counted in `exact`, while every value of the
    /// field is one (an enum or a short string); nil once a value is not.
    private var texts: [UInt64: Value]? = [:]
    private var estimator: HyperLogLog?

    public init(pointer: String) { self.pointer = pointer }

    private static let trueHash = StableHash.of("b1")
    private static let falseHash = StableHash.of("b0")

    /// Distinct non-null scalar values (strings, numbers, Booleans): exact while `isDistinctExact`.
    public var distinct: Int { exact?.count ?? estimator?.estimate ?? 0 }

    /// False once the field held more than `exactDistinctLimit` distinct values: `distinct` is then
    /// a HyperLogLog estimate (relative standard error `HyperLogLog.standardError`).
    public var isDistinctExact: Bool { exact != nil }

    /// The mean list length, nil when the field held no list.
    public var meanListLength: Double? { lists == 0 ? nil : Double(listItems) / Double(lists) }

    /// The most frequent values, most frequent first (ties in byte order), for a field whose values
    /// are all short strings or Booleans and of which one value occurs twice or more; empty otherwise.
    /// Each value is a `.string` or a `.bool`, as the input had it.
    public var topValues: [(value: Value, count: Int)] {
        guard let texts, let exact, exact.values.contains(where: { $0 > 1 }) else { return [] }
        func key(_ value: Value) -> String { value.stringValue ?? (value.boolValue == true ? "true" : "false") }
        let ranked = exact.map { (value: texts[$0.key] ?? .string(""), count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : key($0.value).utf8.lexicographicallyPrecedes(key($1.value).utf8)
        }
        return Array(ranked.prefix(Self.topCount))
    }

    /// Counts one value found at the field.
    mutating func add(_ value: Value) {
        switch value {
        case .null:
            nulls += 1
            kindCounts[0] += 1
        case .bool(let flag):
            count += 1
            kindCounts[1] += 1
            countDistinct(flag ? Self.trueHash : Self.falseHash, text: value)
        case .integer, .double, .number:
            count += 1
            kindCounts[2] += 1
            let text = Self.numberText(value)
            if let number = value.doubleValue {
                if minNumber.map({ number < $0.value }) ?? true { minNumber = (number, text) }
                if maxNumber.map({ number > $0.value }) ?? true { maxNumber = (number, text) }
            }
            texts = nil
            countDistinct(StableHash.of(tag: UInt8(ascii: "n"), text), text: nil)
        case .string(let text):
            count += 1
            kindCounts[3] += 1
            let length = Self.scalarCount(text)
            stringLengths = stringLengths.map { min($0.lowerBound, length)...max($0.upperBound, length) } ?? length...length
            if let instant = Self.instant(text) {
                if minInstant.map({ instant < $0.value }) ?? true { minInstant = (instant, text) }
                if maxInstant.map({ instant > $0.value }) ?? true { maxInstant = (instant, text) }
            }
            if length > Self.shortStringLength { texts = nil }
            countDistinct(StableHash.of(tag: UInt8(ascii: "s"), text), text: value)
        case .array(let items):
            count += 1
            kindCounts[4] += 1
            lists += 1
            listItems += items.count
            listLengths = listLengths.map { min($0.lowerBound, items.count)...max($0.upperBound, items.count) } ?? items.count...items.count
            texts = nil
        case .object:
            count += 1
            kindCounts[5] += 1
            texts = nil
        }
    }

    private mutating func countDistinct(_ hash: UInt64, text: Value?) {
        if exact != nil {
            exact![hash, default: 0] += 1
            if let text, texts != nil, texts![hash] == nil { texts![hash] = text }
            guard exact!.count > Self.exactDistinctLimit else { return }
            // Past the limit: the hashes seen seed the estimate, and counts and texts go.
            var estimator = HyperLogLog()
            for seen in exact!.keys { estimator.add(hash: seen) }
            self.estimator = estimator
            exact = nil
            texts = nil
            return
        }
        estimator?.add(hash: hash)
    }

    /// The Unicode scalars of `text` (`text.unicodeScalars.count`): its UTF-8 bytes that start one.
    static func scalarCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }

    /// A number as written: the source text, or the shortest text of an integer or double.
    static func numberText(_ value: Value) -> String {
        switch value {
        case .integer(let integer): return String(integer)
        case .double(let double): return NumberText.ecmaScript(double) ?? String(double)
        case .number(let text): return text
        default: return ""
        }
    }

    /// The instant of an RFC 3339 date-time string (`2024-05-01T09:30:00Z`), or of a full-date
    /// (`2024-05-01`) at its midnight UTC; nil for other text.
    static func instant(_ text: String) -> Instant? {
        let bytes = text.utf8
        if bytes.count == 10 {
            let date = bytes.withContiguousStorageIfAvailable { RFC3339Fields.parseFullDate(UnsafeRawBufferPointer($0)) } ?? nil
            guard let date, let day = CalendarDay(year: date.year, month: date.month, day: date.day) else { return nil }
            return Instant(seconds: CivilDate.days(year: day.year, month: day.month, day: day.day) * 86_400)
        }
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        var iterator = bytes.makeIterator()
        for position in 0..<11 {
            guard let byte = iterator.next() else { return nil }
            if position == 4 || position == 7 { guard byte == UInt8(ascii: "-") else { return nil } }
            if position == 10 { guard byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") else { return nil } }
        }
        if case .success(let instant) = Instant.parse(text) { return instant }
        return nil
    }
}
