import FerryCore
import FerryFilter
import Foundation
import Testing

@Suite struct EvaluationTests {
    /// The ids of `NotesSchema.records` the filter keeps.
    private func selected(
        _ source: String, schema: FilterSchema? = nil, variables: [String: Value] = [:], timeZone: TimeZone = .gmt,
        records: [Value] = NotesSchema.records
    ) throws -> [String] {
        let filter = try CompiledFilter(source, variables: variables, schema: schema, timeZone: timeZone)
        return records.filter { filter.evaluate($0) }.compactMap { $0.objectValue?["id"]?.stringValue }
    }

    @Test(arguments: [nil, NotesSchema.schema] as [FilterSchema?])
    func truthTables(schema: FilterSchema?) throws {
        let cases: [(String, [String])] = [
            ("rating >= 4 AND title CONTAINS[c] \"pinot\"", ["n1", "n4"]),
            ("rating >= 4 OR title CONTAINS[c] \"pinot\"", ["n1", "n2", "n3", "n4", "n5"]),
            ("NOT rating >= 4", ["n2"]),
            ("4 <= rating AND rating < 5", ["n1", "n3", "n4"]),
            ("rating == 4", ["n3", "n4"]),
            ("rating != 4", ["n1", "n2", "n5"]),
            ("rating BETWEEN {4, 4.5}", ["n1", "n3", "n4"]),
            ("id IN {'n2', 'n5', 'zz'}", ["n2", "n5"]),
            ("ANY smells.label == \"oak\"", ["n1", "n4"]),
            ("SOME smells.label ==[c] \"oak\"", ["n1", "n4", "n5"]),
            ("ALL tastes.value > 0.5", ["n2", "n3", "n4"]),
            ("NONE smells.label == \"oak\"", ["n2", "n3", "n5"]),
            ("ANY tastes.label IN {'butter', 'sweet'}", ["n1", "n3"]),
            ("tastes.@count > 2", ["n1"]),
            ("smells.@count == 0", ["n3"]),
            ("tastes.value.@max >= 0.9", ["n3"]),
            ("\"oak\" IN smells.label", ["n1", "n4"]),
            ("smells.label CONTAINS \"pear\"", ["n4"]),
            ("title LIKE \"*pinot*\"", ["n4"]),
            ("title LIKE[c] \"*pinot*\"", ["n1", "n2", "n4"]),
            ("title LIKE \"P?not*\"", ["n1"]),
            ("title LIKE \"Caf? de*\"", ["n5"]),
            ("title LIKE \"Chardonnay\"", ["n3"]),
            ("title MATCHES \"[A-Z].*[0-9]+\"", ["n1"]),
            ("title MATCHES \"pinot\"", []),
            ("title MATCHES \"pinot.*\"", ["n4"]),
            ("title MATCHES[c] \"pinot.*\"", ["n1", "n4"]),
            ("title BEGINSWITH \"Pinot\"", ["n1"]),
            ("title ENDSWITH[c] \"pinot\"", ["n2"]),
            ("title BEGINSWITH[c] \"cafe\"", []),
            ("title BEGINSWITH[d] \"Cafe\"", ["n5"]),
            ("title ==[cd] \"CAFE DE PARIS\"", ["n5"]),
            ("title CONTAINS[cd] \"É\"", ["n5"]),
            ("title > \"P\"", ["n1", "n4"]),
            ("look.tint == 'ruby' AND grape.variety BEGINSWITH 'pinot'", ["n1", "n2", "n3", "n4", "n5"]),
            ("isFavorite == YES", ["n1", "n4"]),
            ("isFavorite != TRUE", ["n2", "n3", "n5"]),
            ("createdAt >= \"2024-01-01\"", ["n2", "n3", "n4"]),
            ("createdAt < \"2024-01-01T00:00:00Z\"", ["n1", "n5"]),
            ("createdAt == \"2024-06-14T23:30:00Z\"", ["n3"]),
            ("createdAt > \"2024-02-01T00:00:00.2Z\"", ["n3", "n4"]),
            ("createdAt BETWEEN {\"2024-01-01\", \"2024-02-01\"}", ["n2"]),
            ("TRUEPREDICATE AND NOT FALSEPREDICATE", ["n1", "n2", "n3", "n4", "n5"]),
        ]
        for (source, expected) in cases {
            #expect(try selected(source, schema: schema) == expected, "\(source)")
        }
    }

