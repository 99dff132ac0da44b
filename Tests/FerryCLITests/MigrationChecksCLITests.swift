import FerryTestSupport
import Foundation
import Testing

/// V1 validation applies every check the V1 -> V2 migration makes.
@Suite struct MigrationChecksCLITests {
    /// V1 data the migration would reject is invalid V1 data: `validate` reports exactly the
    /// errors `migrate --to-version 2` stops at, in every data format.
    @Test(arguments: ["json", "jsonl", "xml"])
    func v1ValidationAppliesTheMigrationsChecks(format: String) throws {
        let box = try Sandbox()
        try box.write("vocabulary.json", """
            {"wordBooks": [{"id": "b1", "title": "Book", "timestamp": {"_seconds": 1700000000, "_nanoseconds": 0}}],
             "words": [
              {"id": "w1", "wordBookID": "b1", "meaningText": "a", "ganaText": "a", "kanjiText": "a", "studyState": 3,
               "timestamp": {"_seconds": 1700000001, "_nanoseconds": 0}},
              {"id": "w2", "wordBookID": "b1", "meaningText": "b", "ganaText": "b", "kanjiText": "b", "studyState": -1,
               "timestamp": {"_seconds": 1700000002, "_nanoseconds": 0}},
              {"wordBookID": "b1", "meaningText": "c", "ganaText": "c", "kanjiText": "c", "studyState": 2,
               "timestamp": {"_seconds": 1700000003, "_nanoseconds": 0}}]}
            """)
        try box.write("pet-story.json", """
            {"domain": "pet-story", "schemaVersion": 1, "profiles": [],
             "members": [{"id": "m1", "name": "Kuro", "since": "2020-01-01", "birthDate": "2019-05-01", "type": "cat",
               "sex": "male", "bio": "", "createdAt": "2024-01-01T00:00:00Z"}],
             "stories": [
              {"id": "s1", "caption": "walk", "createdAt": "2024-01-02T00:00:00Z", "mediaContentIds": [], "lat": 35.6,
               "taggedMemberIds": ["m1"]},
              {"id": "s2", "caption": "nap", "createdAt": "2024-01-03T00:00:00Z", "mediaContentIds": [], "lng": 139.7,
               "taggedMemberIds": []}]}
            """)
        try box.write("notes.json", """
            {"domain": "notes", "schemaVersion": 1, "whiskeyNotes": [
              {"id": "k1", "title": "Islay", "category": "single malt", "createdAt": "2024-01-01T00:00:00Z", "alcohol": 46,
               "look": "amber", "smells": ["peat"], "tastes": [{"label": "smoke", "value": 0.9}],
               "finish": {"length": "lingering", "note": "ash"}, "think": "", "rating": 4, "isFavorite": false},
              {"id": "k2", "title": "Speyside", "category": "single malt", "createdAt": "2024-01-01T00:00:00Z", "alcohol": 40,
               "look": "gold", "smells": [], "tastes": [{"label": "honey", "value": 1.5}],
               "finish": {"length": "Short", "note": ""}, "think": "", "rating": 7, "isFavorite": false}]}
            """)
        let counts = ["vocabulary": 3, "pet-story": 2, "notes": 3]
        for domain in ["vocabulary", "pet-story", "notes"] {
            let input = "\(domain).\(format)"
            if format != "json" {
                // Written as plain records: convert holds V1 to the migration's checks, and this
                // data breaks them on purpose.
                let converted = try box.ferry(["convert", "\(domain).json", "--schema-free", "-o", input])
                #expect(converted.status == 0, "\(converted.stderr)")
            }
            let validated = try box.ferry(["validate", input])
            let migrated = try box.ferry(["migrate", input, "--to-version", "2", "-o", "out.json"])
            #expect(validated.status == 1, "\(input): \(validated.stderr)")
            #expect(migrated.status == 1, "\(input)")
            #expect(validated.errors.count == counts[domain], "\(input): \(validated.errors)")
            #expect(validated.errors == migrated.errors, "\(input)")
            #expect(!validated.diagnostics.contains { $0.contains("lossy-") }, "\(input)")
        }
        // The exact lines, for the JSON input.
        if format == "json" {
            let vocabulary = try box.ferry(["validate", "vocabulary.json"])
            let text = try box.text("vocabulary.json")
            #expect(vocabulary.errors == [
                "vocabulary.json:\(position(of: "3,", in: text)): error: /words/0/studyState: studyState 3 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id \"w1\") [invalid-value]",
                "vocabulary.json:\(position(of: "-1", in: text)): error: /words/1/studyState: studyState -1 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id \"w2\") [invalid-value]",
                "vocabulary.json:\(position(of: "{\"wordBookID\"", in: text)): error: /words/2/id: id is missing [missing-field]",
            ])
            let pets = try box.ferry(["validate", "pet-story.json"])
            let petText = try box.text("pet-story.json")
            #expect(pets.errors == [
                "pet-story.json:\(position(of: "35.6", in: petText)): error: /stories/0/lat: lat without lng; a location needs both (id \"s1\") [invalid-value]",
                "pet-story.json:\(position(of: "139.7", in: petText)): error: /stories/1/lng: lng without lat; a location needs both (id \"s2\") [invalid-value]",
            ])
        }
    }

    /// A V1 dataset the migration accepts stays valid, with no migration warning in `validate`.
    @Test(arguments: ["notes-v1.json", "pet-story-v1.json", "vocabulary-v1-node-firestore.json",
                      "vocabulary-v1-backup-restore.json", "pet-story-v1-documents"])
    func validV1DatasetsStayValid(sample: String) throws {
        let box = try Sandbox()
        try box.copySample(sample)
        let run = try box.ferry(["validate", sample])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.diagnostics.contains { $0.contains(": warning: ") }, "\(run.diagnostics)")
    }
    /// One record per domain that the migration would reject, and a field of it to spoil.
    struct Spoiled: Sendable, CustomTestStringConvertible {
        var domain: String
        var json: String
        /// The files' name: a one-collection CSV file is named after its collection.
        var stem: String
        /// A value unique in the file in every format, and what replaces it: in JSON and JSON
        /// Lines, and in the text formats (CSV, XML).
        var value: String
        var badJSON: String
        var badText: String
        var testDescription: String { domain }

        static let all = [
            Spoiled(domain: "notes", json: """
                {"domain": "notes", "schemaVersion": 1, "whiskeyNotes": [
                  {"id": "k1", "title": "Islay", "category": "single malt", "createdAt": "2024-01-01T00:00:00Z", "alcohol": 130,
                   "look": "amber", "smells": ["peat"], "tastes": [{"label": "smoke", "value": 0.9}],
                   "finish": {"length": "long", "note": "ash"}, "think": "", "rating": 7, "isFavorite": false}]}
                """, stem: "whiskeyNotes", value: "false", badJSON: "\"no\"", badText: "no"),
            Spoiled(domain: "vocabulary", json: """
                {"domain": "vocabulary", "schemaVersion": 1,
                 "wordBooks": [{"id": "b1", "title": "Book", "timestamp": {"_seconds": 1700000000, "_nanoseconds": 0}}],
                 "words": [{"id": "w1", "wordBookID": "b1", "meaningText": "a", "ganaText": "a", "kanjiText": "a", "studyState": 3,
                   "timestamp": {"_seconds": 1700000001, "_nanoseconds": 0}}]}
                """, stem: "words", value: "1700000001", badJSON: "\"soon\"", badText: "soon"),
            Spoiled(domain: "pet-story", json: """
                {"domain": "pet-story", "schemaVersion": 1, "profiles": [],
                 "members": [],
                 "stories": [{"id": "s1", "caption": "walk", "createdAt": "2024-01-02T00:00:00Z", "mediaContentIds": [], "lat": 35.6,
                   "taggedMemberIds": []}]}
                """, stem: "stories", value: "2024-01-02T00:00:00Z", badJSON: "\"2024-13-02T00:00:00Z\"", badText: "2024-13-02T00:00:00Z"),
        ]
    }

    /// A V1 record with an error of its own (a type error, an invalid date) still has what the
    /// migration would reject in its other fields reported: the same errors, at the same
    /// pointers, as `migrate` reports once the record's own error is fixed. In every format.
    @Test(arguments: Spoiled.all, ["json", "jsonl", "xml", "csv"])
    func migrationChecksAreReportedBesideARecordsOwnErrors(spoiled: Spoiled, format: String) throws {
        let box = try Sandbox()
        try box.write("good/\(spoiled.stem).json", spoiled.json)
        if format != "json" {
            // Written as plain records: convert holds V1 to the migration's checks, which this
            // data breaks on purpose.
            let converted = try box.ferry(["convert", "good/\(spoiled.stem).json", "--schema-free", "-o", "good/\(spoiled.stem).\(format)"])
            #expect(converted.status == 0, "\(converted.stderr)")
        }
        let good = try box.text("good/\(spoiled.stem).\(format)")
        #expect(good.components(separatedBy: spoiled.value).count == 2, "the value to spoil is unique")
        // JSON strings are replaced with their quotes; text formats' cells and elements as they are.
        let isText = format == "xml" || format == "csv"
        let isJSONString = !isText && spoiled.value != "false" && !spoiled.value.allSatisfy(\.isNumber)
        let bad = isText ? good.replacingOccurrences(of: spoiled.value, with: spoiled.badText)
            : good.replacingOccurrences(of: isJSONString ? "\"\(spoiled.value)\"" : spoiled.value, with: spoiled.badJSON)
        try box.write("bad/\(spoiled.stem).\(format)", bad)

        let migrated = try box.ferry(["migrate", "good/\(spoiled.stem).\(format)", "--to-version", "2", "-o", "out.json"])
        let validated = try box.ferry(["validate", "bad/\(spoiled.stem).\(format)"])
        #expect(migrated.status == 1)
        #expect(validated.status == 1)
        // Without the file and position, which the spoiled value may move.
        func message(_ line: String) -> String { String(line[line.range(of: ": error: ")!.upperBound...]) }
        #expect(validated.errors.count == 1 + migrated.errors.count, "\(validated.errors)")
        // In line and column order, the record's own error among the others where it stands.
        let checks = migrated.errors.map(message)
        #expect(validated.errors.map(message).filter { checks.contains($0) } == checks)
        #expect(!migrated.errors.isEmpty)
        // Migrating the spoiled record reports what validating it does (it is not written).
        let migratedBad = try box.ferry(["migrate", "bad/\(spoiled.stem).\(format)", "--to-version", "2", "-o", "bad-out.json"])
        #expect(migratedBad.errors == validated.errors)
        #expect(migratedBad.status == 1)
        if format == "json" {
            let text = try box.text("bad/\(spoiled.stem).json")
            let lines: [String: [String]] = [
                "notes": [
                    "bad/\(spoiled.stem).json:\(position(of: "130", in: text)): error: /whiskeyNotes/0/alcohol: alcoholByVolume 130 is out of range 0...100 (id \"k1\") [out-of-range]",
                    "bad/\(spoiled.stem).json:\(position(of: "7,", in: text)): error: /whiskeyNotes/0/rating: rating 7 is out of range 0...5 (id \"k1\") [out-of-range]",
                    "bad/\(spoiled.stem).json:\(position(of: "\"no\"", in: text)): error: /whiskeyNotes/0/isFavorite: isFavorite: expected a Boolean, found \"no\" (id \"k1\") [type-error]",
                ],
                "vocabulary": [
                    "bad/\(spoiled.stem).json:\(position(of: "3,", in: text)): error: /words/0/studyState: studyState 3 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined) (id \"w1\") [invalid-value]",
                    "bad/words.json:\(position(of: "\"soon\"", in: text)): error: /words/0/timestamp/_seconds: timestamp/_seconds: expected an integer (id \"w1\") [type-error]",
                ],
                "pet-story": [
                    "bad/stories.json:\(position(of: "\"2024-13", in: text)): error: /stories/0/createdAt: createdAt \"2024-13-02T00:00:00Z\" names a date or time that does not exist (id \"s1\") [invalid-value]",
                    "bad/\(spoiled.stem).json:\(position(of: "35.6", in: text)): error: /stories/0/lat: lat without lng; a location needs both (id \"s1\") [invalid-value]",
                ],
            ]
            #expect(validated.errors == lines[spoiled.domain])
        }
    }
}
