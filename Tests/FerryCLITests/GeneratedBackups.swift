import FerryTestSupport
import Foundation

/// Datasets made in code, not copied from `Samples/`, so tests see exports Ferry's samples do not
/// hold: each domain at each version as a JSON document with its envelope, `count` records a
/// collection, values drawn from a seeded `SplitMix` (the same bytes on every run).
enum GeneratedBackups {
    /// The three domains, as the CLI names them.
    static let domains = ["notes", "pet-story", "vocabulary"]

    /// The JSON document of `domain` at `version`: valid, `count` records in each collection
    /// (notes: wine and whiskey only; the other collections absent, which readers take as empty).
    static func json(domain: String, version: Int, count: Int = 3, seed: UInt64 = 1) -> String {
        var random = SplitMix(seed: seed &+ UInt64(version) &* 31 &+ UInt64(domains.firstIndex(of: domain) ?? 0))
        let collections: [(String, [String])]
        switch (domain, version) {
        case ("notes", 1):
            collections = [
                ("wineNotes", (0..<count).map { wineV1($0, &random) }),
                ("whiskeyNotes", (0..<count).map { whiskeyV1($0, &random) }),
            ]
        case ("notes", _):
            collections = [
                ("wineTastingNotes", (0..<count).map { wineV2($0, &random) }),
                ("whiskeyTastingNotes", (0..<count).map { whiskeyV2($0, &random) }),
            ]
        case ("pet-story", 1):
            collections = [
                ("profiles", [#"{"id": "p0", "name": "Home", "createdAt": "2023-01-01T08:00:00Z", "lastUpdatedAt": "2024-01-01T08:00:00Z"}"#]),
                ("members", (0..<count).map { memberV1($0, &random) }),
                ("stories", (0..<count).map { storyV1($0, count: count, &random) }),
            ]
        case ("pet-story", _):
            collections = [
                ("profiles", [#"{"id": "p0", "name": "Home", "createdAt": "2023-01-01T08:00:00Z", "lastUpdatedAt": "2024-01-01T08:00:00Z"}"#]),
                ("members", (0..<count).map { memberV2($0, &random) }),
                ("stories", (0..<count).map { storyV2($0, count: count, &random) }),
            ]
        case (_, 1):
            collections = [
                ("wordBooks", [#"{"id": "b0", "title": "JLPT N5", "timestamp": {"_seconds": 1704096000, "_nanoseconds": 0}}"#]),
                ("words", (0..<count).map { wordV1($0, &random) }),
            ]
        default:
            collections = [
                ("wordBooks", [#"{"id": "b0", "title": "JLPT N5", "createdAt": "2024-01-01T08:00:00Z"}"#]),
                ("words", (0..<count).map { wordV2($0, &random) }),
            ]
        }
        var text = "{\n  \"domain\": \"\(domain)\",\n  \"schemaVersion\": \(version)"
        for (name, records) in collections {
            text += ",\n  \"\(name)\": [\n    " + records.joined(separator: ",\n    ") + "\n  ]"
        }
        return text + "\n}\n"
    }

    private static let grapes = ["Pinot Noir", "Riesling", "Syrah", "Nebbiolo", "Chenin Blanc"]
    private static let smells = ["cherry", "smoke", "pear", "violet", "peat", "honey"]
    private static let words = [("water", "みず", "水"), ("fire", "ひ", "火"), ("tree", "き", "木"), ("mountain", "やま", "山")]

    private static func day(_ index: Int) -> String { "2024-0\(index % 9 + 1)-1\(index % 10)" }
    private static func instant(_ index: Int, _ random: inout SplitMix) -> String {
        "\(day(index))T\(10 + random.next(10)):\(10 + random.next(50)):00Z"
    }
    private static func rating(_ random: inout SplitMix) -> String { String(Double(random.next(11)) / 2) }
    private static func taste(_ random: inout SplitMix) -> String { String(Double(random.next(5)) / 4) }

    private static func wineV1(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "wine-\#(i)", "title": "Wine \#(i)", "category": "red", "createdAt": "\#(instant(i, &r))", "alcohol": \#(12 + r.next(3)).5, "#
            + #""look": "ruby, bright", "smells": ["\#(smells[r.next(6)])"], "tastes": [{"label": "acid", "value": \#(taste(&r))}], "#
            + #""grape": "\#(grapes[r.next(5)])", "think": "note \#(i)", "rating": \#(rating(&r)), "isFavorite": \#(i % 2 == 0)}"#
    }

    private static func whiskeyV1(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "whisky-\#(i)", "title": "Malt \#(i)", "category": "single malt", "createdAt": "\#(instant(i, &r))", "alcohol": 4\#(r.next(9)), "#
            + #""look": "amber", "smells": ["\#(smells[r.next(6)])"], "tastes": [], "finish": {"length": "Long", "note": "dry"}, "#
            + #""think": "", "rating": \#(rating(&r)), "isFavorite": false}"#
    }

    private static func wineV2(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "wine-\#(i)", "title": "Wine \#(i)", "category": "red", "createdAt": "\#(instant(i, &r))", "alcoholByVolume": \#(12 + r.next(3)).5, "#
            + #""look": {"tint": "ruby", "note": "bright"}, "smells": [{"label": "\#(smells[r.next(6)])"}], "#
            + #""tastes": [{"label": "acid", "value": \#(taste(&r))}], "grape": {"variety": "\#(grapes[r.next(5)])"}, "#
            + #""think": "note \#(i)", "rating": \#(rating(&r)), "isFavorite": \#(i % 2 == 0)}"#
    }

    private static func whiskeyV2(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "whisky-\#(i)", "title": "Malt \#(i)", "category": "single malt", "createdAt": "\#(instant(i, &r))", "alcoholByVolume": 4\#(r.next(9)), "#
            + #""look": {"tint": "amber", "note": ""}, "smells": [{"label": "\#(smells[r.next(6)])"}], "tastes": [], "#
            + #""finish": {"length": "long", "note": "dry"}, "think": "", "rating": \#(rating(&r)), "isFavorite": false}"#
    }

    private static let species = ["dog", "cat", "bird"]

    private static func memberV1(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "m\#(i)", "name": "Pet \#(i)", "since": "2020-02-0\#(i % 9 + 1)", "birthDate": "2019-0\#(i % 9 + 1)-01", "#
            + #""type": "\#(species[r.next(3)])", "sex": "\#(i % 2 == 0 ? "male" : "female")", "bio": "", "createdAt": "\#(instant(i, &r))"}"#
    }

    private static func memberV2(_ i: Int, _ r: inout SplitMix) -> String {
        #"{"id": "m\#(i)", "name": "Pet \#(i)", "since": "2020-02-0\#(i % 9 + 1)", "birthDate": "2019-0\#(i % 9 + 1)-01", "#
            + #""species": "\#(species[r.next(3)])", "sex": "\#(i % 2 == 0 ? "male" : "unknown")", "bio": "", "createdAt": "\#(instant(i, &r))"}"#
    }

    private static func storyV1(_ i: Int, count: Int, _ r: inout SplitMix) -> String {
        #"{"id": "s\#(i)", "caption": "Walk \#(i)", "createdAt": "\#(instant(i, &r))", "mediaContentIds": [], "#
            + #""lat": 35.\#(r.next(9)), "lng": 139.\#(r.next(9)), "taggedMemberIds": ["m\#(r.next(count))"]}"#
    }

    private static func storyV2(_ i: Int, count: Int, _ r: inout SplitMix) -> String {
        #"{"id": "s\#(i)", "caption": "Walk \#(i)", "createdAt": "\#(instant(i, &r))", "media": [], "#
            + #""location": {"latitude": 35.\#(r.next(9)), "longitude": 139.\#(r.next(9))}, "taggedMemberIds": ["m\#(r.next(count))"]}"#
    }

    private static func wordV1(_ i: Int, _ r: inout SplitMix) -> String {
        let (meaning, gana, kanji) = words[i % words.count]
        return #"{"id": "w\#(i)", "wordBookID": "b0", "meaningText": "\#(meaning)", "meaningImageURL": "", "ganaText": "\#(gana)", "#
            + #""ganaImageURL": "", "kanjiText": "\#(kanji)", "kanjiImageURL": "", "studyState": \#(r.next(3)), "#
            + #""timestamp": {"_seconds": \#(1704096000 + i * 86400 + r.next(3600)), "_nanoseconds": 0}}"#
    }

    private static let states = ["undefined", "success", "fail"]

    private static func wordV2(_ i: Int, _ r: inout SplitMix) -> String {
        let (meaning, gana, kanji) = words[i % words.count]
        return #"{"id": "w\#(i)", "wordBookID": "b0", "meaningText": "\#(meaning)", "meaningImageURL": "", "ganaText": "\#(gana)", "#
            + #""ganaImageURL": "", "kanjiText": "\#(kanji)", "kanjiImageURL": "https://example.com/k\#(i).png", "#
            + #""studyState": "\#(states[r.next(3)])", "timestamp": "\#(instant(i, &r))"}"#
    }
}
