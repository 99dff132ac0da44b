import FerryCore
import FerrySchemas

/// A small deterministic generator (SplitMix64), so a failing record can be made again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Records of any record type made from its descriptor alone (`RecordType.fields`), so that every
/// model of every domain and version gets the same treatment: plain records, and records with one
/// or more problems of every kind a reader reports (absent, null, wrong type, out of range, off
/// the step, bad text for the type, unknown and repeated members, members out of order, numeric
/// dates, precision finer than milliseconds).
struct RecordGenerator {
    var random: SeededGenerator
    /// The chance (out of 100) that a field is broken, and that the record's members are
    /// shuffled, repeated or joined by an unknown one.
    var brokenPercent: Int

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    /// A record (or nested object) of `type`.
    mutating func object(_ type: RecordType, depth: Int = 0) -> Value {
        var members: [ValueObject.Member] = []
        for field in type.fields {
            if !field.isRequired, chance(30) { continue }
            if chance(brokenPercent) {
                if let broken = broken(field) { members.append((field.name, broken)) }
                continue
            }
            members.append((field.name, plain(field.type, field, depth: depth)))
        }
        if chance(brokenPercent) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: members.append((pick(["colour", "Title", "é\"x", "$collection2"]), .string("x")))
            case 1: if let member = members.first { members.append(member) }
            case 2: members.shuffle(using: &random)
            default: members.insert(("unknown", .number("1")), at: Int.random(in: 0...members.count, using: &random))
            }
        }
        return .object(ValueObject(members))
    }

    /// A value that keeps every rule of `type` (with `field`'s range and step).
    mutating func plain(_ type: FieldType, _ field: FieldSchema, depth: Int) -> Value {
        switch type {
        case .string: return .string(pick(["", "plain", "with \"quotes\" and \\", "tab\tline\nend", "café ☕", "😀 emoji", "/slash"]))
        case .nonEmptyString: return .string(pick(["a", "Pinot Noir 2019", "x\u{1}y", "ünïcode", "id-\(Int.random(in: 0..<1000, using: &random))"]))
        case .integer: return .number(pick(["0", "1", "-7", "42", "9007199254740993", "1.0"]))
        case .double: return .number(number(field))
        case .bool: return .bool(chance(50))
        case .instant:
            return .string(pick(["2024-05-01T09:30:00Z", "2024-05-01T09:30:00.123Z", "2024-05-01T18:30:00+09:00", "1999-12-31T23:59:59.5Z"]))
        case .day: return .string(pick(["2024-05-01", "2020-02-29"]))
        case .instantOrDay: return .string(pick(["2024-05-01", "2024-05-01T09:30:00Z"]))
        case .data: return .string(pick(["", "aGVsbG8=", "iVBORw0KGgo="]))
        case .timestamp:
            return chance(50)
                ? .object(["_seconds": .number("1700000000"), "_nanoseconds": .number(pick(["0", "123000000"]))])
                : .string("2024-05-01T09:30:00Z")
        case .url: return .string(pick(["", "https://example.com/a", "HTTP://host:8080/x?y#z"]))
        case .enumeration(let cases): return .string(pick(cases))
        case .object(let nested): return depth < 4 ? object(nested, depth: depth + 1) : .object([:])
        case .array(let element):
            let count = Int.random(in: 0...3, using: &random)
            var items: [Value] = []
            for _ in 0..<count {
                items.append(chance(brokenPercent / 2) ? wrongElement(element) : plain(element, FieldSchema("", element), depth: depth + 1))
            }
            return .array(items)
        }
    }

    /// A number text within `field`'s range and on its step.
    mutating func number(_ field: FieldSchema) -> String {
        let low = field.range?.lowerBound ?? -1000
        let high = field.range?.upperBound ?? 1000
        if let step = field.step {
            let steps = Int(((high - low) / step).rounded(.down))
            let value = low + Double(Int.random(in: 0...max(steps, 0), using: &random)) * step
            return NumberText.ecmaScript(value) ?? "0"
        }
        return pick([NumberText.ecmaScript(low) ?? "0", NumberText.ecmaScript(high) ?? "0",
                     NumberText.ecmaScript((low + high) / 2) ?? "0", "-0", "0.1", "1E1"].filter {
            guard let d = Double($0) else { return false }
            return d >= low && d <= high
        } + ["0"])
    }

    /// An element of the wrong kind for a list of `element`s.
    mutating func wrongElement(_ element: FieldType) -> Value {
        switch element {
        case .object: return pick([.null, .string("x"), .number("3"), .array([])])
        default: return pick([.null, .object([:]), .number("3"), .bool(true)])
        }
    }

    /// A value that breaks a rule of `field`, or nil for the field left out.
    mutating func broken(_ field: FieldSchema) -> Value? {
        var options: [Value?] = [nil, .null, .array([.string("a")]), .object(["a": .number("1")]), .bool(false)]
        switch field.type {
        case .string, .nonEmptyString, .url, .enumeration:
            options += [.number("7"), .string(""), .string("ftp://nowhere"), .string("not one of them"),
                        .string(String(repeating: "long ", count: 12))]
        case .integer:
            options += [.number("1.5"), .number("1e30"), .string("five"), .number("-9223372036854775809"), .number("2E2")]
        case .double:
            let high = field.range?.upperBound ?? 1e300
            options += [.number(NumberText.ecmaScript(high + 1) ?? "1e309"), .number("1e400"), .string("2.5"),
                        .number(field.step.map { NumberText.ecmaScript($0 / 3) ?? "0.1" } ?? "-1e999")]
        case .instant, .instantOrDay:
            options += [.string("2024-13-01T00:00:00Z"), .number("1700000000"), .string("2024-05-01T09:30:00.1234567Z"),
                        .string("yesterday"), .number("1e30")]
        case .day: options += [.string("2024-02-30"), .string("2024-05-01T00:00:00Z"), .number("20240501")]
        case .data: options += [.string("@@@"), .string("aGVsbG8"), .number("1")]
        case .timestamp:
            options += [.string(""), .number("1700000000"), .object(["_seconds": .string("x"), "_nanoseconds": .number("0")]),
                        .object(["_seconds": .number("1"), "_nanoseconds": .number("1000000000")]), .string("not a date")]
        case .object: options += [.string("x"), .array([])]
        case .array: options += [.string(""), .string("a,b"), .array([.null])]
        case .bool: options += [.string("true"), .number("1")]
        }
        return pick(options)
    }
}
