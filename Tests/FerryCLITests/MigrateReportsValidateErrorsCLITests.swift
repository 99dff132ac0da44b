import FerryTestSupport
import Foundation
import Testing

/// One V1 record per domain with a problem its reading finds (an unknown field, its last member)
/// after one its migration's checks find (a whiskey finish length, a lone `lat`, a word's missing
/// book and unknown study state), in every format: `validate` lists the record's problems in line
/// and column order, and `migrate` reports every one of them too (the record is not written, but
/// what its stages reject in its other fields is said), with `--jobs` 1 and 2.
@Suite struct MigrateReportsValidateErrorsCLITests {
    /// The V1 input of each domain, as a JSON document.
    static let inputs: [String: String] = [
        "notes": """
            {
              "domain": "notes",
              "schemaVersion": 1,
              "whiskeyNotes": [
                {
                  "id": "k-1",
                  "title": "Yamazaki 12",
                  "category": "single malt",
                  "createdAt": "2024-01-15T22:00:00Z",
                  "alcohol": 43,
                  "look": "amber",
                  "smells": [],
                  "tastes": [],
                  "finish": {
                    "length": "Lingering",
                    "note": ""
                  },
                  "think": "",
                  "rating": 4.5,
                  "isFavorite": true,
                  "bogus": 1
                }
              ]
            }

            """,
        "pet-story": """
            {
              "domain": "pet-story",
              "schemaVersion": 1,
              "stories": [
                {
                  "id": "s1",
                  "caption": "lat without lng",
                  "createdAt": "2024-01-01T00:00:00Z",
                  "mediaContentIds": [],
                  "lat": 35.0,
                  "taggedMemberIds": [],
                  "bogus": 1
                }
              ]
            }

            """,
        "vocabulary": """
            {
              "domain": "vocabulary",
              "schemaVersion": 1,
              "words": [
                {
                  "id": "w1",
                  "wordBookID": "",
                  "meaningText": "seven",
                  "ganaText": "なな",
                  "kanjiText": "七",
                  "studyState": 7,
                  "timestamp": {
                    "_seconds": 1700000002,
                    "_nanoseconds": 0
                  },
                  "bogus": 1
                }
              ]
            }

            """,
    ]

    /// Each problem: its pointer and message, the CSV column it names, its code.
    static let problems: [String: [(String, String, String)]] = [
        "notes": [
            ("/whiskeyNotes/0/finish/length: finish.length \"Lingering\" is not short, medium or long (--lenient maps it to medium)",
             "finish.length", "(id \"k-1\") [invalid-value]"),
            ("/whiskeyNotes/0/bogus: unknown field \"bogus\" in WhiskeyNote", "bogus", "(id \"k-1\") [unknown-field]"),
        ],
        "pet-story": [
            ("/stories/0/lat: lat without lng; a location needs both", "lat", "(id \"s1\") [invalid-value]"),
            ("/stories/0/bogus: unknown field \"bogus\" in Story", "bogus", "(id \"s1\") [unknown-field]"),
        ],
        "vocabulary": [
            ("/words/0/wordBookID: wordBookID is missing", "wordBookID", "(id \"w1\") [missing-field]"),
            ("/words/0/studyState: studyState 7 is not 0 (undefined), 1 (success) or 2 (fail) (--lenient maps it to undefined)",
             "studyState", "(id \"w1\") [invalid-value]"),
            ("/words/0/bogus: unknown field \"bogus\" in Word", "bogus", "(id \"w1\") [unknown-field]"),
        ],
    ]

    /// Where each format puts each problem, and the file (and member) the diagnostics name.
    static let places: [String: [String: (String, [String])]] = [
        "notes": [
            "json": ("in.json", ["15:19", "21:16"]), "jsonl": ("in.jsonl", ["2:195", "2:268"]),
            "xml": ("in.xml", ["14:9", "20:7"]), "csv": ("in/whiskeyNotes.csv", ["2:59", "2:84"]),
            "tar": ("in.tar:data/whiskeyNotes.json", ["15:19", "21:16"]),
        ],
        "pet-story": [
            "json": ("in.json", ["10:14", "12:16"]), "jsonl": ("in.jsonl", ["2:126", "2:160"]),
            "xml": ("in.xml", ["9:7", "11:7"]), "csv": ("in/stories.csv", ["2:41", "2:46"]),
            "tar": ("in.tar:data/stories.json", ["10:14", "12:16"]),
        ],
        "vocabulary": [
            "json": ("in.json", ["7:21", "11:21", "16:16"]), "jsonl": ("in.jsonl", ["2:47", "2:117", "2:180"]),
            "xml": ("in.xml", ["6:7", "10:7", "15:7"]), "csv": ("in/words.csv", ["2:4", "2:18", "2:33"]),
            "tar": ("in.tar:data/words.json", ["7:21", "11:21", "16:16"]),
        ],
    ]

    @Test(arguments: FormatCells.all)
    func migrateSaysEveryErrorValidateSaysInLineAndColumnOrder(_ domain: String, _ format: String) throws {
        let box = try Sandbox()
        let input = try box.input(Self.inputs[domain]!, as: format)
        let (file, positions) = Self.places[domain]![format]!
        let expected = FormatCells.errorLines(Self.problems[domain]!, at: positions, of: file, format: format)
        let flags = ["--domain", domain, "--schema-version", "1"]
        for jobs in ["1", "2"] {
            let validate = try box.ferry(["validate", input, "--jobs", jobs] + flags)
            #expect(validate.errors == expected, "validate \(domain) \(format) --jobs \(jobs)")
            #expect(validate.status == 1)
            let migrate = try box.ferry(["migrate", input, "--to-version", "2", "-o", "out/", "--jobs", jobs] + flags)
            #expect(migrate.errors == expected, "migrate \(domain) \(format) --jobs \(jobs)")
            #expect(migrate.status == 1)
        }
    }
}
