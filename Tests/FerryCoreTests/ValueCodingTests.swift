import FerryCore
import Foundation
import Testing

// MARK: - Models

private struct Tasting: Codable, Equatable {
    enum Kind: String, Codable { case red, white }
    struct Taste: Codable, Equatable {
        var label: String
        var value: Double
    }
    struct Finish: Codable, Equatable {
        var length: String
        var note: String?
    }

    var id: String
    var title: String
    var kind: Kind
    var rating: Int
    var alcohol: Double
    var createdAt: Date
    var imageData: Data?
    var smells: [String]
    var tastes: [Taste]
    var finish: Finish?
    var comment: String?
}

/// 2024-05-01T09:30:00.250Z.
private let instant = Date(timeIntervalSince1970: 1_714_555_800.25)

private let sample = Tasting(
    id: "n1", title: "Pinot", kind: .red, rating: 4, alcohol: 13.5, createdAt: instant,
    imageData: Data([1, 2, 3]), smells: ["cherry", "oak"],
    tastes: [.init(label: "acid", value: 0.5), .init(label: "tannin", value: 2)],
    finish: .init(length: "long", note: nil), comment: nil)

/// `sample` encoded with `.iso8601` dates and `.base64` data, members in declaration order.
private let sampleValue: Value = [
    "id": "n1", "title": "Pinot", "kind": "red", "rating": 4, "alcohol": 13.5,
    "createdAt": "2024-05-01T09:30:00.250Z", "imageData": "AQID", "smells": ["cherry", "oak"],
    "tastes": [["label": "acid", "value": 0.5], ["label": "tannin", "value": 2.0]],
    "finish": ["length": "long"],
]

private var isoEncoder: ValueEncoder {
    var encoder = ValueEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
}

private var isoDecoder: ValueDecoder {
    var decoder = ValueDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}

/// Encodes with `superEncoder()`, `superEncoder(forKey:)` and a single value container below it.
private struct Pet: Codable, Equatable {
    var kind: String
    var name: String
    var age: Int

    enum CodingKeys: String, CodingKey { case kind, age }
    enum BaseKeys: String, CodingKey { case name }

    init(kind: String, name: String, age: Int) {
        self.kind = kind
        self.name = name
        self.age = age
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        var base = container.superEncoder().container(keyedBy: BaseKeys.self)
        try base.encode(name, forKey: .name)
        var single = container.superEncoder(forKey: .age).singleValueContainer()
        try single.encode(age)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        name = try container.superDecoder().container(keyedBy: BaseKeys.self).decode(String.self, forKey: .name)
        age = try container.superDecoder(forKey: .age).singleValueContainer().decode(Int.self)
    }
}

/// Encodes through nested keyed and unkeyed containers, and a super encoder inside an array.
private struct Shape: Codable, Equatable {
    var name: String
    var x: Int
    var y: Int
    var tags: [[String]]
    var extra: UInt8

    enum CodingKeys: String, CodingKey { case name, origin, tags }
    enum OriginKeys: String, CodingKey { case x, y }

    init(name: String, x: Int, y: Int, tags: [[String]], extra: UInt8) {
        (self.name, self.x, self.y, self.tags, self.extra) = (name, x, y, tags, extra)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        var origin = container.nestedContainer(keyedBy: OriginKeys.self, forKey: .origin)
        try origin.encode(x, forKey: .x)
        try origin.encode(y, forKey: .y)
        var list = container.nestedUnkeyedContainer(forKey: .tags)
        for group in tags {
            var inner = list.nestedUnkeyedContainer()
            for tag in group { try inner.encode(tag) }
        }
        var last = list.superEncoder().singleValueContainer()
        try last.encode(extra)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let origin = try container.nestedContainer(keyedBy: OriginKeys.self, forKey: .origin)
        x = try origin.decode(Int.self, forKey: .x)
        y = try origin.decode(Int.self, forKey: .y)
        var list = try container.nestedUnkeyedContainer(forKey: .tags)
        var groups: [[String]] = []
        while let count = list.count, list.currentIndex < count - 1 {
            var inner = try list.nestedUnkeyedContainer()
            var group: [String] = []
            while !inner.isAtEnd { group.append(try inner.decode(String.self)) }
            groups.append(group)
        }
        tags = groups
        extra = try list.superDecoder().singleValueContainer().decode(UInt8.self)
    }
}