    @Test func dateOnlyLiteralInTokyo() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // Midnight 2024-01-01 in Tokyo is 2023-12-31T15:00:00Z: n1 (23:00Z) is after it.
        #expect(try selected("createdAt >= \"2024-01-01\"", timeZone: tokyo) == ["n1", "n2", "n3", "n4"])
        #expect(try selected("createdAt >= \"2024-01-01\"", schema: NotesSchema.schema, timeZone: tokyo) == ["n1", "n2", "n3", "n4"])
        #expect(try selected("createdAt < \"2024-01-01\"", timeZone: tokyo) == ["n5"])
        // An explicit instant does not depend on the time zone.
        #expect(try selected("createdAt >= \"2024-01-01T00:00:00Z\"", timeZone: tokyo) == ["n2", "n3", "n4"])
        // A day value compared with a day literal: both midnight in the zone.
        let day: [Value] = [["id": "d1", "birthDate": "2023-12-31"], ["id": "d2", "birthDate": "2024-01-01"]]
        #expect(try selected("birthDate >= \"2024-01-01\"", timeZone: tokyo, records: day) == ["d2"])
    }

    @Test func variables() throws {
        #expect(try selected("rating >= $MIN", variables: ["MIN": .number("4.5")]) == ["n1", "n5"])
        #expect(try selected("rating >= $MIN", variables: ["MIN": .integer(5)]) == ["n5"])
        #expect(try selected("id IN $IDS", variables: ["IDS": ["n3", "n1"]]) == ["n1", "n3"])
        #expect(try selected("id IN {$A, 'n2'}", variables: ["A": "n4"]) == ["n2", "n4"])
        #expect(try selected("title CONTAINS[c] $Q AND isFavorite == $F", variables: ["Q": "pinot", "F": true]) == ["n1", "n4"])
    }

    @Test func nilSemantics() throws {
        #expect(try selected("missing == nil") == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try selected("missing != nil") == [])
        #expect(try selected("grape == nil") == [])
        #expect(try selected("grape != NULL") == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try selected("missing > 1 OR missing < 1 OR missing == 1") == [])
        #expect(try selected("missing != 1") == ["n1", "n2", "n3", "n4", "n5"])
        #expect(try selected("missing CONTAINS 'a' OR missing BEGINSWITH 'a' OR missing LIKE '*'") == [])
        #expect(try selected("ANY missing == 1") == [])
        #expect(try selected("ALL missing == 1") == ["n1", "n2", "n3", "n4", "n5"])
        let records: [Value] = [["id": "a", "x": nil], ["id": "b", "x": 1], ["id": "c"]]
        #expect(try selected("x == nil", records: records) == ["a", "c"])
        #expect(try selected("x == y", records: records) == ["a", "c"])
        #expect(try selected("x != nil", records: records) == ["b"])
    }

    @Test func schemaFreeTextNumbersAndBooleans() throws {
        let records: [Value] = [
            ["id": "a", "rating": "4.5", "flag": "true", "zip": .number("01234")],
            ["id": "b", "rating": .number("3"), "flag": "False", "zip": .number("9")],
            ["id": "c", "rating": "n/a", "flag": "yes", "zip": "01"],
        ]
        #expect(try selected("rating >= 4", records: records) == ["a"])
        #expect(try selected("rating == \"4.50\"", records: records) == ["a"])
        #expect(try selected("rating < \"10\"", records: records) == ["a", "b"])
        #expect(try selected("flag == YES", records: records) == ["a"])
        #expect(try selected("flag == NO", records: records) == ["b"])
        #expect(try selected("zip BEGINSWITH '01'", records: records) == ["a", "c"])
        // With a schema saying `rating` is text, "4.50" is compared as text.
        let schema = FilterSchema(collections: ["r": ["id": .string, "rating": .string]])
        #expect(try selected("rating == \"4.50\"", schema: schema, records: records) == [])
        #expect(try selected("rating == \"4.5\"", schema: schema, records: records) == ["a"])
    }

    @Test func unicodeFoldingOfRecordValues() throws {
        let records: [Value] = [
            ["id": "nfc", "t": "Café"], ["id": "nfd", "t": "Cafe\u{301}"], ["id": "plain", "t": "cafe"],
            ["id": "upper", "t": "CAFÉ"], ["id": "strasse", "t": "Straße"],
        ]
        #expect(try selected("t ==[cd] \"cafe\"", records: records) == ["nfc", "nfd", "plain", "upper"])
        #expect(try selected("t ==[c] \"café\"", records: records) == ["nfc", "upper"])
        #expect(try selected("t ==[d] \"Cafe\"", records: records) == ["nfc", "nfd"])
        #expect(try selected("t == \"Café\"", records: records) == ["nfc"])
        #expect(try selected("t ==[c] \"STRASSE\"", records: records) == ["strasse"])
        #expect(try selected("t LIKE[cd] \"c?fe\"", records: records) == ["nfc", "nfd", "plain", "upper"])
        #expect(try selected("t MATCHES[cd] \"caf.\"", records: records) == ["nfc", "nfd", "plain", "upper"])
    }

    @Test func likeEscapesAndWildcards() throws {
        let records: [Value] = [["id": "star", "t": "a*b"], ["id": "ab", "t": "axxb"], ["id": "q", "t": "a?b"]]
        #expect(try selected(#"t LIKE "a\\*b""#, records: records) == ["star"])
        #expect(try selected(#"t LIKE "a*b""#, records: records) == ["star", "ab", "q"])
        #expect(try selected(#"t LIKE "a?b""#, records: records) == ["star", "q"])
        #expect(try selected(#"t LIKE "a\\?b""#, records: records) == ["q"])
        #expect(try selected(#"t LIKE "*""#, records: records) == ["star", "ab", "q"])
        #expect(try selected(#"t LIKE "a**b*""#, records: records) == ["star", "ab", "q"])
    }

    @Test func collectionPrefix() throws {
        let filter = try CompiledFilter("stories: caption CONTAINS 'cat'")
        #expect(filter.collection == "stories")
        #expect(filter.evaluate(["caption": "a dog"], collection: "members") == true)
        #expect(filter.evaluate(["caption": "a dog"], collection: "stories") == false)
        #expect(filter.evaluate(["caption": "a cat"], collection: "stories") == true)
        let record = Record(collection: "stories", value: ["caption": "a dog"], location: SourceLocation())
        #expect(filter.evaluate(record) == false)
        #expect(RecordFilter(filter).matches(record) == false)
        #expect(RecordFilter(filter).matches(["caption": "a dog"], collection: "profiles") == true)
    }
}

