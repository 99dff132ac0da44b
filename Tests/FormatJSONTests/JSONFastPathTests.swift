import FerryCore
import Testing

@testable import FormatJSON

/// The fast paths of the JSON parser and serializer (raw byte buffer, word-at-a-time string
/// scans, the short-string cache, `$collection` taken while parsing, lines rendered ahead for
/// `--jobs`) give exactly what the plain, byte-by-byte way gives, on edge cases too.
@Suite struct JSONFastPathTests {
    /// The JSON form of a string, one byte at a time (the reference for the serializer).
    static func referenceQuoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return out
    }

    /// Strings of every length up to 40 with one special character at every position (and none),
    /// in ASCII and with multi-byte characters around.
    static var strings: [String] {
        var all: [String] = []
        let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\t", "/", "\u{7F}"]
        for length in 0...40 {
            let plain = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
            all.append(plain)
            all.append("é" + plain + "日本")
            for position in 0..<max(length, 1) {
                for special in specials {
                    var characters = Array(plain)
                    if characters.isEmpty { characters = [special] } else { characters[position] = special }
                    all.append(String(characters))
                }
            }
        }
        return all
    }

    @Test func stringsAreEscapedLikeTheByteByByteReference() {
        for text in Self.strings {
            var serializer = JSONSerializer(pretty: false, capacity: 16)
            serializer.appendString(text)
            #expect(serializer.bytes.array == Self.referenceQuoted(text), "\(text.debugDescription)")
        }
    }

    @Test func stringsSurviveARoundTripThroughTheCachingParser() throws {
        // One long line of many strings, parsed with and without the short-string cache.
        let texts = Self.strings
        var serializer = JSONSerializer(pretty: false, capacity: 16)
        try serializer.appendValue(.array(texts.map { .string($0) }))
        let bytes = serializer.bytes.array
        let stacks = JSONParseStacks()
        for _ in 0..<2 {  // the second time, the cache is warm
            let value = try bytes.withUnsafeBufferPointer { p in
                var parser = JSONParser(bytes: p, range: 0..<p.count, location: SourceLocation(), maximumDepth: 512, stacks: stacks)
                return try parser.parseDocument()
            }
            #expect(value == .array(texts.map { .string($0) }))
            #expect(value == (try JSONText.parse(bytes)))
        }
    }

    @Test func shortStringsAtTheEndOfTheBufferAndWithEscapes() throws {
        let stacks = JSONParseStacks()
        for text in ["\"a\"", "\"abcdefghijklmno\"", "\"abc\\\"d\"", "\"日本\"", "{\"k\":\"v\"}", "[\"é\",\"e\",\"é\"]"] {
            let bytes = Array(text.utf8)
            let cached = try bytes.withUnsafeBufferPointer { p in
                var parser = JSONParser(bytes: p, range: 0..<p.count, location: SourceLocation(), maximumDepth: 512, stacks: stacks)
                return try parser.parseDocument()
            }
            #expect(cached == (try JSONText.parse(bytes)), "\(text)")
        }
    }

    /// What `JSONLinesReader` does with `$collection`: the first `$collection` member, when a
    /// string, names the collection; it goes when it is the only one, and a line naming
    /// `$collection` twice keeps both (its record's reading reports the second).
    static func referenceCollection(_ value: Value) -> (Value, String?) {
        guard case .object(var object) = value, let name = object["$collection"]?.stringValue else { return (value, nil) }
        if object.keys.filter({ $0 == "$collection" }).count == 1 { object["$collection"] = nil }
        return (.object(object), name)
    }

    @Test func collectionIsTakenAsTheReaderDid() throws {
        let lines = [
            #"{"$collection":"a","id":"1"}"#,
            #"{"id":"1","$collection":"a","x":{"$collection":"inner"}}"#,
            #"{"$collection":"a","id":"1","$collection":2}"#,
            #"{"$collection":2,"id":"1","$collection":"a"}"#,
            #"{"$collection":null}"#,
            #"{"$collection":"only"}"#,
            #"{"id":"1"}"#,
            #"[{"$collection":"a"}]"#,
            #""$collection""#,
            #"{}"#,
        ]
        let stacks = JSONParseStacks()
        for line in lines {
            let bytes = Array(line.utf8)
            let (value, collection) = try bytes.withUnsafeBufferPointer { p in
                var parser = JSONParser(
                    bytes: p, range: 0..<p.count, location: SourceLocation(), maximumDepth: 512, stacks: stacks,
                    takesCollection: true)
                return (try parser.parseDocument(), parser.collection)
            }
            let expected = Self.referenceCollection(try JSONText.parse(bytes))
            #expect(value == expected.0, "\(line)")
            #expect(collection == expected.1, "\(line)")
        }
    }

    @Test func aBadLineLeavesTheStacksClean() throws {
        let stacks = JSONParseStacks()
        for line in [#"{"a":[1,{"b":"#, #"{"a":[1,2,}"#, #"{"$collection":"x","a":"#, #"{"a":1}"#] {
            let bytes = Array(line.utf8)
            _ = try? bytes.withUnsafeBufferPointer { p in
                var parser = JSONParser(
                    bytes: p, range: 0..<p.count, location: SourceLocation(), maximumDepth: 512, stacks: stacks,
                    takesCollection: true)
                return try parser.parseDocument()
            }
            #expect(stacks.frames.count == 0)
            #expect(stacks.members.count == 0)
            #expect(stacks.elements.count == 0)
        }
    }

    static let records: [(collection: String?, value: Value)] = [
        ("notes", ["id": "1", "title": "a \"b\"\n", "rating": .double(4.5), "n": .integer(-12), "x": .number("1.50")]),
        (nil, ["id": "2", "$collection": "kept", "list": [.double(1e21), .double(0.1), .double(-0.0), .double(1e-7)]]),
        ("notes", ["$collection": "dropped", "id": "3"]),
        ("notes", .string("not an object")),
        (nil, ["bad": .double(.nan)]),
        (nil, .array([.integer(Int64.max), .integer(Int64.min), .double(123456789012345680)])),
    ]

    @Test func renderedLinesAreTheLinesWriteWrites() throws {
        let rendered = JSONLinesWriter(sink: MemorySink()).renderer.render(Self.records)
        #expect(rendered.ranges.count == Self.records.count)
        for (index, record) in Self.records.enumerated() {
            let sink = MemorySink()
            let writer = JSONLinesWriter(sink: sink)
            let written: Bool
            do {
                try writer.write(Record(collection: record.collection, value: record.value, location: SourceLocation()))
                written = true
            } catch {
                written = false
            }
            try writer.finish()
            guard let range = rendered.ranges[index] else {
                #expect(!written, "record \(index) renders no line but writes one")
                continue
            }
            #expect(written)
            #expect(Array(rendered.bytes[range]) == sink.bytes, "record \(index)")
            // And through writeRendered, bytes for bytes.
            let direct = MemorySink()
            let second = JSONLinesWriter(sink: direct)
            try rendered.bytes.withUnsafeBufferPointer { try second.writeRendered(UnsafeBufferPointer(rebasing: $0[range])) }
            try second.finish()
            #expect(direct.bytes == sink.bytes)
        }
    }

    @Test func doublesAreWrittenInTheECMAScriptForm() throws {
        let doubles: [Double] = [0, -0.0, 1, -1, 13, 0.5, 1e-7, 1e21, 1e20, 123456789012345680, 1e18, -1e18,
                                 1e15, 2e15, -2e15, 4_503_599_627_370_496, 9_007_199_254_740_991, 9_007_199_254_740_992,
                                 0.1, 1.5e-5, 2.5e300, -7.25, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]
        for double in doubles {
            var serializer = JSONSerializer(pretty: false, capacity: 16)
            try serializer.appendValue(.double(double))
            #expect(String(decoding: serializer.bytes.array, as: UTF8.self) == NumberText.ecmaScript(double), "\(double)")
        }
    }
}