/// Reads three elements from an array.
private struct Triple: Decodable {
    var values: [Int]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        values = [try container.decode(Int.self), try container.decode(Int.self), try container.decode(Int.self)]
    }
}

/// Asks for a keyed container after encoding a single value (JSONEncoder traps here).
private struct Confused: Encodable {
    enum CodingKeys: CodingKey { case a }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        _ = encoder.container(keyedBy: CodingKeys.self)
    }
}

private struct Counter: Codable, Equatable {
    var count: Int
    var limit: Int8?
}

/// Captures the error `body` throws, or nil.
private func decodingError(_ body: () throws -> Void) -> DecodingError? {
    do {
        try body()
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        return nil
    }
}

private func encodingError(_ body: () throws -> Void) -> EncodingError? {
    do {
        try body()
        return nil
    } catch let error as EncodingError {
        return error
    } catch {
        return nil
    }
}

private func debugDescription(_ error: DecodingError?) -> String? {
    switch error {
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?,
        .dataCorrupted(let context)?:
        return context.debugDescription
    default:
        return nil
    }
}

private func debugDescription(_ error: EncodingError?) -> String? {
    if case .invalidValue(_, let context)? = error { return context.debugDescription }
    return nil
}

private func pathNames(_ path: [any CodingKey]) -> [String] { path.map(\.stringValue) }

// MARK: - Tests

@Suite struct ValueCodingTests {
    // MARK: Encoding shapes