@Suite struct SchemaEvaluationTests {
    private let schema = FilterSchema(collections: [
        "members": ["id": .string, "birthDate": .day, "species": .enumeration(["bird", "cat", "dog"]), "scores": .list(of: .number)],
    ])
    private let members: [Value] = [
        ["id": "m1", "birthDate": "2020-02-29", "species": "cat", "scores": [1, 2, 3]],
        ["id": "m2", "birthDate": "2024-01-01", "species": "dog", "scores": []],
        ["id": "m3", "species": "bird", "scores": [5]],
    ]

    private func selected(_ source: String) throws -> [String] {
        let filter = try CompiledFilter(source, schema: schema)
        return members.filter { filter.evaluate($0, collection: "members") }.compactMap { $0.objectValue?["id"]?.stringValue }
    }

    @Test func typedComparisons() throws {
        #expect(try selected("birthDate < \"2021-01-01\"") == ["m1"])
        #expect(try selected("\"2021-01-01\" < birthDate") == ["m2"])
        #expect(try selected("birthDate == nil") == ["m3"])
        #expect(try selected("species IN {'cat', 'bird'}") == ["m1", "m3"])
        #expect(try selected("species ==[c] 'DOG'") == ["m2"])
        #expect(try selected("ANY scores BETWEEN {2, 5}") == ["m1", "m3"])
        #expect(try selected("scores CONTAINS 5") == ["m3"])
        #expect(try selected("scores.@sum >= 5") == ["m1", "m3"])
        #expect(try selected("scores.@avg == 2") == ["m1"])
        #expect(try selected("scores.@min == 1 OR scores.@max == 5") == ["m1", "m3"])
        #expect(try selected("members: scores.@count == 0") == ["m2"])
    }

    @Test func typedRefusals() throws {
        #expect(throws: FilterError("@avg needs a list of numbers; 'id' is a string", column: 4, length: 4)) {
            try CompiledFilter("id.@avg > 1", schema: schema)
        }
        #expect(throws: FilterError("unknown value 'cta' of 'species'; did you mean 'cat'? values: cat, dog, bird", column: 12, length: 5)) {
            try CompiledFilter("species == 'cta'", schema: schema)
        }
        #expect(throws: FilterError("'scores items' is a number; compare it with a number, not a string", column: 17, length: 3)) {
            try CompiledFilter("scores CONTAINS 'x'", schema: schema)
        }
    }
}