    @Test func encodesMembersInDeclarationOrder() throws {
        let value = try isoEncoder.encode(sample)
        #expect(value == sampleValue)
        #expect(value.objectValue?.keys == [
            "id", "title", "kind", "rating", "alcohol", "createdAt", "imageData", "smells", "tastes", "finish",
        ])
    }

    @Test func roundTripsNestedModel() throws {
        let decoded = try isoDecoder.decode(Tasting.self, from: try isoEncoder.encode(sample))
        #expect(decoded == sample)
        // Default strategies (deferredToDate, base64) round-trip too.
        let plain = try ValueEncoder().encode(sample)
        #expect(plain[JSONPointer("/createdAt")] == .double(736_248_600.25))
        #expect(try ValueDecoder().decode(Tasting.self, from: plain) == sample)
    }

    @Test func decodesFromNumberTextAndOptionalForms() throws {
        var object = try #require(sampleValue.objectValue)
        object["rating"] = .number("4.0")
        object["alcohol"] = .number("13.5")
        object["comment"] = .null
        object["finish"] = ["length": "long", "note": nil]
        let decoded = try isoDecoder.decode(Tasting.self, from: .object(object))
        #expect(decoded == sample)
    }

    @Test func encodesNumbersByKind() throws {
        let encoder = ValueEncoder()
        #expect(try encoder.encode(Int8(-8)) == .integer(-8))
        #expect(try encoder.encode(UInt64(Int64.max)) == .integer(Int64.max))
        #expect(try encoder.encode(UInt64.max) == .number("18446744073709551615"))
        #expect(try encoder.encode(2.5) == .double(2.5))
        #expect(try encoder.encode(Float(0.1)) == .double(0.1))
        #expect(try encoder.encode(Decimal(string: "1.50")) == .number("1.5"))
        #expect(try encoder.encode(URL(string: "https://example.com/a?b=1")) == .string("https://example.com/a?b=1"))
        #expect(try encoder.encode(Int?.none) == .null)
        #expect(try encoder.encode([1, 2]) == [1, 2])
        #expect(try ValueDecoder().decode(UInt64.self, from: .number("18446744073709551615")) == UInt64.max)
        #expect(try ValueDecoder().decode(Float.self, from: .double(0.1)) == Float(0.1))
        #expect(try ValueDecoder().decode(Decimal.self, from: .number("1.50")) == Decimal(string: "1.5"))
        let partial = decodingError { _ = try ValueDecoder().decode(Decimal.self, from: .number("1.5x")) }
        #expect(debugDescription(partial) == "at the root: number 1.5x does not fit in Decimal")
        let float = decodingError { _ = try ValueDecoder().decode([Float].self, from: [.number("1e39")]) }
        #expect(debugDescription(float) == "at /0: number 1e39 does not fit in Float")
    }

    @Test func sortsDictionaryKeys() throws {
        let text: [String: Int] = ["b": 2, "a": 1, "é": 3, "Z": 0]
        #expect(try ValueEncoder().encode(text) == ["Z": 0, "a": 1, "b": 2, "é": 3])
        let numbered: [Int: String] = [10: "x", 2: "y", -1: "z"]
        #expect(try ValueEncoder().encode(numbered) == ["-1": "z", "2": "y", "10": "x"])
        #expect(try ValueDecoder().decode([String: Int].self, from: ["Z": 0, "a": 1, "b": 2, "é": 3]) == text)
        #expect(try ValueDecoder().decode([Int: String].self, from: ["-1": "z", "2": "y", "10": "x"]) == numbered)
    }

    @Test func largeDictionaryRoundTrips() throws {
        let many = Dictionary(uniqueKeysWithValues: (0..<40).map { (String(format: "k%02d", $0), $0) })
        let value = try ValueEncoder().encode(many)
        #expect(value.objectValue?.keys == (0..<40).map { String(format: "k%02d", $0) })
        #expect(try ValueDecoder().decode([String: Int].self, from: value) == many)
    }

    @Test func superEncoderAndSingleValueContainers() throws {
        let pet = Pet(kind: "dog", name: "Rex", age: 3)
        let value = try ValueEncoder().encode(pet)
        #expect(value == ["kind": "dog", "super": ["name": "Rex"], "age": 3])
        #expect(try ValueDecoder().decode(Pet.self, from: value) == pet)
    }

    @Test func nestedKeyedAndUnkeyedContainers() throws {
        let shape = Shape(name: "p", x: 1, y: -2, tags: [["a", "b"], []], extra: 7)
        let value = try ValueEncoder().encode(shape)
        #expect(value == ["name": "p", "origin": ["x": 1, "y": -2], "tags": [["a", "b"], [], 7]])
        #expect(try ValueDecoder().decode(Shape.self, from: value) == shape)
    }

    @Test func dataStrategies() throws {
        var encoder = ValueEncoder()
        #expect(try encoder.encode(Data([0xFB, 0xFF])) == "+/8=")
        encoder.dataEncodingStrategy = .deferredToData
        #expect(try encoder.encode(Data([1, 2, 255])) == [1, 2, 255])
        var decoder = ValueDecoder()
        #expect(try decoder.decode(Data.self, from: "+/8=") == Data([0xFB, 0xFF]))
        decoder.dataDecodingStrategy = .deferredToData
        #expect(try decoder.decode(Data.self, from: [1, 2, 255]) == Data([1, 2, 255]))
        let error = decodingError { _ = try decoder.decode(Data.self, from: [1, 256]) }
        #expect(error?.jsonPointer == "/1")
        #expect(debugDescription(error) == "at /1: number 256 does not fit in UInt8")
    }

    // MARK: Dates

    @Test func dateEncodingStrategies() throws {
        var encoder = ValueEncoder()
        #expect(try encoder.encode(instant) == .double(736_248_600.25))
        encoder.dateEncodingStrategy = .secondsSince1970
        #expect(try encoder.encode(instant) == .double(1_714_555_800.25))
        encoder.dateEncodingStrategy = .millisecondsSince1970
        #expect(try encoder.encode(instant) == .double(1_714_555_800_250))
        encoder.dateEncodingStrategy = .iso8601
        #expect(try encoder.encode(instant) == "2024-05-01T09:30:00.250Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 1_714_555_800)) == "2024-05-01T09:30:00Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 1_714_555_800.0004)) == "2024-05-01T09:30:00Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 951_782_400.007)) == "2000-02-29T00:00:00.007Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
        let error = encodingError { _ = try encoder.encode(["at": Date(timeIntervalSince1970: 253_402_300_800)]) }
        #expect(error?.jsonPointer == "/at")
        #expect(
            debugDescription(error) == "at /at: date 253402300800.0 s since 1970 is outside RFC 3339's years 0000...9999")
    }

    @Test func dateDecodingStrategies() throws {
        var decoder = ValueDecoder()
        #expect(try decoder.decode(Date.self, from: .double(736_248_600.25)) == instant)
        #expect(try decoder.decode(Date.self, from: .integer(0)) == Date(timeIntervalSinceReferenceDate: 0))
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Date.self, from: .number("1714555800.25")) == instant)
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(Date.self, from: .integer(1_714_555_800_250)) == instant)
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Date.self, from: "2024-05-01T09:30:00.250Z") == instant)
        #expect(try decoder.decode(Date.self, from: "2024-05-01T18:30:00.25+09:00") == instant)
        #expect(try decoder.decode(Date.self, from: "2024-05-01t05:30:00.250000000999-04:00") == instant)
        #expect(try decoder.decode(Date.self, from: "1969-12-31T23:59:59.5z") == Date(timeIntervalSince1970: -0.5))
        for bad in ["2024-05-01T09:30:00", "2024-02-30T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T09:30:00.Z", "2024-5-01T09:30:00Z"] {
            let error = decodingError { _ = try decoder.decode([Date].self, from: [.string(bad)]) }
            #expect(error?.jsonPointer == "/0")
            #expect(debugDescription(error) == "at /0: expected an RFC 3339 date-time with an offset, found \"\(bad)\"")
        }
        let wrongKind = decodingError { _ = try decoder.decode(Date.self, from: 5) }
        #expect(debugDescription(wrongKind) == "at the root: expected a string, found number")
    }

    // MARK: Decoding errors

    @Test func typeMismatchDeepInsideArray() throws {
        let value = replacing(sampleValue, at: ["tastes"], with: [["label": "acid", "value": 0.5], ["label": "tannin", "value": "high"]])
        let error = decodingError { _ = try isoDecoder.decode(Tasting.self, from: value) }
        guard case .typeMismatch(let type, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(type is Double.Type)
        #expect(pathNames(context.codingPath) == ["tastes", "1", "value"])
        #expect(error?.jsonPointer == "/tastes/1/value")
        #expect(context.debugDescription == "at /tastes/1/value: expected a number, found string")
    }

    @Test func missingKeyNamesTheMember() throws {
        let value = replacing(sampleValue, at: ["tastes"], with: [["label": "acid", "value": 0.5], ["value": 2.0]])
        let error = decodingError { _ = try isoDecoder.decode(Tasting.self, from: value) }
        guard case .keyNotFound(let key, let context)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "label")
        #expect(pathNames(context.codingPath) == ["tastes", "1"])
        #expect(error?.jsonPointer == "/tastes/1/label")
        #expect(context.debugDescription == "at /tastes/1/label: required member \"label\" is missing")
    }

    @Test func intFieldRejectsFractionsAndOverflow() throws {
        let cases: [(Value, String)] = [
            (.double(1.5), "at /count: number 1.5 does not fit in Int"),
            (.number("1.5"), "at /count: number 1.5 does not fit in Int"),
            (.double(1e30), "at /count: number 1e+30 does not fit in Int"),
            (.number("1e30"), "at /count: number 1e30 does not fit in Int"),
            (.number("9223372036854775808"), "at /count: number 9223372036854775808 does not fit in Int"),
            (.number("1.0000000000000000001"), "at /count: number 1.0000000000000000001 does not fit in Int"),
        ]
        for (given, message) in cases {
            let error = decodingError { _ = try ValueDecoder().decode(Counter.self, from: ["count": given]) }
            guard case .dataCorrupted(let context)? = error else {
                Issue.record("expected dataCorrupted for \(given), got \(String(describing: error))")
                continue
            }
            #expect(pathNames(context.codingPath) == ["count"])
            #expect(error?.jsonPointer == "/count")
            #expect(context.debugDescription == message)
        }
        #expect(try ValueDecoder().decode(Counter.self, from: ["count": 1.0]) == Counter(count: 1))
        #expect(try ValueDecoder().decode(Counter.self, from: ["count": .number("1e2")]) == Counter(count: 100))
        let small = decodingError { _ = try ValueDecoder().decode(Counter.self, from: ["count": 1, "limit": 300]) }
        #expect(debugDescription(small) == "at /limit: number 300 does not fit in Int8")
    }

    @Test func nullAbsentAndWrongKindOptionals() throws {
        let decoder = ValueDecoder()
        #expect(try decoder.decode(Counter.self, from: ["count": 2, "limit": nil]) == Counter(count: 2, limit: nil))
        #expect(try decoder.decode(Counter.self, from: ["count": 2]) == Counter(count: 2, limit: nil))
        #expect(try decoder.decode(Counter.self, from: ["count": 2, "limit": 5]) == Counter(count: 2, limit: 5))
        let wrongKind = decodingError { _ = try decoder.decode(Counter.self, from: ["count": 2, "limit": "5"]) }
        #expect(debugDescription(wrongKind) == "at /limit: expected a number, found string")
        let null = decodingError { _ = try decoder.decode(Counter.self, from: ["count": nil]) }
        guard case .valueNotFound(_, let context)? = null else {
            Issue.record("expected valueNotFound, got \(String(describing: null))")
            return
        }
        #expect(context.debugDescription == "at /count: expected a number, found null")
        #expect(try ValueEncoder().encode(Counter(count: 2)) == ["count": 2])
    }

    @Test func containerKindMismatchesAndShortArrays() throws {
        let decoder = ValueDecoder()
        let notObject = decodingError { _ = try decoder.decode([Counter].self, from: [["count": 1], [1]]) }
        #expect(notObject?.jsonPointer == "/1")
        #expect(debugDescription(notObject) == "at /1: expected an object, found array")
        let notArray = decodingError { _ = try isoDecoder.decode(Tasting.self, from: replacing(sampleValue, at: ["smells"], with: "oak")) }
        #expect(debugDescription(notArray) == "at /smells: expected an array, found string")
        let short = decodingError { _ = try decoder.decode([String: Triple].self, from: ["t": [1, 2]]) }
        guard case .valueNotFound(_, let context)? = short else {
            Issue.record("expected valueNotFound, got \(String(describing: short))")
            return
        }
        #expect(short?.jsonPointer == "/t/2")
        #expect(context.debugDescription == "at /t/2: expected another element, the array has only 2")
        #expect(try decoder.decode(Triple.self, from: [1, 2.0, .number("3")]).values == [1, 2, 3])
        let nested = decodingError { _ = try decoder.decode(Shape.self, from: ["name": "p", "origin": ["x": 1, "y": true], "tags": [0]]) }
        #expect(debugDescription(nested) == "at /origin/y: expected a number, found boolean")
    }

    // MARK: Encoding errors

    @Test func nonFiniteNumbersNameTheirPath() throws {
        var nan = sample
        nan.alcohol = .nan
        let error = encodingError { _ = try ValueEncoder().encode(nan) }
        #expect(error?.jsonPointer == "/alcohol")
        #expect(debugDescription(error) == "at /alcohol: NaN has no JSON form")
        var infinite = sample
        infinite.tastes[1].value = -.infinity
        let deep = encodingError { _ = try ValueEncoder().encode(infinite) }
        #expect(deep?.jsonPointer == "/tastes/1/value")
        #expect(debugDescription(deep) == "at /tastes/1/value: -infinity has no JSON form")
        let top = encodingError { _ = try ValueEncoder().encode(Float.infinity) }
        #expect(debugDescription(top) == "at the root: infinity has no JSON form")
    }

    @Test func mixedContainerKindsThrowInsteadOfTrapping() throws {
        let error = encodingError { _ = try ValueEncoder().encode(["x": [Confused()]]) }
        #expect(error?.jsonPointer == "/x/0")
        #expect(
            debugDescription(error)
                == "at /x/0: a keyed container was asked for after a different kind of container had been used")
    }

    // MARK: JSON Pointers

    @Test func codingPathToPointer() {
        struct FoundationIndexKey: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { (self.stringValue, self.intValue) = (stringValue, nil) }
            init(intValue: Int) { (self.stringValue, self.intValue) = ("Index \(intValue)", intValue) }
        }
        enum NumberedKeys: Int, CodingKey { case name = 7 }
        let path: [any CodingKey] = [
            FoundationIndexKey(stringValue: "a/b"), FoundationIndexKey(intValue: 3), NumberedKeys.name,
        ]
        #expect(JSONPointer(codingPath: path).description == "/a~1b/3/name")
        let error = EncodingError.invalidValue(0, .init(codingPath: path, debugDescription: ""))
        #expect(error.jsonPointer.description == "/a~1b/3/name")
    }
}

/// `value` with the member at `path` (object keys) replaced.
private func replacing(_ value: Value, at path: [String], with replacement: Value) -> Value {
    guard let first = path.first, case .object(var object) = value else { return replacement }
    object[first] = replacing(object[first] ?? .null, at: Array(path.dropFirst()), with: replacement)
    return .object(object)
}
